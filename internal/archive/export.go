package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"tappbook/internal/events"
)

// ErrNoStream is an export of a stream the store does not hold.
var ErrNoStream = errors.New("there is no such game in this database")

// Export writes a stream's events to w in the archive format, oldest first,
// then the end record, and says how many events it wrote.
func Export(ctx context.Context, store events.Engine, id string, w io.Writer) (int, error) {
	evs, err := store.ReadStream(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("export %s: %w", id, err)
	}
	if len(evs) == 0 {
		return 0, ErrNoStream
	}
	enc := json.NewEncoder(w)
	for _, e := range evs {
		if err := enc.Encode(lineOf(e)); err != nil {
			return 0, fmt.Errorf("export %s: %w", id, err)
		}
	}
	last := evs[len(evs)-1]
	if err := enc.Encode(endLine{End: &end{Stream: id, Events: len(evs), Head: last.Hash}}); err != nil {
		return 0, fmt.Errorf("export %s: %w", id, err)
	}
	return len(evs), nil
}

// ExportAll writes several streams one after another, each with its end
// record (a group and its evenings), and says how many events it wrote.
func ExportAll(ctx context.Context, store events.Engine, ids []string, w io.Writer) (int, error) {
	n := 0
	for _, id := range ids {
		k, err := Export(ctx, store, id, w)
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}
