package game

import (
	"context"
	"fmt"
	"io"
	"time"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/signing"
)

// Export writes a game in the archive format; given a group's id, the
// group's stream and then every evening it lists that has events, each
// stream whole with its end record; then, with a key (the server's), the
// note signed by it that ends a signed export.
func Export(ctx context.Context, store events.Engine, id string, key *signing.Key, w io.Writer) (int, error) {
	evs, err := store.ReadStream(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("export %s: %w", id, err)
	}
	if len(evs) == 0 {
		return 0, archive.ErrNoStream
	}
	if evs[0].Type != group.TypeStarted {
		return archive.ExportAll(ctx, store, []string{id}, key, w)
	}
	st, err := foldGroup(id, evs)
	if err != nil {
		return 0, fmt.Errorf("export group %s: %w", id, err)
	}
	ids := []string{id}
	for _, ev := range st.Evenings() {
		v, err := store.StreamVersion(ctx, ev.Game)
		if err != nil {
			return 0, fmt.Errorf("export group %s: evening %s: %w", id, ev.Game, err)
		}
		if v > 0 { // an evening never played has no events to carry
			ids = append(ids, ev.Game)
		}
	}
	return archive.ExportAll(ctx, store, ids, key, w)
}

// Import recreates what Export wrote, from streams archive.ReadAll has
// checked: one game, or a group with its evenings. Every stream must fold,
// and every game of a group's file must be an evening the group lists,
// before anything is written. A group is written first and its games after
// it, each stream in a transaction of its own: the order in which tappbook
// itself writes an evening, so an import cut short leaves only evenings not
// yet played, and running it again writes what is missing (a stream already
// here with the same events is passed over; one with other events refuses
// the file before any stream is written).
//
// Before anything is written, every command the file holds is decided
// again as if it were recorded now (checkRules), and nothing in it may
// claim what this database holds for another (checkBelongs): anything
// else refuses the whole file, naming the first event at fault.
func Import(ctx context.Context, store events.Engine, streams []*archive.Stream) (string, int, error) {
	if err := checkRules(streams, time.Now()); err != nil {
		return "", 0, fmt.Errorf("import: %w", err)
	}
	first := streams[0]
	aliases := map[string][]string{}
	n := 0
	for _, s := range streams {
		n += len(s.Events)
	}
	if first.Events[0].Type != group.TypeStarted {
		if len(streams) > 1 {
			return "", 0, fmt.Errorf("import: the file holds %d streams, but the first is a game, not a group", len(streams))
		}
		g, err := Fold(first.ID, first.Events)
		if err != nil {
			return "", 0, fmt.Errorf("import: not a game tappbook can read: %w", err)
		}
		if g.ReadID != "" {
			aliases[first.ID] = []string{g.ReadID}
		}
	} else {
		st, err := foldGroup(first.ID, first.Events)
		if err != nil {
			return "", 0, fmt.Errorf("import: not a group tappbook can read: %w", err)
		}
		aliases[first.ID] = []string{st.ReadID}
		for _, s := range streams[1:] {
			g, err := Fold(s.ID, s.Events)
			if err != nil {
				return "", 0, fmt.Errorf("import: evening %s is not a game tappbook can read: %w", s.ID, err)
			}
			ev, ok := st.Evening(s.ID)
			if !ok || g.Group != first.ID || ev.ReadID != g.ReadID {
				return "", 0, fmt.Errorf("import: game %s is not an evening of group %s", s.ID, first.ID)
			}
			aliases[s.ID] = []string{g.ReadID}
		}
	}
	if err := checkReadIDs(streams, aliases); err != nil {
		return "", 0, fmt.Errorf("import: %w", err)
	}
	if err := checkBelongs(ctx, store, streams, aliases); err != nil {
		return "", 0, fmt.Errorf("import: %w", err)
	}
	if err := checkEvenings(ctx, store, streams); err != nil {
		return "", 0, fmt.Errorf("import: %w", err)
	}
	missing, err := missingStreams(ctx, store, streams)
	if err != nil {
		return "", 0, err
	}
	for _, s := range missing {
		if err := archive.Import(ctx, store, s, aliases[s.ID]); err != nil {
			return "", 0, err
		}
	}
	return first.ID, n, nil
}

// missingStreams gives the file's streams this database does not hold yet,
// after checking every stream it holds already: each must have the file's
// events, so that a refused file writes none of its streams. A file whose
// every stream is here has nothing to import.
func missingStreams(ctx context.Context, store events.Engine, streams []*archive.Stream) ([]*archive.Stream, error) {
	var missing []*archive.Stream
	for _, s := range streams {
		here, err := store.ReadStream(ctx, s.ID)
		if err != nil {
			return nil, fmt.Errorf("import %s: %w", s.ID, err)
		}
		switch {
		case len(here) == 0:
			missing = append(missing, s)
		case len(here) != len(s.Events) || here[len(here)-1].Hash != s.Head():
			return nil, fmt.Errorf("import %s: it is already in this database with other events", s.ID)
		}
	}
	if len(missing) == 0 {
		return nil, fmt.Errorf("import %s: it is already in this database, with the same events: there is nothing to import", streams[0].ID)
	}
	return missing, nil
}

// foldGroup folds a group from its stored events, decoding each.
func foldGroup(id string, evs []events.Event) (*group.State, error) {
	f := group.NewFolder(id)
	for _, ev := range evs {
		p, err := group.Decode(ev.Type, ev.Data)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", ev.Version, err)
		}
		if err := f.Apply(group.Event{Version: ev.Version, At: ev.RecordedAt, Data: p}); err != nil {
			return nil, err
		}
	}
	return f.State(), nil
}
