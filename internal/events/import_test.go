package events

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Import runs as the only writer between commits: beside appenders it
// neither waits forever nor breaks their streams, a stream that exists is
// refused with nothing written, and a changed event is refused too.
func TestImportBesideAppends(t *testing.T) {
	ctx := context.Background()
	src, _ := openTemp(t)
	for v := range 5 {
		if _, err := src.Append(ctx, "game", int64(v), Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := src.ReadStream(ctx, "game")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for v := range 30 {
				if _, err := s.Append(ctx, fmt.Sprintf("w%d", w), int64(v), Key{}, ev(v)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	if err := s.Import(ctx, evs, []string{"game-read"}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := s.Import(ctx, evs, nil); err == nil || !strings.Contains(err.Error(), "already in this database") {
		t.Fatalf("second import: %v", err)
	}
	changed := slices.Clone(evs)
	changed[2].Data = json.RawMessage(`{"n":99}`)
	changed[0].Stream, changed[1].Stream, changed[2].Stream = "copy", "copy", "copy"
	if err := s.Import(ctx, changed[:3], nil); err == nil || !strings.Contains(err.Error(), "changed after export") {
		t.Fatalf("changed import: %v", err)
	}
	rep, err := s.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 4*30+5 || rep.Streams != 5 {
		t.Fatalf("after import beside appends: %+v %v", rep, err)
	}
	if id, err := s.Resolve(ctx, "game-read"); err != nil || id != "game" {
		t.Fatalf("alias: %q %v", id, err)
	}
}

// Import takes only whole chains: an event without its hash, or with a
// hash that is not its own, is refused and nothing is written.
func TestImportRequiresEveryHash(t *testing.T) {
	ctx := context.Background()
	src, _ := openTemp(t)
	for v := range 3 {
		if _, err := src.Append(ctx, "game", int64(v), Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := src.ReadStream(ctx, "game")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := openTemp(t)
	for i := range evs {
		for _, hash := range []string{"", strings.Repeat("0", 64)} {
			edited := slices.Clone(evs)
			edited[i].Hash = hash
			if err := s.Import(ctx, edited, []string{"alias"}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("event %d", i+1)) {
				t.Fatalf("event %d with hash %q: %v, want a refusal naming it", i+1, hash, err)
			}
		}
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Events != 0 {
		t.Fatalf("refused imports wrote %d events (%v)", rep.Events, err)
	}
	if id, _ := s.Resolve(ctx, "alias"); id != "" {
		t.Fatal("a refused import wrote its alias")
	}
}
