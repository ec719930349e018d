package events

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Many writers on many streams at once: their appends share commits (group
// commit), every one is answered, and every stream is whole and in order.
func TestGroupCommitManyWriters(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	for w := range 40 {
		wg.Go(func() {
			stream := fmt.Sprintf("game-%d", w)
			for v := range 25 {
				if _, err := s.Append(ctx, stream, int64(v), Key{Scope: stream, Name: fmt.Sprintf("k-%d-%d", w, v), Fingerprint: []byte{byte(v)}}, ev(v)); err != nil {
					t.Errorf("%s version %d: %v", stream, v+1, err)
					return
				}
			}
		})
	}
	wg.Wait()
	rep, err := s.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 40*25 || rep.Streams != 40 {
		t.Fatalf("after concurrent writers: %+v %v", rep, err)
	}
	// A refused append in a shared commit leaves the others in it alone.
	var ok, conflicts atomic.Int32
	for w := range 40 {
		wg.Go(func() {
			_, err := s.Append(ctx, fmt.Sprintf("game-%d", w), int64(25-w%2), Key{}, ev(99))
			switch {
			case err == nil:
				ok.Add(1)
			case IsConflict(err):
				conflicts.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 20 || conflicts.Load() != 20 {
		t.Fatalf("%d appended, %d conflicts; want 20 and 20", ok.Load(), conflicts.Load())
	}
	if rep, _ := s.Verify(ctx); rep.Problem != nil || rep.Events != 40*25+20 {
		t.Fatalf("after mixed commits: %+v", rep)
	}
}

func TestAppendAfterClose(t *testing.T) {
	s, _ := openTemp(t)
	s.Close()
	if _, err := s.Append(context.Background(), "g", 0, Key{}, ev(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}
}

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
	if _, err := s.Append(ctx, "g", 0, Key{}, ev(1)); err != nil {
		t.Fatal(err)
	}
	explode.Store(true)
	if _, err := s.Append(ctx, "g", 1, Key{}, ev(2)); err == nil || !strings.Contains(err.Error(), "clock broke") {
		t.Fatalf("append during a panic: %v", err)
	}
	if _, err := s.Append(ctx, "g", 1, Key{}, ev(2)); err != nil {
		t.Fatalf("append after a panic: %v", err)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 2 {
		t.Fatalf("after a panic: %+v %v", rep, err)
	}
}

// Closing while writers append (some committing themselves, some queued
// for the writer goroutine): Close waits for the commit under way and the
// queue, every append is answered, and an append acknowledged is stored;
// after Close, appends are refused.
func TestCloseWhileAppending(t *testing.T) {
	ctx := context.Background()
	for round := range 5 {
		s, path := openTemp(t)
		var wg sync.WaitGroup
		var acked [8]atomic.Int64
		for w := range acked {
			wg.Go(func() {
				for v := int64(0); ; v++ {
					_, err := s.Append(ctx, fmt.Sprintf("g%d", w), v, Key{}, ev(int(v)))
					if errors.Is(err, ErrClosed) {
						return
					}
					if err != nil {
						t.Errorf("round %d: %v", round, err)
						return
					}
					acked[w].Store(v + 1)
				}
			})
		}
		time.Sleep(time.Duration(5+round*5) * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		again, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for w := range acked {
			v, err := again.StreamVersion(ctx, fmt.Sprintf("g%d", w))
			if err != nil || v != acked[w].Load() {
				t.Fatalf("round %d: stream g%d at version %d (%v), %d acknowledged", round, w, v, err, acked[w].Load())
			}
		}
		again.Close()
	}
}

// An append that fails in the middle of a shared commit (here: an alias
// another append in flight already took) fails alone; the appends sharing
// its commit are committed, and the store stays whole.
func TestFailureInASharedCommit(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for round := range 10 {
		var wg sync.WaitGroup
		var failed atomic.Int32
		for w := range 12 {
			wg.Go(func() {
				alias := fmt.Sprintf("alias-%d-%d", round, w)
				if w < 2 {
					alias = fmt.Sprintf("taken-%d", round) // two appends want it
				}
				_, err := s.AppendAliased(ctx, fmt.Sprintf("r%d-s%d", round, w), 0, Key{}, []string{alias}, ev(w))
				if err != nil {
					failed.Add(1)
				}
			})
		}
		wg.Wait()
		if failed.Load() != 1 {
			t.Fatalf("round %d: %d appends failed, want exactly the one whose alias was taken", round, failed.Load())
		}
	}
	rep, err := s.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 10*11 {
		t.Fatalf("after failures in shared commits: %+v %v", rep, err)
	}
	// The heads known in memory were dropped and read again: appends go on.
	if _, err := s.Append(ctx, "r0-s5", 1, Key{}, ev(1)); err != nil {
		t.Fatal(err)
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
