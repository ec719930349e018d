package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tappbook/internal/events"
)

func appendReadAndReopen(t *testing.T, h Harness) {
	ctx := context.Background()
	s, loc := open(t, h)
	if _, err := s.Append(ctx, "game-a", 0, events.Key{}, ev(1), ev(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "game-b", 0, events.Key{}, ev(10)); err != nil {
		t.Fatal(err)
	}
	res, err := s.Append(ctx, "game-a", 2, events.Key{}, ev(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Events[0].Version != 3 || res.Events[0].Seq != 4 || res.Duplicate {
		t.Fatalf("third event of game-a: %+v", res.Events[0])
	}
	s.Close()

	s2 := reopen(t, h, loc, Options{})
	got, err := s2.ReadStream(ctx, "game-a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("after reopening, game-a has %d events, want 3", len(got))
	}
	for i, e := range got {
		var p payload
		if err := json.Unmarshal(e.Data, &p); err != nil {
			t.Fatal(err)
		}
		if e.Version != int64(i+1) || p.N != i+1 || p.Amount != fmt.Sprintf("%d.50", i+1) || e.Type != "test.happened" || e.SchemaVersion != 1 {
			t.Fatalf("event %d read back as %+v / %+v", i+1, e, p)
		}
		if time.Since(e.RecordedAt) > time.Minute || e.Hash == "" {
			t.Fatalf("event %d: recorded_at %v, hash %q", i+1, e.RecordedAt, e.Hash)
		}
	}
	if got[1].PrevHash != got[0].Hash || got[0].PrevHash != "" {
		t.Fatal("the hash chain does not link the stream's events")
	}
	if v, _ := s2.StreamVersion(ctx, "game-a"); v != 3 {
		t.Fatalf("game-a version %d", v)
	}
	if evs, _ := s2.ReadStream(ctx, "nobody"); len(evs) != 0 {
		t.Fatal("an unknown stream has events")
	}
	rep, err := s2.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 4 || rep.Streams != 2 {
		t.Fatalf("verify a clean store: %+v, %v", rep, err)
	}
}

// 50 writers append at the same expected version: exactly one wins, the
// others get a conflict, and the stream has no gap or duplicate.
func racingAppendsOneWins(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(0)); err != nil {
		t.Fatal(err)
	}
	for round := int64(1); round <= 3; round++ {
		var wg sync.WaitGroup
		var wins, conflicts atomic.Int32
		for i := range 50 {
			wg.Go(func() {
				_, err := s.Append(ctx, "g", round, events.Key{}, ev(i))
				switch {
				case err == nil:
					wins.Add(1)
				case events.IsConflict(err):
					conflicts.Add(1)
				default:
					t.Errorf("writer %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 || conflicts.Load() != 49 {
			t.Fatalf("round %d: %d won and %d got a conflict; want 1 and 49", round, wins.Load(), conflicts.Load())
		}
	}
	got, err := s.ReadStream(ctx, "g")
	if err != nil || len(got) != 4 {
		t.Fatalf("stream has %d events (%v), want 4", len(got), err)
	}
	for i, e := range got {
		if e.Version != int64(i+1) {
			t.Fatalf("versions have a gap or duplicate: %d at %d", e.Version, i)
		}
	}
}

// Many writers on many streams at once: every one is answered, and every
// stream is whole and in order; refusals among them leave the others be.
func manyWriters(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	var wg sync.WaitGroup
	for w := range 40 {
		wg.Go(func() {
			stream := fmt.Sprintf("game-%d", w)
			for v := range 25 {
				if _, err := s.Append(ctx, stream, int64(v), events.Key{Scope: stream, Name: fmt.Sprintf("k-%d-%d", w, v), Fingerprint: []byte{byte(v)}}, ev(v)); err != nil {
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
	var ok, conflicts atomic.Int32
	for w := range 40 {
		wg.Go(func() {
			_, err := s.Append(ctx, fmt.Sprintf("game-%d", w), int64(25-w%2), events.Key{}, ev(99))
			switch {
			case err == nil:
				ok.Add(1)
			case events.IsConflict(err):
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
		t.Fatalf("after mixed appends: %+v", rep)
	}
}

func appendAfterClose(t *testing.T, h Harness) {
	s, _ := open(t, h)
	s.Close()
	if _, err := s.Append(context.Background(), "g", 0, events.Key{}, ev(1)); !errors.Is(err, events.ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}
}

// Closing while writers append: Close waits for the appends under way,
// every append is answered, an append acknowledged is stored, and after
// Close appends are refused.
func closeWhileAppending(t *testing.T, h Harness) {
	ctx := context.Background()
	for round := range 3 {
		loc := h.Fresh(t)
		s, err := h.Open(ctx, loc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var acked [8]atomic.Int64
		for w := range acked {
			wg.Go(func() {
				for v := int64(0); ; v++ {
					_, err := s.Append(ctx, fmt.Sprintf("g%d", w), v, events.Key{}, ev(int(v)))
					if errors.Is(err, events.ErrClosed) {
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
		time.Sleep(time.Duration(20+round*20) * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		again := reopen(t, h, loc, Options{})
		for w := range acked {
			v, err := again.StreamVersion(ctx, fmt.Sprintf("g%d", w))
			if err != nil || v != acked[w].Load() {
				t.Fatalf("round %d: stream g%d at version %d (%v), %d acknowledged", round, w, v, err, acked[w].Load())
			}
		}
		again.Close()
	}
}

// An append that fails in the middle (here: an alias another append in
// flight already took) fails alone and writes nothing; the appends beside
// it are stored, and the store stays whole.
func failureFailsAlone(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	for round := range 10 {
		var wg sync.WaitGroup
		var failed atomic.Int32
		for w := range 12 {
			wg.Go(func() {
				alias := fmt.Sprintf("alias-%d-%d", round, w)
				if w < 2 {
					alias = fmt.Sprintf("taken-%d", round) // two appends want it
				}
				if _, err := s.AppendAliased(ctx, fmt.Sprintf("r%d-s%d", round, w), 0, events.Key{}, []string{alias}, ev(w)); err != nil {
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
		t.Fatalf("after failures: %+v %v", rep, err)
	}
	if _, err := s.Append(ctx, "r0-s5", 1, events.Key{}, ev(1)); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Resolve(ctx, "alias-0-5"); err != nil || id != "r0-s5" {
		t.Fatalf("alias: %q %v", id, err)
	}
}
