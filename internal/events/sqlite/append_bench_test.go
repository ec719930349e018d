package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"tappbook/internal/events"
	"testing"
)

// BenchmarkAppend64Tables is 64 tables recording at once, each its own
// game with a history, through the group-commit writer: the store's part
// of bench's 64 tables, without HTTP. events/s is the rate; B/op and
// allocs/op are per append.
func BenchmarkAppend64Tables(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "a.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const tables, history = 64, 300
	note := strings.Repeat("a deal's worth of payload ", 12)
	deal := func(n int) events.NewEvent {
		return events.NewEvent{Type: "hand.recorded", SchemaVersion: 1, Data: map[string]any{"hand": n, "note": note}}
	}
	versions := make([]atomic.Int64, tables)
	for g := range tables { // histories in turn, as evenings are played
		for v := 0; v < history; v += 100 {
			evs := make([]events.NewEvent, 100)
			for i := range evs {
				evs[i] = deal(v + i)
			}
			if _, err := s.Append(ctx, streamName(g), int64(v), events.Key{}, evs...); err != nil {
				b.Fatal(err)
			}
		}
		versions[g].Store(history)
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for g := range tables {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				v := versions[g].Load()
				if _, err := s.Append(ctx, streamName(g), v, events.Key{}, deal(int(v))); err != nil {
					b.Error(err)
					return
				}
				versions[g].Add(1)
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func streamName(g int) string {
	return "game-" + strings.Repeat("x", 20) + string(rune('A'+g%26)) + string(rune('a'+g/26))
}
