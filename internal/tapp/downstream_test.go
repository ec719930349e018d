package tapp

import (
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// What a correction changed downstream (api.md "The evening as it stood"):
// given an evening, when a deal is corrected or voided, then the later deals
// whose amounts or pot changed, the pot and who pays whom, before → after.

// changed decides the command, folds what it decides and compares the table
// from the deal it changes on, as it stood before and after.
func (o outcome) changed() Downstream {
	t := o.sc.t
	t.Helper()
	if o.err != nil || len(o.events) == 0 {
		t.Fatalf("refused: %v", o.err)
	}
	hand, ok := Changes(o.events[0])
	if !ok {
		t.Fatalf("%s changes no deal", o.events[0].EventType())
	}
	for _, p := range o.events[1:] {
		if !RescoredFor(p, hand) {
			t.Fatalf("decided with the change: %s, not a re-scoring it caused", js(p))
		}
	}
	next, err := Evolve(o.sc.state, events(o.sc.state.Version, o.events)...)
	if err != nil {
		t.Fatalf("the decided events do not fold: %v", err)
	}
	return next.StandingFrom(hand).Since(o.sc.state.StandingFrom(hand))
}

// sameTransfers checks who pays whom, in units.
func sameTransfers(t *testing.T, what string, got []Transfer, want ...Transfer) {
	t.Helper()
	if js(got) != js(want) {
		t.Errorf("%s: %s, want %s", what, js(got), js(want))
	}
}

func pays(from, to string, n int64) Transfer { return Transfer{From: from, To: to, Amount: u(n)} }

// rules.md zuger: a solo won with 70 is +3v for the declarer, −v for each
// other (v = 2). Correcting deal 1's declarer changes no later deal (zuger
// has no pot to carry), only who pays whom.
func TestChangedInZuger(t *testing.T) {
	g := game(t, "zuger", four, nil).and(RecordHand{Record: solo("Ben", 70, 5)}, RecordHand{Record: solo("Cleo", 70, 5)})
	ch := g.when(CorrectHand{Hand: 1, Record: solo("Dan", 70, 5), Reason: "Dan played it"}).changed()
	if ch.Hand != 1 || len(ch.Deals) != 0 {
		t.Fatalf("deal %d, later deals changed %s; want deal 1, none", ch.Hand, js(ch.Deals))
	}
	if !ch.PotBefore.IsZero() || !ch.PotAfter.IsZero() {
		t.Errorf("pot %s → %s, want 0 → 0", ch.PotBefore, ch.PotAfter)
	}
	// Before: Anna −4, Ben +4, Cleo +4, Dan −4. After: Anna −4, Ben −4, Cleo +4, Dan +4.
	sameTransfers(t, "before", ch.Before.Transfers, pays("Anna", "Cleo", 4), pays("Dan", "Ben", 4))
	sameTransfers(t, "after", ch.After.Transfers, pays("Anna", "Dan", 4), pays("Ben", "Cleo", 4))
}

// rules.md old-tapp (stake 2): the dealer's stake goes into the pot; a won
// coeurfrage with 73 takes ⌈13/4⌉ = 4 from each, a lost one with 50 pays
// ⌈10/4⌉ = 3 to each and 3 into the pot; a won solo with 70 takes the pot,
// its stake included, and ⌈10/2⌉ = 5 from each. Correcting deal 2 to a lost
// coeurfrage leaves deal 3's amounts as they were but not the pot after it,
// and deal 4's solo takes a bigger pot.
func TestChangedInOldTapp(t *testing.T) {
	cf := func(points int) payout.Record {
		return payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(points)}
	}
	g := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"}).
		and(RecordHand{Record: pass()}, RecordHand{Record: cf(73)}, RecordHand{Record: pass()},
			RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(70)}})
	ch := g.when(CorrectHand{Hand: 2, Record: cf(50), Reason: "she had 50"}).changed()
	want := []DealChange{
		{Hand: 3,
			Before: DealMoves{Deltas: ds(0, 0, -2), PotDelta: u(2), Pot: u(6)},
			After:  DealMoves{Deltas: ds(0, 0, -2), PotDelta: u(2), Pot: u(9)}},
		{Hand: 4,
			Before: DealMoves{Deltas: ds(-2-5, -5, 8+10), PotDelta: u(-6), Pot: u(0)},
			After:  DealMoves{Deltas: ds(-2-5, -5, 11+10), PotDelta: u(-9), Pot: u(0)}},
	}
	if js(ch.Deals) != js(want) {
		t.Fatalf("later deals changed:\n got %s\nwant %s", js(ch.Deals), js(want))
	}
	if !ch.PotBefore.IsZero() || !ch.PotAfter.IsZero() {
		t.Errorf("pot %s → %s, want 0 → 0 (the solo took it)", ch.PotBefore, ch.PotAfter)
	}
	// Before: Anna −2+8−7 = −1, Ben −6−5 = −11, Cleo −4−2+18 = 12.
	// After: Anna −2−9−7 = −18, Ben 1−5 = −4, Cleo 3−2+21 = 22.
	sameTransfers(t, "before", ch.Before.Transfers, pays("Ben", "Cleo", 11), pays("Anna", "Cleo", 1))
	sameTransfers(t, "after", ch.After.Transfers, pays("Anna", "Cleo", 18), pays("Ben", "Cleo", 4))
	for _, c := range ch.Deals {
		for _, m := range []DealMoves{c.Before, c.After} {
			sum := m.PotDelta
			for _, d := range m.Deltas {
				sum = sum.Add(d)
			}
			if !sum.IsZero() {
				t.Errorf("deal %d moves %s in all, not zero", c.Hand, sum)
			}
		}
	}
}

// A void of deal 1 in old-tapp keeps the dealer's stake in the pot: the
// solo of deal 2 takes a smaller pot (TestVoidHandRescoresLaterDeals).
func TestChangedByAVoid(t *testing.T) {
	lost := payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(50)}
	g := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"}).
		and(RecordHand{Record: lost}, RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(70)}})
	ch := g.when(VoidHand{Hand: 1, Reason: "misdeal"}).changed()
	if len(ch.Deals) != 1 || ch.Deals[0].Hand != 2 || !ch.Deals[0].Before.PotDelta.Equal(u(-5)) || !ch.Deals[0].After.PotDelta.Equal(u(-2)) {
		t.Fatalf("later deals changed: %s; want deal 2's pot change −5 → −2", js(ch.Deals))
	}
}

// A change that moves nothing later (the last deal corrected) still says
// who pays whom before and after, and lists no deal.
func TestChangedTheLastDeal(t *testing.T) {
	g := game(t, "zuger", four, nil).and(RecordHand{Record: solo("Ben", 70, 5)})
	ch := g.when(CorrectHand{Hand: 1, Record: solo("Cleo", 70, 5), Reason: "Cleo"}).changed()
	if len(ch.Deals) != 0 || len(ch.Before.Transfers) != 3 || len(ch.After.Transfers) != 3 || ch.After.Transfers[0].To != "Cleo" {
		t.Fatalf("changed %s", js(ch))
	}
}

// ds is what a deal moves by seat, in units.
func ds(n ...int64) []decimal.Decimal {
	out := make([]decimal.Decimal, len(n))
	for i, v := range n {
		out[i] = u(v)
	}
	return out
}
