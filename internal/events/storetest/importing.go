package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"tappbook/internal/events"
)

// exported writes n events of one stream into a store of its own and
// reads them back whole: an export.
func exported(t *testing.T, h Harness, stream string, n int) []events.Event {
	t.Helper()
	ctx := context.Background()
	src, _ := open(t, h)
	for v := range n {
		if _, err := src.Append(ctx, stream, int64(v), events.Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := src.ReadStream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// Import beside appenders neither waits forever nor breaks their streams;
// a stream that exists is refused with nothing written, and a changed
// event is refused too. The hash is the same on every
// engine, so an export from one imports into another.
func importBesideAppends(t *testing.T, h Harness) {
	ctx := context.Background()
	evs := exported(t, h, "game", 5)
	s, _ := open(t, h)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for v := range 30 {
				if _, err := s.Append(ctx, fmt.Sprintf("w%d", w), int64(v), events.Key{}, ev(v)); err != nil {
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
	got, err := s.ReadStream(ctx, "game")
	if err != nil || len(got) != 5 {
		t.Fatalf("imported stream: %d events, %v", len(got), err)
	}
	for i := range got {
		if got[i].Hash != evs[i].Hash || !got[i].RecordedAt.Equal(evs[i].RecordedAt) || string(got[i].Data) != string(evs[i].Data) {
			t.Fatalf("event %d imported as %+v, exported %+v", i+1, got[i], evs[i])
		}
	}
	if _, err := s.Append(ctx, "game", 5, events.Key{}, ev(6)); err != nil {
		t.Fatalf("append to an imported stream: %v", err)
	}
}

// Import takes only whole chains: an event without its hash, or with a
// hash that is not its own, is refused and nothing is written.
func importRequiresEveryHash(t *testing.T, h Harness) {
	ctx := context.Background()
	evs := exported(t, h, "game", 3)
	s, _ := open(t, h)
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

// A fresh store is healthy and passes its own integrity check.
func healthAndIntegrity(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	appendN(t, s, "g", 2)
	if hl := s.Health(); !hl.OK || hl.Problem != "" {
		t.Fatalf("a fresh store: %+v", hl)
	}
	if err := s.CheckIntegrity(ctx, true); err != nil {
		t.Fatalf("integrity of a fresh store: %v", err)
	}
}
