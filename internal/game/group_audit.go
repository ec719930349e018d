package game

import (
	"context"
	"fmt"
	"sort"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// groupAudit is Audit's part for groups: it folds every group stream it is
// handed, event by event, and checks the two sides of every evening — the
// group that lists a game, the game that names its group — against each
// other once the pass is over.
type groupAudit struct {
	folders map[string]*group.Folder // groups being folded
	groups  map[string]*group.State  // groups folded to their last event
	games   map[string]gameClaim     // every game, with the group its first event names
	// foldLater leaves a group's fold to redecide, which folds it as it
	// decides its commands again: Audit's checks then fold each group
	// once. An import's evening checks decide nothing and fold as they read.
	foldLater bool
	folded    int // group events folded: for the tests to count
}

// gameClaim is what a game's first event says about its group, and the
// players and money a group's join of it is decided with again.
type gameClaim struct {
	group, readID  string
	players        []string
	unit, currency string
}

func newGroupAudit() *groupAudit {
	return &groupAudit{folders: map[string]*group.Folder{}, groups: map[string]*group.State{}, games: map[string]gameClaim{}}
}

// take looks at an event of the pass: a group's is folded here, or left
// to redecide (foldLater), and taken is true, problem saying what is wrong
// with it, if anything; a game's first event is noted for the evening
// checks and left to the game's fold.
func (a *groupAudit) take(e events.Event, last bool) (taken bool, problem string) {
	f := a.folders[e.Stream]
	if f == nil && e.Version == 1 && e.Type == group.TypeStarted {
		f = group.NewFolder(e.Stream)
		a.folders[e.Stream] = f
	}
	if f != nil && a.foldLater {
		if last {
			delete(a.folders, e.Stream)
		}
		return true, ""
	}
	if f == nil {
		if e.Version == 1 && e.Type == tapp.TypeGameStarted {
			// Decoded as import decodes it, for the joins to be decided
			// with the same players and money.
			p, err := tapp.Decode(e.Type, e.Data, nil)
			if err != nil {
				return false, "" // the game's fold says what is wrong with it
			}
			g := p.(tapp.GameStarted)
			a.games[e.Stream] = gameClaim{group: g.Group, readID: g.ReadID, players: g.Players, unit: g.Unit, currency: g.Currency}
		}
		return false, ""
	}
	p, err := group.Decode(e.Type, e.Data)
	if err == nil {
		err = f.Apply(group.Event{Version: e.Version, At: e.RecordedAt, Data: p})
		a.folded++
	}
	if err != nil {
		return true, err.Error()
	}
	if last {
		a.groups[e.Stream] = f.State()
		delete(a.folders, e.Stream)
	}
	return true, ""
}

// redecide decides every group's commands again (redecideGroupBatch) from
// its events as stored, each join with its game's players and money: the
// games' first events may come after the group's in stored order, so this
// waits for the pass to be over. With foldLater, its fold is the group's
// only one, kept at the group's last event for the evening and link
// checks. It names the first event at fault, or gives "".
func (a *groupAudit) redecide(streams map[string][]events.Event) string {
	evening := func(game string) ([]string, string, string, bool) {
		c, ok := a.games[game]
		return c.players, c.unit, c.currency, ok
	}
	ids := make([]string, 0, len(streams))
	for id := range streams {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		f := group.NewFolder(id)
		err := batches(streams[id], func(evs []events.Event) error {
			if ev, err := redecideGroupBatch(f, evs, evening); err != nil {
				return fmt.Errorf("event %d (group %s, version %d, %s): %w", ev.Seq, ev.Stream, ev.Version, ev.Type, err)
			}
			a.folded += len(evs)
			return nil
		})
		if err != nil {
			return err.Error()
		}
		if a.foldLater {
			a.groups[id] = f.State()
		}
	}
	return ""
}

// finish gives the first of problems, or "".
func (a *groupAudit) finish() string {
	if ps := a.problems(); len(ps) > 0 {
		return ps[0]
	}
	return ""
}

// problems checks every evening from both sides: a game that names a group is
// listed by that group with the game's own read-only key, and a game a
// group lists names that group. An evening a group lists whose game has no
// events is a start cut short (see startEvening), not a fault. It gives
// everything wrong, in a stable order.
func (a *groupAudit) problems() []string {
	var out []string
	ids := make([]string, 0, len(a.games))
	for id := range a.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := a.games[id]
		if c.group == "" {
			continue
		}
		g := a.groups[c.group]
		if g == nil {
			out = append(out, fmt.Sprintf("game %s is an evening of group %s, which is not in this database", id, c.group))
			continue
		}
		ev, ok := g.Evening(id)
		if !ok {
			out = append(out, fmt.Sprintf("game %s is an evening of group %s, which does not list it", id, c.group))
			continue
		}
		if ev.ReadID != c.readID {
			out = append(out, fmt.Sprintf("group %s lists game %s with read-only key %s, but the game's is %s", c.group, id, ev.ReadID, c.readID))
		}
	}
	gids := make([]string, 0, len(a.groups))
	for id := range a.groups {
		gids = append(gids, id)
	}
	sort.Strings(gids)
	for _, gid := range gids {
		for _, ev := range a.groups[gid].Evenings() {
			if c, ok := a.games[ev.Game]; ok && c.group != gid {
				out = append(out, fmt.Sprintf("group %s lists game %s as its evening, but the game names group %q", gid, ev.Game, c.group))
			}
		}
	}
	return out
}

// links checks that every game's and group's read-only key opens that
// stream and no other: the keys are rows beside the events, outside the
// hash chain, and a key pointed at another evening would show that one to
// whoever holds the link (and a receipt checked through it would fail).
func (a *groupAudit) links(ctx context.Context, store events.Engine) (string, error) {
	keys := map[string]string{} // stream -> its read-only key
	for id, c := range a.games {
		keys[id] = c.readID
	}
	for id, g := range a.groups {
		keys[id] = g.ReadID
	}
	ids := make([]string, 0, len(keys))
	for id := range keys {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if keys[id] == "" {
			continue
		}
		opens, err := store.Resolve(ctx, keys[id])
		if err != nil {
			return "", fmt.Errorf("audit: %w", err)
		}
		switch {
		case opens == "":
			return fmt.Sprintf("the read-only key %s of %s opens nothing in this database: its read-only link is gone", keys[id], id), nil
		case opens != id:
			return fmt.Sprintf("the read-only key %s of %s opens %s in this database", keys[id], id, opens), nil
		}
	}
	return "", nil
}
