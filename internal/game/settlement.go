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
	Pot         decimal.Decimal   // what is left in the pot (zero)
	Split       []decimal.Decimal // by seat, each share of the pot
	RemainderTo []string
	Transfers   []projection.Transfer
	// Provisional: the leftover units of the pot await a cut that is not
	// recorded yet; until then they are shown going to the lowest balance.
	Provisional bool
}

// SettlementOf gives the settlement of a game as it stands.
func SettlementOf(g *projection.Game) Settlement {
	if c := g.Closed; c != nil {
		return Settlement{Balances: g.Balances, Pot: g.Pot, Split: c.Split, RemainderTo: c.RemainderTo, Transfers: c.Transfers}
	}
	out := Settlement{}
	split, err := payout.SplitPot(g.Setup, g.Balances, g.Pot, nil)
	if err != nil {
		// A cut is needed: show the units going to the first who may win it
		// (the lowest balance, the first seat among equals) until it is
		// recorded.
		first := payout.RemainderEligible(g.Setup, g.Balances)[0]
		split, err = payout.SplitPot(g.Setup, g.Balances, g.Pot, []string{first})
		out.Provisional = err == nil
	}
	if err != nil {
		// Cannot happen for a game that folded; settle without the pot.
		split = payout.Split{Shares: make([]decimal.Decimal, len(g.Balances))}
	}
	out.Split, out.RemainderTo = split.Shares, split.RemainderTo
	out.Balances = make([]decimal.Decimal, len(g.Balances))
	out.Pot = g.Pot
	for seat, b := range g.Balances {
		out.Balances[seat] = b.Add(split.Shares[seat])
		out.Pot = out.Pot.Sub(split.Shares[seat])
	}
	out.Transfers = projection.Settle(g.Setup.Players, out.Balances)
	return out
}
