package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
)

// BenchmarkStoreBesideRaw has 64 goroutines append for 2 s, first raw rows
// group-committed (GroupInserter), then deal-sized events to 64 streams of
// tappbook's event store, and reports each one's rate, CPU time and bytes
// written per append: what the store's schema costs beside raw rows,
// without HTTP.
//
//	go test -run '^$' -bench BenchmarkStoreBesideRaw -benchtime 1x ./internal/bench/
func BenchmarkStoreBesideRaw(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		dir := b.TempDir()
		st, err := sqlite.Open(ctx, filepath.Join(dir, "store.db"), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		raw, err := NewGroupInserter(filepath.Join(dir, "raw.db"))
		if err != nil {
			b.Fatal(err)
		}
		payload := map[string]string{"deal": strings.Repeat("x", 400)}
		measure := func(name string, appendOne func(stream string, version int64) error) {
			var n atomic.Int64
			var wg sync.WaitGroup
			cpu, written := processCPU(), processWrites()
			start := time.Now()
			for i := range 64 {
				wg.Go(func() {
					stream := fmt.Sprintf("table-%02d", i)
					for v := int64(0); time.Since(start) < 2*time.Second; v++ {
						if err := appendOne(stream, v); err != nil {
							b.Error(err)
							return
						}
						n.Add(1)
					}
				})
			}
			wg.Wait()
			count := float64(n.Load())
			b.ReportMetric(count/time.Since(start).Seconds(), name+"/s")
			b.ReportMetric((processCPU()-cpu).Seconds()*1e6/count, name+"-cpu-us")
			b.ReportMetric(float64(processWrites()-written)/count, name+"-bytes")
		}
		measure("raw", func(string, int64) error { return raw.Insert() })
		measure("store", func(stream string, v int64) error {
			_, err := st.Append(ctx, stream, v, events.Key{}, events.NewEvent{Type: "hand.recorded", SchemaVersion: 1, Data: payload})
			return err
		})
		raw.Close()
		st.Close()
	}
}

// processWrites is how many bytes this process has written, from /proc.
func processWrites() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}
