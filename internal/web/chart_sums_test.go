package web

import (
	"reflect"
	"sync"
	"testing"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// The chart of an evening whose totals are kept from page to page is the
// chart added up afresh: given evenings shown after every command — deals
// recorded, corrected early (re-scoring the later ones), voided, undone
// and recorded again before the page is asked for, closed and reopened —
// and older snapshots shown after newer ones, by phones at once, when
// each is charted with the totals kept, then it is the chart of the same
// game added up from nothing.
func TestChartWithTotalsKeptIsTheChartAddedUpAfresh(t *testing.T) {
	bundle := loadBundle(t)
	loc := bundle.For("en")
	pts := func(n int) *int { return &n }
	three := []string{"Anna", "Ben", "Cleo"}
	oldTapp := []tapp.Command{tapp.Start{ID: "pot", Variant: "old-tapp", Players: three}}
	for n := 1; n <= 170; n++ {
		r := payout.Record{Contract: "coeurfrage", Declarer: three[n%3], Points: pts(40 + (n*7)%50)}
		switch {
		case n%25 == 0:
			r = payout.Record{Contract: "coeursolo", Declarer: three[n%3], Points: pts(40)}
		case n%3 == 0:
			r = payout.Record{Contract: "pass"}
		}
		oldTapp = append(oldTapp, tapp.RecordHand{Record: r})
		switch n {
		case 60:
			oldTapp = append(oldTapp, tapp.CorrectHand{Hand: 2, Record: payout.Record{Contract: "pass"}, Reason: "nobody played"})
		case 90:
			oldTapp = append(oldTapp, tapp.VoidHand{Hand: 88, Reason: "misdeal"}, tapp.RetractHand{Hand: 90})
		case 120:
			oldTapp = append(oldTapp, tapp.VoidHand{Hand: 119, Reason: "wrong table"}, tapp.CorrectHand{Hand: 119, Record: r})
		}
	}
	oldTapp = append(oldTapp, tapp.Close{}, tapp.Reopen{Reason: "miscounted"},
		tapp.CorrectHand{Hand: 160, Record: payout.Record{Contract: "pass"}}, tapp.Close{})
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	zuger := []tapp.Command{tapp.Start{ID: "zuger", Variant: "zuger", Players: four}}
	for i := range 200 {
		zuger = append(zuger, tapp.RecordHand{Record: payout.Record{Contract: "solo", Declarer: four[i%4], Points: pts(40 + i%60), Tricks: pts(2 + i%5)}})
		if i == 150 {
			zuger = append(zuger, tapp.VoidHand{Hand: 3, Reason: "misdeal"}, tapp.RetractHand{Hand: 151})
		}
	}
	for _, cmds := range [][]tapp.Command{oldTapp, zuger} {
		kept := newChartSums()
		var states []*tapp.State
		s := tapp.New("")
		for _, c := range cmds {
			ps, err := tapp.Decide(s, c)
			if _, ok := c.(tapp.Close); ok {
				// Whoever won the cut for the units left over.
				for _, cut := range [][]string{{"Anna"}, {"Anna", "Ben"}} {
					if err == nil {
						break
					}
					ps, err = tapp.Decide(s, tapp.Close{RemainderTo: cut})
				}
			}
			if err != nil {
				t.Fatalf("%T: %v", c, err)
			}
			s = evolved(t, s, ps, nil)
			states = append(states, s)
			if _, ok := c.(tapp.RetractHand); ok {
				continue // shown once the deal is recorded again
			}
			if got, want := chart(loc, s, kept), chart(loc, s, nil); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s at version %d (%T): with the totals kept\n%+v\nadded up afresh\n%+v", s.ID, s.Version, c, got, want)
			}
		}
		// Phones at other versions ask at once, each showing the later
		// versions in turn.
		var wg sync.WaitGroup
		for from := range 4 {
			wg.Go(func() {
				for i := from * len(states) / 4; i < len(states); i += 7 {
					if got, want := chart(loc, states[i], kept), chart(loc, states[i], nil); !reflect.DeepEqual(got, want) {
						t.Errorf("%s at version %d, shown again: with the totals kept\n%+v\nadded up afresh\n%+v", states[i].ID, states[i].Version, got, want)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// The totals kept are bounded in bytes, not in evenings: given evenings
// whose totals hold a fifth of a generation's bytes each, when many are
// kept, then the newer generation never holds more than its bytes, and
// both together no more than two generations' and one evening's.
func TestChartTotalsKeptAreBoundInBytes(t *testing.T) {
	x := newChartSums()
	for i := range 40 {
		s := x.of(string(rune('a' + i)))
		s.mu.Lock()
		s.totals = make([]int64, 0, chartSumsBytes/8/5)
		x.weigh(s)
		s.mu.Unlock()
		if x.bytes > chartSumsBytes {
			t.Fatalf("after %d evenings the newer generation holds %d bytes, more than %d", i+1, x.bytes, chartSumsBytes)
		}
		held := 0
		for _, gen := range []map[string]*sums{x.now, x.old} {
			for _, s := range gen {
				held += 8 * cap(s.totals)
			}
		}
		if held > 2*chartSumsBytes+chartSumsBytes/5 {
			t.Fatalf("after %d evenings %d bytes are kept", i+1, held)
		}
	}
}
