package game

import (
	"context"
	"errors"
	"fmt"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// checkReadIDs refuses a read-only id tappbook would not have made, or one
// the file gives twice or that is a stream's own id: each opens one stream.
func checkReadIDs(streams []*archive.Stream, aliases map[string][]string) error {
	owner := map[string]string{}
	for _, s := range streams {
		owner[s.ID] = s.ID
	}
	for _, s := range streams {
		for _, a := range aliases[s.ID] {
			if !archive.ValidID(a) {
				return fmt.Errorf("%s: its read-only id %q is not one tappbook makes", s.ID, a)
			}
			if other, ok := owner[a]; ok {
				return fmt.Errorf("%s: its read-only id %s is %s's too: each id opens one stream", s.ID, a, other)
			}
			owner[a] = s.ID
		}
	}
	return nil
}

// checkBelongs refuses a file that would claim what the database holds for
// another: an evening a group's file lists whose game is here as another
// group's, or as a game of no group; an evening imported alone whose group
// is not here or does not list it (verify would find it orphaned); a
// read-only key that opens another stream here.
func checkBelongs(ctx context.Context, store events.Engine, streams []*archive.Stream, aliases map[string][]string) error {
	at := numberLines(streams)
	first := streams[0]
	for _, s := range streams {
		// A stream's id that is a read-only key here would be opened by
		// two links, and its read-only link would show the other stream.
		here, err := store.Resolve(ctx, s.ID)
		if err != nil {
			return fmt.Errorf("import %s: %w", s.ID, err)
		}
		if here != "" && here != s.ID {
			return fmt.Errorf("import %s: its id is the read-only key of %s in this database", s.ID, here)
		}
	}
	for id, as := range aliases {
		for _, a := range as {
			here, err := store.Resolve(ctx, a)
			if err != nil {
				return fmt.Errorf("import %s: %w", id, err)
			}
			if here != "" && here != id {
				return fmt.Errorf("import %s: its read-only key %s opens %s in this database", id, a, here)
			}
			if v, err := store.StreamVersion(ctx, a); err != nil {
				return fmt.Errorf("import %s: %w", id, err)
			} else if v > 0 {
				return fmt.Errorf("import %s: its read-only key %s is the id of a stream in this database", id, a)
			}
		}
	}
	if first.Events[0].Type != group.TypeStarted {
		return checkEveningAlone(ctx, store, first, at)
	}
	inFile := map[string]bool{}
	for _, s := range streams {
		inFile[s.ID] = true
	}
	for _, ev := range first.Events {
		if ev.Type != group.TypeEveningJoined {
			continue
		}
		p, err := group.Decode(ev.Type, ev.Data)
		if err != nil {
			return at.refuse(ev, "%v", err)
		}
		j := p.(group.EveningJoined)
		if inFile[j.Game] {
			continue // its own start names its group: Import checks it
		}
		g, here, err := storedStart(ctx, store, j.Game)
		if err != nil {
			return fmt.Errorf("import %s: evening %s: %w", first.ID, j.Game, err)
		}
		switch {
		case here == absent:
			// Not here: an evening never played, as the group lists it.
		case here == notGame:
			return at.refuse(ev, "%s is in this database as a stream that is not a game, not an evening of group %s", j.Game, first.ID)
		case g.Group == "":
			return at.refuse(ev, "game %s is in this database as a game of no group, not an evening of group %s", j.Game, first.ID)
		case g.Group != first.ID:
			return at.refuse(ev, "game %s is in this database as an evening of another group (%s), not of group %s", j.Game, g.Group, first.ID)
		case g.ReadID != j.ReadID:
			return at.refuse(ev, "game %s is in this database with read-only key %s, not %s", j.Game, g.ReadID, j.ReadID)
		}
	}
	return nil
}

// checkEvenings refuses a file after which a group and a game would
// disagree about an evening, as verify checks it over the whole database:
// a group's file that lists an evening not yet here, which arrives later
// under another group or none, is caught when that game comes. Only what
// the file would add is refused; a fault the database holds already is
// verify's to name.
func checkEvenings(ctx context.Context, store events.Engine, streams []*archive.Stream) error {
	before, after := newGroupAudit(), newGroupAudit()
	inFile := map[string]bool{}
	for _, s := range streams {
		inFile[s.ID] = true
	}
	err := store.ReplayAll(ctx, func(ev events.Event, last bool) error {
		before.take(ev, last)
		if !inFile[ev.Stream] { // the file's copy stands for it
			after.take(ev, last)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the database's groups and evenings: %w", err)
	}
	for _, s := range streams {
		for i, ev := range s.Events {
			after.take(ev, i == len(s.Events)-1)
		}
	}
	known := map[string]bool{}
	for _, p := range before.problems() {
		known[p] = true
	}
	for _, p := range after.problems() {
		if !known[p] {
			return fmt.Errorf("once it is imported, %s", p)
		}
	}
	return nil
}

// checkEveningAlone refuses a game that names a group, imported without
// it, unless that group is here and lists it with the same read-only key:
// a group's evenings come with the group's export.
func checkEveningAlone(ctx context.Context, store events.Engine, s *archive.Stream, at lines) error {
	first := s.Events[0]
	p, err := tapp.Decode(first.Type, first.Data, nil)
	if err != nil {
		return at.refuse(first, "%v", err)
	}
	g := p.(tapp.GameStarted)
	if g.Group == "" {
		return nil
	}
	grp, err := RebuildGroup(ctx, store, g.Group)
	if err != nil {
		return fmt.Errorf("import %s: its group %s: %w", s.ID, g.Group, err)
	}
	if grp == nil {
		return at.refuse(first, "the game is an evening of group %s, which is not in this database: import the group's export, which holds its evenings", g.Group)
	}
	if ev, ok := grp.Evening(s.ID); !ok || ev.ReadID != g.ReadID {
		return at.refuse(first, "the game is an evening of group %s, which does not list it in this database", g.Group)
	}
	return nil
}

// What a database holds under an id.
const (
	absent = iota
	aGame
	notGame
)

// storedStart is what the first event of a stream here says: whether the
// stream is here and a game, and if so how it started.
func storedStart(ctx context.Context, store events.Engine, id string) (tapp.GameStarted, int, error) {
	var out tapp.GameStarted
	here := absent
	err := store.Replay(ctx, id, func(ev events.Event) error {
		here = notGame
		if ev.Type == tapp.TypeGameStarted {
			p, err := tapp.Decode(ev.Type, ev.Data, nil)
			if err != nil {
				return err
			}
			out, here = p.(tapp.GameStarted), aGame
		}
		return errFirstRead
	})
	if err != nil && !errors.Is(err, errFirstRead) {
		return out, here, err
	}
	return out, here, nil
}

// errFirstRead ends a replay after the first event.
var errFirstRead = errors.New("first event read")
