package game

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"tappbook/internal/events"
	"tappbook/internal/group"
)

// A group's export is one file of JSON lines in Export's format: the
// group's events, then each evening's, stream after stream, oldest first.
// It is a thin layer over the export of one stream, to be pointed at
// internal/archive when that takes over export and import.

// exportGroup writes the group's events (evs) and then those of every
// evening whose game has events.
func exportGroup(ctx context.Context, store *events.Store, evs []events.Event, w io.Writer) (int, error) {
	id := evs[0].Stream
	st, err := foldGroup(id, evs)
	if err != nil {
		return 0, fmt.Errorf("export group %s: %w", id, err)
	}
	all := append([]events.Event(nil), evs...)
	for _, ev := range st.Evenings() {
		game, err := store.ReadStream(ctx, ev.Game)
		if err != nil {
			return 0, fmt.Errorf("export group %s: evening %s: %w", id, ev.Game, err)
		}
		all = append(all, game...)
	}
	enc := json.NewEncoder(w)
	for _, e := range all {
		if err := enc.Encode(exported{Stream: e.Stream, Version: e.Version, Batch: e.Batch, Type: e.Type,
			SchemaVersion: e.SchemaVersion, At: e.RecordedAt, Data: e.Data, Hash: e.Hash}); err != nil {
			return 0, fmt.Errorf("export group %s: %w", id, err)
		}
	}
	return len(all), nil
}

// importGroup recreates a group and its evenings from an export. Every
// stream must fold, and every game must be an evening the group lists,
// before anything is written. Then the group is written first and its
// games after it, each stream in a transaction of its own: the order in
// which tappbook itself writes an evening, so an import cut short leaves
// only evenings not yet played, and running it again writes what is
// missing (a stream already here with the same events is passed over; one
// with other events is refused).
func importGroup(ctx context.Context, store *events.Store, evs []events.Event) (string, int, error) {
	id := evs[0].Stream
	var order []string
	streams := map[string][]events.Event{}
	for _, e := range evs {
		if _, ok := streams[e.Stream]; !ok {
			order = append(order, e.Stream)
		}
		streams[e.Stream] = append(streams[e.Stream], e)
	}
	st, err := foldGroup(id, streams[id])
	if err != nil {
		return "", 0, fmt.Errorf("import: not a group tappbook can read: %w", err)
	}
	aliases := map[string][]string{id: {st.ReadID}}
	for _, s := range order[1:] {
		g, err := Fold(s, streams[s])
		if err != nil {
			return "", 0, fmt.Errorf("import: evening %s is not a game tappbook can read: %w", s, err)
		}
		ev, ok := st.Evening(s)
		if !ok || g.Group != id || ev.ReadID != g.ReadID {
			return "", 0, fmt.Errorf("import: game %s is not an evening of group %s", s, id)
		}
		aliases[s] = []string{g.ReadID}
	}
	for _, s := range order {
		here, err := store.ReadStream(ctx, s)
		if err != nil {
			return "", 0, fmt.Errorf("import %s: %w", s, err)
		}
		if len(here) > 0 {
			file := streams[s]
			if len(here) != len(file) || here[len(here)-1].Hash != file[len(file)-1].Hash {
				return "", 0, fmt.Errorf("import %s: it is already in this database with other events", s)
			}
			continue
		}
		if err := store.Import(ctx, streams[s], aliases[s]); err != nil {
			return "", 0, err
		}
	}
	return id, len(evs), nil
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
