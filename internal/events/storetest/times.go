package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"tappbook/internal/events"
)

// clock is a clock the test sets, and steps back as NTP may.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// A stream's times never go backwards, whatever the clock says (import
// refuses a stream whose times do): an append is stamped no earlier than
// the stream's last event (events.StampTime) when the stream was imported
// from a machine whose clock ran ahead, when the clock steps back, and
// when the store is opened again on such a clock (the last time is read
// from the database, not only kept in memory). Another stream is not held
// back by it.
func timesNeverGoBack(t *testing.T, h Harness) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
	ahead := &clock{t: t0.Add(5 * time.Minute)}
	src := reopen(t, h, h.Fresh(t), Options{Now: ahead.now})
	appendN(t, src, "imported", 2)
	exported, err := src.ReadStream(ctx, "imported")
	if err != nil {
		t.Fatal(err)
	}

	c := &clock{t: t0}
	loc := h.Fresh(t)
	s := reopen(t, h, loc, Options{Now: c.now})
	if err := s.Import(ctx, exported, nil); err != nil {
		t.Fatal(err)
	}
	stamped := func(s events.Engine, stream string, want time.Time) {
		t.Helper()
		v, err := s.StreamVersion(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Append(ctx, stream, v, events.Key{}, ev(1), ev(2))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			if !e.RecordedAt.Equal(want) {
				t.Fatalf("%s event %d, clock at %s: recorded at %s, want %s", stream, e.Version, c.now().Format(time.RFC3339), e.RecordedAt.Format(time.RFC3339Nano), want.Format(time.RFC3339))
			}
		}
	}
	stamped(s, "imported", t0.Add(5*time.Minute))
	stamped(s, "g", t0)
	c.set(t0.Add(-time.Hour)) // NTP steps the clock back
	stamped(s, "g", t0)
	s.Close()
	c.set(t0.Add(-2 * time.Hour))
	s = reopen(t, h, loc, Options{Now: c.now})
	stamped(s, "g", t0)
	stamped(s, "imported", t0.Add(5*time.Minute))
	stamped(s, "other", t0.Add(-2*time.Hour))
	c.set(t0.Add(time.Minute)) // caught up
	stamped(s, "g", t0.Add(time.Minute))

	for _, stream := range []string{"imported", "g", "other"} {
		evs, err := s.ReadStream(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(evs); i++ {
			if evs[i].RecordedAt.Before(evs[i-1].RecordedAt) {
				t.Fatalf("%s event %d read back at %s, before event %d at %s", stream, i+1, evs[i].RecordedAt, i, evs[i-1].RecordedAt)
			}
		}
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}
