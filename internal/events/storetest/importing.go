package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"tappbook/internal/events"
)

// sqliteStream writes n events of one stream into a SQLite store and reads
// them back whole: an export, as any engine makes it.
func sqliteStream(t *testing.T, stream string, n int) []events.Event {
	t.Helper()
	ctx := context.Background()
	src, err := events.Open(ctx, filepath.Join(t.TempDir(), "src.db"), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
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
// event is refused too. The events come from SQLite: the hash is the same
// on every engine, so an export from one imports into the other.
func importBesideAppends(t *testing.T, h Harness) {
	ctx := context.Background()
	evs := sqliteStream(t, "game", 5)
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
	evs := sqliteStream(t, "game", 3)
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

// Backup writes the whole store, from one moment, into a new SQLite file
// that reads and verifies like any store: the same streams, events, hashes
// and aliases. An existing file is never replaced.
func backupIsAWholeSQLiteCopy(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	appendN(t, s, "g", 4)
	if _, err := s.AppendAliased(ctx, "h", 0, key("create", "k", "fp"), []string{"h-read"}, ev(1), ev(2)); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "copy.db")
	if err := s.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, dest); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("a backup over an existing file: %v", err)
	}
	cp, err := events.OpenReadOnly(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if err := cp.CheckIntegrity(ctx, true); err != nil {
		t.Fatal(err)
	}
	rep, err := cp.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 6 || rep.Streams != 2 {
		t.Fatalf("the copy verifies as %+v, %v", rep, err)
	}
	for _, st := range []string{"g", "h"} {
		want, _ := s.ReadStream(ctx, st)
		got, err := cp.ReadStream(ctx, st)
		if err != nil || len(got) != len(want) {
			t.Fatalf("stream %s in the copy: %d events, %v", st, len(got), err)
		}
		for i := range got {
			if got[i].Hash != want[i].Hash || got[i].Batch != want[i].Batch || !got[i].RecordedAt.Equal(want[i].RecordedAt) {
				t.Fatalf("stream %s event %d copied as %+v, stored %+v", st, i+1, got[i], want[i])
			}
		}
	}
	if id, _ := cp.Resolve(ctx, "h-read"); id != "h" {
		t.Fatalf("the copy resolves h-read to %q", id)
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
