package game

import (
	"fmt"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// One way to check a history, for import (checkRules) and verify (Audit)
// alike: each command's events (one batch) are decided again with the
// Decide every other way in uses, on the game or group folded so far, and
// must be what tappbook writes byte for byte; only then are they folded.
// Each step gives the event at fault with what is wrong, for the caller to
// name it its way (a file's line, a database's seq).

// redecideGameBatch decides again the command whose events evs holds on
// the game f has folded so far, then folds them.
func redecideGameBatch(f *tapp.Folder, evs []events.Event) (events.Event, error) {
	players := f.Peek().Setup.Players // the deals' players are the game's before the command
	batch := make([]tapp.Event, len(evs))
	for i, ev := range evs {
		p, err := tapp.Decode(ev.Type, ev.Data, players)
		if err != nil {
			return ev, err
		}
		batch[i] = Stored(ev, p)
		if g, ok := p.(tapp.GameStarted); ok && !archive.ValidID(g.ReadID) {
			return ev, fmt.Errorf("its read-only id %q is not one tappbook makes", g.ReadID)
		}
	}
	if err := tapp.Redecide(f.Peek(), batch); err != nil {
		return evs[0], err
	}
	for i, e := range batch {
		if err := f.Apply(e); err != nil {
			return evs[i], err
		}
	}
	return events.Event{}, nil
}

// redecideGroupBatch decides again the command whose events evs holds on
// the group f has folded so far, then folds them. An evening's join is
// decided with the players and money its game gives (evening).
func redecideGroupBatch(f *group.Folder, evs []events.Event, evening group.EveningGame) (events.Event, error) {
	batch := make([]group.Stored, len(evs))
	for i, ev := range evs {
		p, err := group.Decode(ev.Type, ev.Data)
		if err != nil {
			return ev, err
		}
		batch[i] = group.Stored{Version: ev.Version, Data: p, Raw: ev.Data}
		if err := idsMade(p); err != nil {
			return ev, err
		}
	}
	if err := group.Redecide(f.Peek(), batch, evening); err != nil {
		return evs[0], err
	}
	for i, e := range batch {
		if err := f.Apply(group.Event{Version: e.Version, At: evs[i].RecordedAt, Data: e.Data}); err != nil {
			return evs[i], err
		}
	}
	return events.Event{}, nil
}

// idsMade refuses an id in a group's event that the server would not have
// made (archive.ValidID): the group's read-only key, an evening's ids.
func idsMade(p group.Payload) error {
	var ids []string
	switch p := p.(type) {
	case group.Started:
		ids = []string{p.ReadID}
	case group.EveningJoined:
		ids = []string{p.Game, p.ReadID}
	}
	for _, id := range ids {
		if !archive.ValidID(id) {
			return fmt.Errorf("the id %q is not one tappbook makes", id)
		}
	}
	return nil
}
