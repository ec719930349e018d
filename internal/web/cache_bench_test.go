package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// BenchmarkJunkQueryMemory is issue 14's attack on the page cache: 300
// requests for the all-deals table of a 6,000-deal game through the
// read-only link, each with another junk parameter. It reports the live
// heap after them, beside the heap before them and the cache's bytes:
//
//	go test -run '^$' -bench BenchmarkJunkQueryMemory -benchtime 1x ./internal/web/
func BenchmarkJunkQueryMemory(b *testing.B) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "big.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	_, readID := longEvening(b, st, 6_000)
	srv, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	get := func(path string) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d", path, rec.Code)
		}
	}
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / 1e6
	}
	get("/r/" + readID) // the game folded, as a server that serves it has it
	before := heap()
	for b.Loop() {
		for i := range 300 {
			get(fmt.Sprintf("/r/%s?all=1&n=%d", readID, i))
		}
	}
	after := heap()
	pages, bytes := srv.pages.stats()
	b.ReportMetric(before, "MB-heap-before")
	b.ReportMetric(after, "MB-heap-after")
	b.ReportMetric(float64(bytes)/1e6, "MB-cached")
	b.ReportMetric(float64(pages), "pages-cached")
}
