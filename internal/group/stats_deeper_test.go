package group

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// startedOn gives a closed game as if it had started on day (the test
// evenings all start at the same moment otherwise).
func startedOn(g *tapp.State, day time.Time) *tapp.State {
	cp := *g
	cp.StartedAt = day
	return &cp
}

// #36 deeper statistics: given a Zuger evening on New Year's Eve 2025
// (Anna wins two tapps around Ben's lost solo) and a Matzlfangen evening
// in 2026 (Ben calls Dan in a Rufen and they win), the statistics give
// each declarer's contracts, the Rufen partners, the money between each
// two players, the records and each year.
func TestStatsDeeper(t *testing.T) {
	sc := thursday(t)
	e1 := startedOn(play(t, "game1", "zuger", four, "0.50", "CHF").deal(tappWon("Anna", 70, 5)).deal(soloLost("Ben", 50, 3)).deal(tappWon("Anna", 75, 5)).close(),
		time.Date(2025, 12, 31, 20, 0, 0, 0, time.UTC))
	e2 := play(t, "game2", "matzlfangen", four, "0.50", "CHF").
		deal(payout.Record{Contract: "rufen", Partner: "Dan", Points: ip(70), Tricks: ip(5)}).close()
	st := sc.state.Stats(joined(t, sc, e1, e2))
	by := map[string]PlayerStats{}
	for _, p := range st.Players {
		by[p.Name] = p
	}

	// Contracts: Anna's two tapps, both won, 1.50 each; Ben's lost solo
	// (2 units to each of three: −3.00) and his Rufen.
	anna := by["Anna"].Contracts
	if len(anna) != 1 || anna[0].Contract != "tapp" || anna[0].Declared != 2 || anna[0].Won != 2 || !anna[0].Money.Equal(d("3")) || !anna[0].WonPercent().Equal(d("100")) {
		t.Fatalf("Anna's contracts %+v", anna)
	}
	ben := by["Ben"].Contracts
	if len(ben) != 2 || ben[0].Variant != payout.Zuger || ben[0].Contract != "solo" || ben[0].Won != 0 || !ben[0].Money.Equal(d("-3")) ||
		ben[1].Contract != "rufen" || ben[1].Won != 1 {
		t.Fatalf("Ben's contracts %+v", ben)
	}

	// Rufen: Ben called Dan; each is the other's partner, once, won.
	for who, with := range map[string]string{"Ben": "Dan", "Dan": "Ben"} {
		ps := by[who].Partners
		if len(ps) != 1 || ps[0].Partner != with || ps[0].Deals != 1 || ps[0].Won != 1 || !ps[0].Money.IsPositive() {
			t.Fatalf("%s's partners %+v", who, ps)
		}
	}
	if len(by["Anna"].Partners) != 0 {
		t.Fatalf("Anna was nobody's partner: %+v", by["Anna"].Partners)
	}

	// Head to head: every two who played together, and what each was paid
	// by the others adds up to what they won in all.
	if len(st.Pairs) != 6 {
		t.Fatalf("%d pairs of four players, want 6: %+v", len(st.Pairs), st.Pairs)
	}
	received := map[string]decimal.Decimal{}
	for _, p := range st.Pairs {
		if p.Evenings != 2 {
			t.Fatalf("pair %+v: they played 2 evenings together", p)
		}
		received[p.A] = received[p.A].Add(p.Money)
		received[p.B] = received[p.B].Sub(p.Money)
	}
	for _, p := range st.Players {
		if !received[p.Name].Equal(p.Net()) {
			t.Errorf("%s received %s from the others, won %s in all", p.Name, received[p.Name], p.Net())
		}
	}

	// Records: the best evening is the best of anyone's; the biggest deal
	// the most any one deal paid anyone; Anna won two declared deals in a
	// row (Ben's one win is a run of one).
	best, biggest := decimal.Zero, decimal.Zero
	for _, g := range []*tapp.State{e1, e2} {
		for seat := range g.Setup.Players {
			best = decimal.Max(best, g.Money(g.Balance(seat)))
		}
		for _, h := range g.Hands() {
			for _, u := range h.Result().Deltas() {
				biggest = decimal.Max(biggest, g.Money(u))
			}
		}
	}
	r := st.Records
	if r.BestEvening == nil || !r.BestEvening.Money.Equal(best) {
		t.Fatalf("best evening %+v, want %s", r.BestEvening, best)
	}
	if r.BiggestDeal == nil || !r.BiggestDeal.Money.Equal(biggest) {
		t.Fatalf("biggest deal %+v, want %s", r.BiggestDeal, biggest)
	}
	if r.LongestRun == nil || r.LongestRun.Name != "Anna" || r.LongestRun.Deals != 2 || r.LongestRun.From.Game != "game1" {
		t.Fatalf("longest run %+v", r.LongestRun)
	}

	// Years: 2025 and 2026, each with what its one evening paid.
	if len(st.Years) != 2 || st.Years[0].Year != 2025 || st.Years[1].Year != 2026 || len(st.Years[0].Players) != 4 {
		t.Fatalf("years %+v", st.Years)
	}
	for i, g := range []*tapp.State{e1, e2} {
		for seat, name := range g.Setup.Players {
			l := st.Years[i].Players[seat]
			if l.Name != name || l.Evenings != 1 || !l.Net.Equal(g.Money(g.Balance(seat))) {
				t.Errorf("year %d, %s: %+v", st.Years[i].Year, name, l)
			}
		}
	}
}

// Nobody has a record before the first closed evening.
func TestStatsDeeperBeforeAnyEvening(t *testing.T) {
	st := thursday(t).state.Stats(nil)
	if st.Records.BestEvening != nil || st.Records.BiggestDeal != nil || st.Records.LongestRun != nil || len(st.Pairs) != 0 || len(st.Years) != 0 {
		t.Fatalf("records before any evening: %+v", st)
	}
}
