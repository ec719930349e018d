package archive

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"tappbook/internal/events"
	"tappbook/internal/signing"
)

// ErrNoStream is an export of a stream the store does not hold.
var ErrNoStream = errors.New("there is no such game in this database")

// Export writes a stream's events to w in the archive format, oldest first,
// then the end record, and says how many events it wrote.
func Export(ctx context.Context, store events.Engine, id string, w io.Writer) (int, error) {
	e, err := exportOne(ctx, store, id, w)
	return e.Events, err
}

func exportOne(ctx context.Context, store events.Engine, id string, w io.Writer) (end, error) {
	evs, err := store.ReadStream(ctx, id)
	if err != nil {
		return end{}, fmt.Errorf("export %s: %w", id, err)
	}
	if len(evs) == 0 {
		return end{}, ErrNoStream
	}
	enc := json.NewEncoder(w)
	for _, e := range evs {
		if err := enc.Encode(lineOf(e)); err != nil {
			return end{}, fmt.Errorf("export %s: %w", id, err)
		}
	}
	last := evs[len(evs)-1]
	e := end{Stream: id, Events: len(evs), Head: last.Hash}
	if err := enc.Encode(endLine{End: &e}); err != nil {
		return end{}, fmt.Errorf("export %s: %w", id, err)
	}
	return e, nil
}

// ExportAll writes several streams one after another, each with its end
// record (a group and its evenings), and says how many events it wrote.
// With a key, the file ends with a note signed by it over every stream's
// count and head (see sealHeader); with none, it is not signed.
func ExportAll(ctx context.Context, store events.Engine, ids []string, key *signing.Key, w io.Writer) (int, error) {
	n := 0
	var ends []end
	sum := sha256.New()
	out := io.MultiWriter(w, sum)
	for _, id := range ids {
		e, err := exportOne(ctx, store, id, out)
		if err != nil {
			return n, err
		}
		n += e.Events
		ends = append(ends, e)
	}
	if key == nil {
		return n, nil
	}
	seal, err := key.Sign(sealText(ends, sum.Sum(nil)))
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	if _, err := w.Write(seal); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}
