package tapp

import (
	"slices"

	"github.com/shopspring/decimal"
)

// What a correction or a void changed downstream (api.md "The evening as
// it stood"): the table is taken as it stood just before the change and
// just after it and its re-scorings, and the two are compared from the
// deal it changed on: the later deals' amounts and the pot after each, the
// pot, and who would pay whom.

// DealMoves is what one deal moves, by seat and for the pot, in units,
// with the pot after it.
type DealMoves struct {
	Deltas   []decimal.Decimal // by seat
	PotDelta decimal.Decimal
	Pot      decimal.Decimal // after the deal
}

// DealChange is a later deal whose amounts or pot a change moved.
type DealChange struct {
	Hand          int
	Before, After DealMoves
}

// Downstream is what a change to deal Hand changed after it.
type Downstream struct {
	Hand                int
	Deals               []DealChange // the later deals changed, in order
	PotBefore, PotAfter decimal.Decimal
	Before, After       Settlement // who would pay whom, before and after
}

// Standing is the table from one deal on, as a state holds it: what each
// later deal moves and the pot after it, the pot, who would pay whom. It is
// a copy: the state it was taken from may go on changing.
type Standing struct {
	hand   int
	later  []DealMoves // deals hand+1 on
	pot    decimal.Decimal
	settle Settlement
}

// StandingFrom takes the table as the state holds it, for what a change
// to deal hand changes after it.
func (s *State) StandingFrom(hand int) Standing {
	out := Standing{hand: hand, pot: s.pot, settle: s.Settlement()}
	out.settle.Balances = slices.Clone(out.settle.Balances)
	pots := s.PotsAfter()
	for i := hand; i < len(s.hands.items); i++ {
		deltas, pot := s.hands.items[i].Moves()
		out.later = append(out.later, DealMoves{Deltas: slices.Clone(deltas), PotDelta: pot, Pot: pots[i]})
	}
	return out
}

// Since compares the table as it stood before (b) with after (the
// receiver): the later deals whose amounts or pot after changed, the pot,
// and who pays whom.
func (a Standing) Since(b Standing) Downstream {
	out := Downstream{Hand: a.hand, PotBefore: b.pot, PotAfter: a.pot, Before: b.settle, After: a.settle}
	for i := 0; i < len(a.later) && i < len(b.later); i++ {
		if !b.later[i].same(a.later[i]) {
			out.Deals = append(out.Deals, DealChange{Hand: a.hand + i + 1, Before: b.later[i], After: a.later[i]})
		}
	}
	return out
}

func (m DealMoves) same(o DealMoves) bool {
	if !m.PotDelta.Equal(o.PotDelta) || !m.Pot.Equal(o.Pot) || len(m.Deltas) != len(o.Deltas) {
		return false
	}
	for i := range m.Deltas {
		if !m.Deltas[i].Equal(o.Deltas[i]) {
			return false
		}
	}
	return true
}

// Changes is the deal whose correction or void p is: what the table
// downstream of it is compared for.
func Changes(p Payload) (hand int, ok bool) {
	switch p := p.(type) {
	case HandCorrected:
		return p.Hand, true
	case HandVoided:
		return p.Hand, true
	}
	return 0, false
}

// RescoredFor says whether p is one of the re-scorings a change to deal
// hand caused (decided with it, right after it).
func RescoredFor(p Payload, hand int) bool {
	r, ok := p.(HandRescored)
	return ok && r.Cause == hand
}

// LastChange is the version of the last correction or void in the game's
// history: past it (and its re-scorings) no event changes anything
// downstream. 0 where there is none.
func (s *State) LastChange() int64 {
	var last int64
	for _, list := range [][]*Hand{s.hands.items, s.retracted} {
		for _, h := range list {
			for i := range h.Revisions {
				if r := &h.Revisions[i]; (r.Kind == TypeHandCorrect || r.Kind == TypeHandVoided) && r.Version > last {
					last = r.Version
				}
			}
		}
	}
	return last
}
