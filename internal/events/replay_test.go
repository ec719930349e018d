package events

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

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
