package events

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Replay gives a stream's events as ReadStream does, less the hashes (the
// payload lent to fn, which copies what it keeps); and
// ReplayAll gives every stream's events in stored order from one snapshot,
// marking each stream's last event, while appends made meanwhile are not
// seen.
func TestReplayAndReplayAll(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, a := range []struct {
		stream string
		from   int64
		n      int
	}{{"a", 0, 2}, {"b", 0, 1}, {"a", 2, 1}, {"b", 1, 1}} {
		evs := []NewEvent{}
		for i := range a.n {
			evs = append(evs, ev(int(a.from)+i+1))
		}
		if _, err := s.Append(ctx, a.stream, a.from, Key{}, evs...); err != nil {
			t.Fatal(err)
		}
	}
	full, _ := s.ReadStream(ctx, "a")
	var got []Event
	keep := func(e Event) error {
		e.Data = bytes.Clone(e.Data) // lent only until fn returns
		got = append(got, e)
		return nil
	}
	if err := s.Replay(ctx, "a", keep); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(full) {
		t.Fatalf("replayed %d events, want %d", len(got), len(full))
	}
	for i, e := range got {
		f := full[i]
		if e.Version != f.Version || e.Type != f.Type || string(e.Data) != string(f.Data) || !e.RecordedAt.Equal(f.RecordedAt) || e.Stream != "a" {
			t.Fatalf("replayed %+v, stored %+v", e, f)
		}
	}

	var seen []string
	var seq int64
	err := s.ReplayAll(ctx, func(e Event, last bool) error {
		if e.Seq <= seq {
			return fmt.Errorf("sequence number %d after %d", e.Seq, seq)
		}
		seq = e.Seq
		if len(seen) == 0 { // written after the snapshot began: not seen
			if _, err := s.Append(ctx, "a", 3, Key{}, ev(4)); err != nil {
				return err
			}
			if _, err := s.Append(ctx, "c", 0, Key{}, ev(1)); err != nil {
				return err
			}
		}
		seen = append(seen, fmt.Sprintf("%s%d%v", e.Stream, e.Version, last))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[a1false a2false b1false a3true b2true]"; fmt.Sprint(seen) != want {
		t.Fatalf("ReplayAll saw %v, want %s", seen, want)
	}
	stop := errors.New("stop")
	if err := s.ReplayAll(ctx, func(Event, bool) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("ReplayAll returned %v, want fn's error", err)
	}
}

// The replay's own reader of recorded_at gives what time.Parse gives for
// every time formatTime writes, and leaves anything else to time.Parse.
func TestParseStoredTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		at := time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).Truncate(time.Duration(1) * []time.Duration{1, 1000, 1e6, 1e9}[rng.IntN(4)])
		s := formatTime(at)
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseStoredTime([]byte(s))
		if !ok || got != want {
			t.Fatalf("%s: got %v (%v), want %v", s, got, ok, want)
		}
	}
	for _, bad := range []string{"", "2026-11-22T20:15:04", "2026-11-22T20:15:04+01:00", "2026-02-30T20:15:04Z",
		"2026-11-22T24:15:04Z", "2026-11-22 20:15:04Z", "2026-11-22T20:15:04.Z", "2026-11-22T20:15:04.1234567890Z", "2026-1x-22T20:15:04Z"} {
		if got, ok := parseStoredTime([]byte(bad)); ok {
			t.Errorf("%q read as %v", bad, got)
		}
	}
}

// BenchmarkReplayStream reads one long game (6,000 events of about a
// deal's size) as a fold does: the cost a game's first load pays.
func BenchmarkReplayStream(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "r.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const n = 6000
	note := strings.Repeat("a deal's worth of payload ", 30)
	for v := range n / 100 {
		evs := make([]NewEvent, 100)
		for i := range evs {
			evs[i] = NewEvent{Type: "hand.recorded", SchemaVersion: 1, Data: map[string]any{"hand": v*100 + i, "note": note}}
		}
		if _, err := s.Append(ctx, "game", int64(v*100), Key{}, evs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		count := 0
		if err := s.Replay(ctx, "game", func(Event) error { count++; return nil }); err != nil || count != n {
			b.Fatal(count, err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
}
