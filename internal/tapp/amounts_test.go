package tapp

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// A deal's amounts read back exactly as they were, whether whole and small
// (kept as int32), too big for int32 or int64, or fractions of a unit.
func TestAmountsKeepEveryAmount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	huge := decimal.New(1, 30)
	pick := func() decimal.Decimal {
		switch rng.IntN(7) {
		case 0:
			return decimal.New(rng.Int64N(1000)-500, -2) // 1.25 and the like
		case 1:
			return huge.Mul(decimal.NewFromInt(rng.Int64N(9) - 4))
		case 2:
			return decimal.NewFromInt(rng.Int64())
		case 3:
			return decimal.New(rng.Int64N(100), 3) // a whole number with a positive exponent
		case 4: // at the edges of int32, which holds the whole ones
			return decimal.NewFromInt([]int64{math.MaxInt32, math.MinInt32}[rng.IntN(2)] + rng.Int64N(5) - 2)
		}
		return decimal.NewFromInt(rng.Int64N(2000) - 1000)
	}
	for range 5000 {
		deltas := make([]decimal.Decimal, 3+rng.IntN(2))
		for i := range deltas {
			deltas[i] = pick()
		}
		pot := pick()
		a := newAmounts(deltas, pot)
		for seat, d := range deltas {
			if !a.delta(seat).Equal(d) {
				t.Fatalf("seat %d: %s kept as %s", seat, d, a.delta(seat))
			}
		}
		if !a.pot().Equal(pot) || !a.equal(deltas, pot) || len(a.deltas()) != len(deltas) {
			t.Fatalf("pot %s kept as %s", pot, a.pot())
		}
	}
}

// Old-tapp's pot doubles with every lost solo, far past what an int64
// holds: the game keeps every amount exact, the balances and the pot still
// sum to zero, a correction of the first deal re-scores every deal after it
// exactly, and the fold of the events gives the same game.
func TestPotPastInt64(t *testing.T) {
	s := New("g1")
	var all []Event
	apply := func(c Command) {
		t.Helper()
		evs := events(s.Version, mustDecide(t, s, c))
		all = append(all, evs...)
		var err error
		if s, err = Evolve(s, evs...); err != nil {
			t.Fatal(err)
		}
	}
	apply(Start{ID: "g1", ReadID: "r1", Variant: "old-tapp", Players: three, Rules: map[string]json.RawMessage{"stake": json.RawMessage("2")}})
	pot := func(first decimal.Decimal) decimal.Decimal {
		p := first
		for range 89 {
			p = p.Add(decimal.NewFromInt(2)).Mul(decimal.NewFromInt(2)) // the stake, then a lost coeursolo doubles it
		}
		return p
	}
	for n := 1; n <= 90; n++ {
		apply(RecordHand{Record: payout.Record{Contract: "coeursolo", Declarer: three[n%3], Points: ip(30)}})
	}
	check := func(want decimal.Decimal) {
		t.Helper()
		if !s.Pot().Equal(want) || want.LessThan(decimal.New(1, 25)) {
			t.Fatalf("pot %s, want %s", s.Pot(), want)
		}
		sum := s.Pot()
		for _, b := range s.Balances() {
			sum = sum.Add(b)
		}
		if !sum.IsZero() {
			t.Fatalf("balances and pot sum to %s", sum)
		}
		// the last deal met half the pot less the stake, and added as much again and its stake
		if d := s.Hand(90).Result().PotDelta(); !d.Equal(want.Div(decimal.NewFromInt(2)).Add(decimal.NewFromInt(2))) {
			t.Fatalf("the last deal moved the pot by %s, to %s", d, want)
		}
		folded, err := Fold("g1", all)
		if err != nil {
			t.Fatal(err)
		}
		if js(handsView(folded)) != js(handsView(s)) || !folded.Pot().Equal(want) {
			t.Fatalf("the fold differs: pot %s, want %s", folded.Pot(), want)
		}
	}
	check(pot(decimal.NewFromInt(4)))
	// Deal 1 passed in after all: the stake stays, and every later deal
	// meets half the pot it met.
	apply(CorrectHand{Hand: 1, Record: pass(), Reason: "nobody played"})
	if got := len(s.Hand(90).Revisions); got != 2 {
		t.Fatalf("deal 90 has %d revisions, want a re-scoring", got)
	}
	check(pot(decimal.NewFromInt(2)))
}

// A deal and its first revision, one allocation (Folder.recorded), fit
// Go's size class of 224 bytes: a game holds one per deal.
func TestADealFitsItsAllocation(t *testing.T) {
	if n := unsafe.Sizeof(struct {
		hand  Hand
		first [1]Revision
	}{}); n > 224 {
		t.Fatalf("a deal with its first revision takes %d bytes, past 224 (the next size class is 240)", n)
	}
}
