package archive

import (
	"context"
	"fmt"

	"tappbook/internal/events"
)

// Import writes a stream Read has checked into the store, with aliases as
// its other names (such as a read-only link), all in one transaction. The
// stream must be new to the store, and every alias of the server's own
// form.
func Import(ctx context.Context, store events.Engine, s *Stream, aliases []string) error {
	for _, a := range aliases {
		if !ValidID(a) {
			return fmt.Errorf("import %s: the alias %q is not an id tappbook makes", s.ID, a)
		}
	}
	return store.Import(ctx, s.Events, aliases)
}
