package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/projection"
)

// TestLayers prints how fast each layer records alone (run with -v).
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	ctx := context.Background()
	d := 2 * time.Second
	raw, _ := events.RawTransactions(filepath.Join(t.TempDir(), "raw.db"), d)
	st, _ := events.Open(ctx, filepath.Join(t.TempDir(), "a.db"), events.Options{})
	defer st.Close()
	n, start := 0, time.Now()
	for time.Since(start) < d {
		if _, err := st.Append(ctx, "g", int64(n), "", events.NewEvent{Type: projection.TypeGameStarted, SchemaVersion: 1, Data: map[string]string{"x": "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"}}); err != nil {
			t.Fatal(err)
		}
		n++
	}
	appendRate := float64(n) / time.Since(start).Seconds()
	st2, _ := events.Open(ctx, filepath.Join(t.TempDir(), "b.db"), events.Options{})
	defer st2.Close()
	svc := game.New(st2)
	g, _ := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	p, tr := 70, 5
	n, start = 0, time.Now()
	for time.Since(start) < d {
		if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "solo", Declarer: "Ben", Points: &p, Tricks: &tr}, game.Checks{}, ""); err != nil {
			t.Fatal(err)
		}
		n++
	}
	recordRate := float64(n) / time.Since(start).Seconds()
	var r Report
	if err := recording(ctx, filepath.Join(t.TempDir(), "c.db"), d, &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("raw tx %.0f/s · store.Append %.0f/s · service.Record %.0f/s · HTTP 1 client %.0f/s", raw, appendRate, recordRate, r.Record1PerSec)
}
