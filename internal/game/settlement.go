package game

import (
	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/projection"
)

// Settlement is who pays whom, in units, for a game as it stands: after
// closing, what the close fixed; before, what closing now would give.
type Settlement struct {
	Balances    []decimal.Decimal // by seat, the pot shared out
	Pot         decimal.Decimal   // what is left in the pot: zero, or the undecided units
	Split       []decimal.Decimal // by seat, each share of the pot
	RemainderTo []string
	Transfers   []projection.Transfer
	// Provisional: the leftover units of the pot await a cut that is not
	// recorded yet. Nothing may pretend to know who wins it (rules.md "End
	// of the session"): the pot is shared equally, Undecided units stay in
	// it, CutAmong says who may win them, and no payments are given, since
	// every one of them depends on the cut.
	Provisional bool
	Undecided   int
	CutAmong    []string
}

// SettlementOf gives the settlement of a game as it stands.
func SettlementOf(g *projection.Game) Settlement {
	if c := g.Closed; c != nil {
		return Settlement{Balances: g.Balances, Pot: g.Pot, Split: c.Split, RemainderTo: c.RemainderTo, Transfers: c.Transfers}
	}
	out := Settlement{}
	split, err := payout.SplitPot(g.Setup, g.Balances, g.Pot, nil)
	if ie, ok := payout.AsInputError(err); ok && ie.Code == "split.remainder-needed" {
		// A cut is needed: the equal shares are known, the leftover units
		// are not anyone's yet.
		n := decimal.NewFromInt(int64(len(g.Balances)))
		share := g.Pot.Div(n).Floor()
		split = payout.Split{Shares: make([]decimal.Decimal, len(g.Balances))}
		for seat := range split.Shares {
			split.Shares[seat] = share
		}
		out.Provisional = true
		out.Undecided = int(g.Pot.Sub(share.Mul(n)).IntPart())
		out.CutAmong = payout.RemainderEligible(g.Setup, g.Balances)
	} else if err != nil {
		// Cannot happen for a game that folded; settle without the pot.
		split = payout.Split{Shares: make([]decimal.Decimal, len(g.Balances))}
		for seat := range split.Shares {
			split.Shares[seat] = decimal.Zero
		}
	}
	out.Split, out.RemainderTo = split.Shares, split.RemainderTo
	out.Balances = make([]decimal.Decimal, len(g.Balances))
	out.Pot = g.Pot
	for seat, b := range g.Balances {
		out.Balances[seat] = b.Add(split.Shares[seat])
		out.Pot = out.Pot.Sub(split.Shares[seat])
	}
	out.Transfers = []projection.Transfer{}
	if !out.Provisional {
		out.Transfers = projection.Settle(g.Setup.Players, out.Balances)
	}
	return out
}
