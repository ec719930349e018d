package tapp_test

import (
	"testing"
	"time"

	"tappbook/internal/bench"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// BenchmarkCorrectDeal1 decides and folds a correction of deal 1 of the
// bench's long old-tapp evening (bench.LongEveningDeal), the command side
// alone, without the store:
//
//	go test -run '^$' -bench BenchmarkCorrectDeal1 -benchmem ./internal/tapp/
func BenchmarkCorrectDeal1(b *testing.B) {
	s := tapp.New("g")
	apply := func(c tapp.Command) {
		ps, err := tapp.Decide(s, c)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range ps {
			if s, err = tapp.Evolve(s, tapp.Event{Version: s.Version + 1, At: time.Now(), Data: p}); err != nil {
				b.Fatal(err)
			}
		}
	}
	apply(tapp.Start{ID: "g", ReadID: "r", Variant: "old-tapp", Players: []string{"Anna", "Ben", "Cleo"}})
	for n := 1; n <= bench.LongEvening; n++ {
		apply(tapp.RecordHand{Record: bench.LongEveningDeal(n)})
	}
	// Each round corrects the same evening, so that deal 1's history does
	// not grow from round to round.
	c := tapp.CorrectHand{Hand: 1, Record: payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: &[]int{40}[0]}, Reason: "miscounted"}
	rescored := 0
	for b.Loop() {
		ps, err := tapp.Decide(s, c)
		if err != nil {
			b.Fatal(err)
		}
		evs := make([]tapp.Event, len(ps))
		for j, p := range ps {
			evs[j] = tapp.Event{Version: s.Version + 1 + int64(j), At: time.Now(), Data: p}
		}
		if _, err := tapp.Evolve(s, evs...); err != nil {
			b.Fatal(err)
		}
		rescored = len(ps) - 1
	}
	b.ReportMetric(float64(rescored), "rescored")
}
