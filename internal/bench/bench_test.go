package bench

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A short run of the whole benchmark, so it keeps working; its times are
// printed, never judged.
func TestShortRun(t *testing.T) {
	rep, err := Run(context.Background(), Options{Dir: t.TempDir(), Events: 3000, PerGame: 301, Duration: 200 * time.Millisecond, ReadRounds: 20, CorrectDeals: 600})
	if err != nil {
		t.Fatal(err)
	}
	if rep.RawTxPerSec <= 0 || rep.RawHTTPPerSec <= 0 || rep.Record1PerSec <= 0 || rep.Record4PerSec <= 0 || rep.ReplayEventsPerSec <= 0 || rep.Replay1EventsPerSec <= 0 || rep.BytesPerEvent <= 0 {
		t.Fatalf("a measure is missing: %+v", rep)
	}
	var b testingWriter
	rep.Print(&b)
	t.Log("\n" + string(b))
}

type testingWriter []byte

func (w *testingWriter) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }

// BenchmarkReplay folds stored events, for profiling the replay.
func BenchmarkReplay(b *testing.B) {
	path := filepath.Join(b.TempDir(), "replay.db")
	if _, err := fill(context.Background(), path, 50000, 1001); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := replay(context.Background(), path, runtime.GOMAXPROCS(0)); err != nil {
			b.Fatal(err)
		}
	}
}
