package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tappbook/internal/events"
)

// The database itself refuses to change or delete an event.
func eventsCannotBeChangedOrDeleted(t *testing.T, h Database) {
	ctx := context.Background()
	s, loc := open(t, h)
	if _, err := s.AppendAliased(ctx, "g", 0, events.Key{}, []string{"g-read"}, ev(1)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE events SET data = '{"n":2}' WHERE seq = 1`,
		`DELETE FROM events WHERE seq = 1`,
	} {
		if err := h.Exec(t, loc, q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: want the append-only refusal, got %v", q, err)
		}
	}
	if err := h.Exec(t, loc, `UPDATE stream_aliases SET stream = 'other'`); err == nil || !strings.Contains(err.Error(), "cannot be changed") {
		t.Errorf("change an alias: %v", err)
	}
	if evs, err := s.ReadStream(ctx, "g"); err != nil || len(evs) != 1 {
		t.Fatalf("after the refusals: %d events, %v", len(evs), err)
	}
}

// five appends five events to stream g, one at a time (seq 1–5).
func five(t *testing.T, s events.Engine) {
	t.Helper()
	appendN(t, s, "g", 5)
}

func verifyCatchesTampering(t *testing.T, h Database) {
	ctx := context.Background()
	cases := []struct {
		name    string
		queries []string
		seq     int64
		reason  string
	}{
		{"changed payload", []string{`UPDATE events SET data = '{"n":2,"amount":"99.50"}' WHERE seq = 3`}, 3, "changed"},
		{"deleted row", []string{`DELETE FROM events WHERE seq = 2`}, 3, "missing or out of order"},
		{"deleted last row", []string{`DELETE FROM events WHERE seq = 5`}, 4, "removed"},
		{"reordered rows", []string{`UPDATE events SET seq = 100 WHERE seq = 2`, `UPDATE events SET seq = 2 WHERE seq = 3`, `UPDATE events SET seq = 3 WHERE seq = 100`}, 2, "missing or out of order"},
		// Seq 0: any event of the stream (an engine that keys events by the
		// head's row finds them at the first, one that names them at the last).
		{"head removed", []string{`DELETE FROM streams WHERE stream = 'g'`}, 0, "no head"},
		{"swapped versions", []string{`UPDATE events SET version = 100 WHERE seq = 2`, `UPDATE events SET version = 2 WHERE seq = 3`, `UPDATE events SET version = 3 WHERE seq = 2`}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, loc := open(t, h)
			five(t, s)
			h.Tamper(t, loc, c.queries...)
			rep, err := s.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Problem == nil {
				t.Fatal("Verify found nothing wrong")
			}
			if c.seq != 0 && rep.Problem.Seq != c.seq || !strings.Contains(rep.Problem.Reason, c.reason) {
				t.Fatalf("Verify named %v, want event %d (%s)", rep.Problem, c.seq, c.reason)
			}
		})
	}
}

// Reading a stream checks its chain and its head: the first event at fault
// is a *ChainError, after the events before it; appending to a stream
// whose head does not point at its last event is refused the same way.
func chainCheckedOnRead(t *testing.T, h Database) {
	ctx := context.Background()
	cases := []struct {
		name    string
		queries []string
		version int64  // the event named
		why     string // part of the reason
		read    int    // events read before it
		appends bool   // whether the stream may still be appended to
	}{
		{"changed payload", []string{`UPDATE events SET data = '{"n":2,"amount":"99.50"}' WHERE seq = 3`}, 3, "changed", 2, true},
		{"deleted event", []string{`DELETE FROM events WHERE seq = 2`}, 3, "missing or out of order", 1, true},
		{"deleted last event", []string{`DELETE FROM events WHERE seq = 5`}, 4, "events were removed", 4, false},
		{"head moved back", []string{`UPDATE streams SET version = 4, hash = (SELECT hash FROM events WHERE seq = 4) WHERE stream = 'g'`}, 5, "events were removed", 5, false},
		{"head's hash changed", []string{`UPDATE streams SET hash = (SELECT hash FROM events WHERE seq = 4) WHERE stream = 'g'`}, 5, "another hash", 5, false},
		{"changed time", []string{`UPDATE events SET recorded_at = '2020-01-01T00:00:00Z' WHERE seq = 4`}, 4, "changed", 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, loc := open(t, h)
			five(t, s)
			if _, err := s.Append(ctx, "other", 0, events.Key{}, ev(1)); err != nil {
				t.Fatal(err)
			}
			s.Close()
			h.Tamper(t, loc, c.queries...)
			s = reopen(t, h, loc, Options{}) // nothing in memory: as after a restart
			check := func(how string, err error) {
				t.Helper()
				var ce *events.ChainError
				if !errors.As(err, &ce) || ce.Stream != "g" || ce.Version != c.version || ce.Seq != c.version || !strings.Contains(ce.Why, c.why) {
					t.Fatalf("%s: %v, want a *ChainError naming version %d (%s)", how, err, c.version, c.why)
				}
			}
			evs, err := s.ReadStream(ctx, "g")
			check("ReadStream", err)
			if len(evs) != c.read {
				t.Fatalf("ReadStream gave %d events before the fault, want %d", len(evs), c.read)
			}
			var folded []int64
			err = s.Replay(ctx, "g", func(e events.Event) error { folded = append(folded, e.Version); return nil })
			check("Replay", err)
			if len(folded) != c.read {
				t.Fatalf("Replay handed on %v before the fault, want %d events", folded, c.read)
			}
			v, _ := s.StreamVersion(ctx, "g")
			_, err = s.Append(ctx, "g", v, events.Key{}, ev(9))
			if c.appends != (err == nil) {
				t.Fatalf("append to the stream: %v", err)
			}
			if !c.appends {
				check("Append", err)
			}
			if evs, err := s.ReadStream(ctx, "other"); err != nil || len(evs) != 1 {
				t.Fatalf("another stream: %d events, %v", len(evs), err)
			}
			if _, err := s.Append(ctx, "other", 1, events.Key{}, ev(2)); err != nil {
				t.Fatalf("another stream: %v", err)
			}
		})
	}
}

// A tail cut off with the head moved back to match is a whole chain: only
// a fingerprint of the head kept from before shows it.
func cutTailNeedsAFingerprint(t *testing.T, h Database) {
	ctx := context.Background()
	s, loc := open(t, h)
	five(t, s)
	evs, err := s.ReadStream(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	kept := events.Fingerprint(evs[4].Hash)
	s.Close()
	h.Tamper(t, loc, `DELETE FROM events WHERE seq > 3`, `UPDATE streams SET version = 3, hash = (SELECT hash FROM events WHERE seq = 3)`)
	s = reopen(t, h, loc, Options{})
	evs, err = s.ReadStream(ctx, "g")
	if err != nil || len(evs) != 3 {
		t.Fatalf("the cut stream reads as %d events, %v", len(evs), err)
	}
	if events.Fingerprint(evs[2].Hash) == kept {
		t.Fatal("the cut history has the fingerprint kept from before")
	}
}

// verifyWhileAppending checks an intact history while a server goes on
// appending to it: every check must find it whole. Heads and events read
// apart would see a deal committed between the two reads as a head
// behind its last event, "events were removed", on a history nobody
// touched.
func verifyWhileAppending(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	batch := make([]events.NewEvent, 100)
	for i := range batch {
		batch[i] = ev(i)
	}
	for v := range 30 { // enough rows that reading them takes a while
		if _, err := s.Append(ctx, "filler", int64(v*len(batch)), events.Key{}, batch...); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	appended := make(chan int)
	go func() {
		v := 0
		defer func() { appended <- v }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Append(ctx, "live", int64(v), events.Key{}, ev(v)); err != nil {
				t.Error(err)
				return
			}
			v++
		}
	}()
	for i := range 30 {
		rep, err := s.Verify(ctx)
		if err != nil || rep.Problem != nil {
			close(stop)
			<-appended
			t.Fatalf("verify %d of an intact history while another writer appends: %+v, %v", i+1, rep.Problem, err)
		}
	}
	close(stop)
	if n := <-appended; n == 0 {
		t.Fatal("nothing was appended while verifying: the test proved nothing")
	}
}
