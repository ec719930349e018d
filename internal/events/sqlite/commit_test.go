package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"tappbook/internal/events"
	"testing"
	"time"
)

// A panic while committing (here: the clock) fails that append with an
// error and leaves the store working: the transaction is rolled back and
// nobody waits forever.
func TestPanicInACommit(t *testing.T) {
	ctx := context.Background()
	var explode atomic.Bool
	s, err := Open(ctx, filepath.Join(t.TempDir(), "p.db"), Options{Now: func() time.Time {
		if explode.CompareAndSwap(true, false) {
			panic("clock broke")
		}
		return time.Now()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(1)); err != nil {
		t.Fatal(err)
	}
	explode.Store(true)
	if _, err := s.Append(ctx, "g", 1, events.Key{}, ev(2)); err == nil || !strings.Contains(err.Error(), "clock broke") {
		t.Fatalf("append during a panic: %v", err)
	}
	if _, err := s.Append(ctx, "g", 1, events.Key{}, ev(2)); err != nil {
		t.Fatalf("append after a panic: %v", err)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 2 {
		t.Fatalf("after a panic: %+v %v", rep, err)
	}
}

// The writer waits for a stream that committed a moment ago and is not in
// the batch yet; a quiet stream, or one already in the batch, is not
// waited for, and a stream quiet for longer than the window is forgotten.
func TestExpectedSiblings(t *testing.T) {
	now := time.Now()
	recent := map[string]time.Time{
		"busy":  now.Add(-siblingWindow / 2),
		"here":  now.Add(-siblingWindow / 4),
		"quiet": now.Add(-2 * siblingWindow),
	}
	batch := []*appendReq{{stream: "here"}, {stream: "here"}, {stream: "new"}}
	if n := expectedSiblings(recent, batch, now); n != 1 {
		t.Fatalf("expected %d siblings, want 1 (busy)", n)
	}
	if _, ok := recent["quiet"]; ok {
		t.Fatal("a stream quiet for longer than the window is still remembered")
	}
	if n := expectedSiblings(map[string]time.Time{}, batch, now); n != 0 {
		t.Fatalf("a lone client waits for %d others", n)
	}
}
