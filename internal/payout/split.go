package payout

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// Split is the old-tapp end of the session: the pot shared out.
type Split struct {
	Shares      []decimal.Decimal // by seat: what each player gets from the pot
	Remainder   int               // the units left over after equal shares
	RemainderTo []string          // who got each leftover unit
}

// SplitPot shares an old-tapp pot equally among the players in whole units
// (rules.md "End of the session"). The 1 or 2 units left over go, by the
// house rule, to the player with the lowest balance before the split
// (biggest-loser; a tie for lowest is decided by the cut recorded in
// remainderTo) or to the winners of the cut (remainderTo, one name for all
// leftover units or one per unit).
func SplitPot(s Setup, balances []decimal.Decimal, pot decimal.Decimal, remainderTo []string) (Split, error) {
	n := len(s.Players)
	out := Split{Shares: make([]decimal.Decimal, n)}
	for seat := range out.Shares {
		out.Shares[seat] = decimal.Zero
	}
	// Closing cannot be undone: a cut named where none is due would be
	// ignored, so it is refused as the mistake it is.
	if !s.describe().HasPot {
		if len(remainderTo) > 0 {
			return Split{}, inputErr("remainder_to", "split.no-pot", problem.Variant(string(s.Variant)))
		}
		return out, nil
	}
	if !pot.IsPositive() {
		if len(remainderTo) > 0 {
			return Split{}, inputErr("remainder_to", "split.pot-empty")
		}
		return out, nil
	}
	share := pot.Div(units(n)).Floor()
	for seat := range out.Shares {
		out.Shares[seat] = share
	}
	rem := int(pot.Sub(share.Mul(units(n))).IntPart())
	out.Remainder = rem
	if rem == 0 {
		if len(remainderTo) > 0 {
			return Split{}, inputErr("remainder_to", "split.no-leftover", pot.String(), n)
		}
		return out, nil
	}

	eligible := RemainderEligible(s, balances)
	if s.Rules.Remainder == RemainderBiggestLoser && len(eligible) == 1 {
		if len(remainderTo) > 0 {
			return Split{}, inputErr("remainder_to", "split.biggest-loser", eligible[0])
		}
		remainderTo = []string{eligible[0]}
	}
	if len(remainderTo) == 0 {
		return Split{}, inputErr("remainder_to", "split.remainder-needed", rem, strings.Join(eligible, ", "))
	}
	if len(remainderTo) != 1 && len(remainderTo) != rem {
		return Split{}, inputErr("remainder_to", "split.remainder-count", rem, len(remainderTo))
	}
	for _, name := range remainderTo {
		if s.IndexOf(name) < 0 {
			return Split{}, inputErr("remainder_to", "split.remainder-player", name, strings.Join(s.Players, ", "))
		}
		if !slices.Contains(eligible, name) {
			return Split{}, inputErr("remainder_to", "split.remainder-not-tied", name, strings.Join(eligible, ", "))
		}
	}
	for i := range rem {
		name := remainderTo[min(i, len(remainderTo)-1)]
		out.RemainderTo = append(out.RemainderTo, name)
		seat := s.IndexOf(name)
		out.Shares[seat] = out.Shares[seat].Add(units(1))
	}
	if err := checkZeroSum(out.Shares, pot.Neg()); err != nil {
		return Split{}, err
	}
	return out, nil
}

// RemainderEligible says who may take the units the final split leaves
// over, in seat order: everyone after a cut; under biggest-loser, the
// players tied for the lowest balance before the split.
func RemainderEligible(s Setup, balances []decimal.Decimal) []string {
	if s.Rules.Remainder != RemainderBiggestLoser || len(balances) == 0 {
		return slices.Clone(s.Players)
	}
	lowest := balances[0]
	for _, b := range balances {
		lowest = decimal.Min(lowest, b)
	}
	var out []string
	for seat, b := range balances {
		if b.Equal(lowest) {
			out = append(out, s.Players[seat])
		}
	}
	return out
}
