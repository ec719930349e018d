package web

import (
	"testing"
	"time"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// foldEvening folds the commands into a game, as the service would.
func foldEvening(t *testing.T, cmds ...tapp.Command) *tapp.State {
	t.Helper()
	s := tapp.New("chart")
	for _, c := range cmds {
		ps, err := tapp.Decide(s, c)
		if err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		s = evolved(t, s, ps, nil)
	}
	return s
}

// evolved is s with the payloads a command decided folded in, as the
// service folds them; at, if not nil, gives each event its moment.
func evolved(t testing.TB, s *tapp.State, ps []tapp.Payload, at func() time.Time) *tapp.State {
	t.Helper()
	evs := make([]tapp.Event, len(ps))
	for i, p := range ps {
		evs[i] = tapp.Event{Version: s.Version + int64(i) + 1, Data: p}
		if at != nil {
			evs[i].At = at()
		}
	}
	s, err := tapp.Evolve(s, evs...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The chart of an evening adds its deals up in int64, not as decimals:
// given evenings with a pot, voids that keep a stake and that keep
// nothing, a close that shares the pot out, and one long enough to be
// thinned, when the deals are added up both ways, then the same steps are
// drawn, each the same, and
// so are the lowest and highest values and the deals the axis names.
func TestChartAddsWholeUnitsAsTheDecimalsDo(t *testing.T) {
	pts := func(n int) *int { return &n }
	oldTapp := []tapp.Command{tapp.Start{Variant: "old-tapp", Players: []string{"Anna", "Ben", "Cleo"}}}
	for i := range 40 {
		who := []string{"Anna", "Ben", "Cleo"}[i%3]
		switch i % 4 {
		case 0:
			oldTapp = append(oldTapp, tapp.RecordHand{Record: payout.Record{Contract: "pass"}})
		case 1:
			oldTapp = append(oldTapp, tapp.RecordHand{Record: payout.Record{Contract: "coeursolo", Declarer: who, Points: pts(40)}})
		default:
			oldTapp = append(oldTapp, tapp.RecordHand{Record: payout.Record{Contract: "coeurfrage", Declarer: who, Points: pts(50 + i%30)}})
		}
	}
	oldTapp = append(oldTapp, tapp.VoidHand{Hand: 3, Reason: "misdeal"}, tapp.RecordHand{Record: payout.Record{Contract: "pass"}}, tapp.Close{})
	zuger := []tapp.Command{tapp.Start{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}}
	for i := range 330 { // more than chartPoints: thinned
		zuger = append(zuger, tapp.RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Ben", Points: pts(40 + i%60), Tricks: pts(2 + i%5)}})
	}
	zuger = append(zuger, tapp.VoidHand{Hand: 7, Reason: "misdeal"})
	for name, g := range map[string]*tapp.State{"old-tapp": foldEvening(t, oldTapp...), "zuger": foldEvening(t, zuger...)} {
		split := g.Closed != nil && g.Variant().HasPot
		whole, wFirst, wLast, ok := wholeChart(g, split, nil)
		if !ok {
			t.Fatalf("%s: every amount is whole, but the int64 sum gave up", name)
		}
		steps, dFirst, dLast := decimalChart(g, split)
		dec := runningOf(steps)
		if whole.count != dec.count || wFirst != dFirst || wLast != dLast || !whole.lo.Equal(dec.lo) || !whole.hi.Equal(dec.hi) {
			t.Fatalf("%s: whole %d steps, deals %d…%d, %s…%s; decimal %d steps, deals %d…%d, %s…%s", name,
				whole.count, wFirst, wLast, whole.lo, whole.hi, dec.count, dFirst, dLast, dec.lo, dec.hi)
		}
		if len(whole.drawn) != len(dec.drawn) {
			t.Fatalf("%s: %d steps drawn in int64, %d as decimals", name, len(whole.drawn), len(dec.drawn))
		}
		for k, i := range whole.drawn {
			for seat, v := range whole.row(k) {
				if !v.Equal(dec.row(k)[seat]) {
					t.Fatalf("%s: step %d, seat %d: %s in int64, %s as decimals", name, i+1, seat, v, dec.row(k)[seat])
				}
			}
		}
	}
}
