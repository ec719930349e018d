package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// BenchmarkLayers reports how fast each layer of recording goes alone, one
// client, in deals per second: the raw durable transaction, store.Append,
// service.Record, the raw transaction behind a bare HTTP handler, and the
// whole HTTP path. Run it with -benchtime 1x.
func BenchmarkLayers(b *testing.B) {
	ctx := context.Background()
	d := 2 * time.Second
	for b.Loop() {
		raw, err := RawTransactions(filepath.Join(b.TempDir(), "raw.db"), d)
		if err != nil {
			b.Fatal(err)
		}
		st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "a.db"), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		n, start := 0, time.Now()
		for time.Since(start) < d {
			if _, err := st.Append(ctx, "g", int64(n), events.Key{}, events.NewEvent{Type: tapp.TypeGameStarted, SchemaVersion: 1, Data: map[string]string{"x": "a deal's worth of payload, give or take"}}); err != nil {
				b.Fatal(err)
			}
			n++
		}
		appendRate := float64(n) / time.Since(start).Seconds()
		st.Close()

		st2, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "b.db"), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		svc := game.New(st2)
		g, err := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
		if err != nil {
			b.Fatal(err)
		}
		p, tr := 70, 5
		n, start = 0, time.Now()
		for time.Since(start) < d {
			if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "solo", Declarer: "Ben", Points: &p, Tricks: &tr}, game.Checks{}, ""); err != nil {
				b.Fatal(err)
			}
			n++
		}
		recordRate := float64(n) / time.Since(start).Seconds()
		st2.Close()

		var r Report
		if err := writing(ctx, b.TempDir(), Options{Duration: d}, &r); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(raw, "raw-tx/s")
		b.ReportMetric(appendRate, "append/s")
		b.ReportMetric(recordRate, "record/s")
		b.ReportMetric(r.RawHTTPPerSec, "raw-http/s")
		b.ReportMetric(r.Record1PerSec, "http/s")
	}
}
