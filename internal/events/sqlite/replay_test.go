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
	note := strings.Repeat("a deal's worth of payload ", 30)
	for v := range n / 100 {
		evs := make([]events.NewEvent, 100)
		for i := range evs {
			evs[i] = events.NewEvent{Type: "hand.recorded", SchemaVersion: 1, Data: map[string]any{"hand": v*100 + i, "note": note}}
		}
		if _, err := s.Append(ctx, "game", int64(v*100), events.Key{}, evs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		count := 0
		if err := s.Replay(ctx, "game", func(events.Event) error { count++; return nil }); err != nil || count != n {
			b.Fatal(count, err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
}
