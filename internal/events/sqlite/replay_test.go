package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"tappbook/internal/events"
	"testing"
)

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
	appendDeals(b, s, "game", n)
	b.ResetTimer()
	for b.Loop() {
		count := 0
		if err := s.Replay(ctx, "game", func(events.Event) error { count++; return nil }); err != nil || count != n {
			b.Fatal(count, err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReplayShortStream reads a game of one event in a database that
// holds 6,000 events of another: a game's first load (a new evening's, on
// a server that has recorded many) pays for its own events only.
func BenchmarkReplayShortStream(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "r.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	appendDeals(b, s, "long", 6000)
	appendDeals(b, s, "short", 1)
	b.ReportAllocs()
	for b.Loop() {
		count := 0
		if err := s.Replay(ctx, "short", func(events.Event) error { count++; return nil }); err != nil || count != 1 {
			b.Fatal(count, err)
		}
	}
}

// appendDeals appends n events of about a deal's size to stream, up to
// 100 at a time.
func appendDeals(b *testing.B, s *Store, stream string, n int) {
	note := strings.Repeat("a deal's worth of payload ", 30)
	for v := 0; v < n; v += 100 {
		evs := make([]events.NewEvent, min(100, n-v))
		for i := range evs {
			evs[i] = events.NewEvent{Type: "hand.recorded", SchemaVersion: 1, Data: map[string]any{"hand": v + i, "note": note}}
		}
		if _, err := s.Append(context.Background(), stream, int64(v), events.Key{}, evs...); err != nil {
			b.Fatal(err)
		}
	}
}
