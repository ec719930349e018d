package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// BenchmarkJunkQueryMemory is issue 14's attack on the page cache: 300
// requests for the all-deals table of a 6,000-deal game through the
// read-only link, each with another junk parameter. It reports the live
// heap after them, beside the heap before them and the cache's bytes:
//
//	go test -run '^$' -bench BenchmarkJunkQueryMemory -benchtime 1x ./internal/web/
func BenchmarkJunkQueryMemory(b *testing.B) {
	ctx := context.Background()
	st, err := events.Open(ctx, filepath.Join(b.TempDir(), "big.db"), events.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const id, readID = "bigbigbigbigbigbigbigbigbi", "readreadreadreadreadreadre"
	setup := payout.Setup{Variant: payout.Zuger, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Zuger)}
	evs := []events.NewEvent{{Type: tapp.TypeGameStarted, SchemaVersion: tapp.SchemaVersion,
		Data: tapp.GameStarted{Variant: payout.Zuger, Players: setup.Players, Unit: "0.50", Currency: "CHF",
			Rules: map[string]json.RawMessage{"tapp_threshold": json.RawMessage("61")}, ReadID: readID}}}
	for hand := 1; hand <= 6_000; hand++ {
		points, tricks := 40+(hand*7)%60, 3+hand%4
		rec := payout.Record{Contract: []string{"tapp", "solo", "super", "vice"}[hand%4], Declarer: setup.Players[(hand*3)%4], Points: &points, Tricks: &tricks}
		res, err := payout.Score(setup, payout.Table{Dealer: (hand - 1) % 4}, rec)
		if err != nil {
			b.Fatal(err)
		}
		evs = append(evs, events.NewEvent{Type: tapp.TypeHandRecorded, SchemaVersion: tapp.SchemaVersion,
			Data: tapp.HandRecorded{Hand: hand, Dealer: setup.Players[(hand-1)%4], Record: rec, Scored: mustScored(setup, res)}})
	}
	if _, err := st.AppendAliased(ctx, id, 0, events.Key{}, []string{readID}, evs...); err != nil {
		b.Fatal(err)
	}
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

func mustScored(setup payout.Setup, res payout.Result) tapp.Scored {
	s, err := tapp.NewScored(setup, res)
	if err != nil {
		panic(err)
	}
	return s
}
