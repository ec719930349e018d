package group

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"tappbook/internal/tapp"
)

// A season of a busy table: 100 closed evenings of 200 deals each, and 100
// payments. The tab and the stats are computed on every page that shows
// them.
func season(b *testing.B) (*State, []*tapp.State) {
	b.Helper()
	t := b
	sc := given(t).and(Start{ID: "grp1", Name: "season", Players: four, Unit: "0.50", Currency: "CHF"})
	rng := rand.New(rand.NewPCG(1, 2))
	var games []*tapp.State
	for k := range 100 {
		e := play(t, fmt.Sprintf("game%d", k), "zuger", four, "0.50", "CHF")
		for e.g.NextHand() <= 200 {
			if r := randomDeal(rng, "zuger", four); func() bool { _, err := tapp.Decide(e.g, tapp.RecordHand{Record: r}); return err == nil }() {
				e.deal(r)
			}
		}
		games = append(games, joined(t, sc, e.close())...)
	}
	for i := range 100 {
		sc.and(RecordPayment{From: four[i%4], To: four[(i+1)%4], Amount: "1.50"})
	}
	return sc.state, games
}

func BenchmarkTab(b *testing.B) {
	st, games := season(b)
	b.ResetTimer()
	for b.Loop() {
		st.Tab(games)
	}
}

func BenchmarkStats(b *testing.B) {
	st, games := season(b)
	b.ResetTimer()
	for b.Loop() {
		st.Stats(games)
	}
}
