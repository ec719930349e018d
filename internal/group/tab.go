package group

import (
	"slices"

	"github.com/shopspring/decimal"

	"tappbook/internal/tapp"
)

// Tab is what the members owe each other between evenings: the money of
// every closed evening, less the payments recorded since.
type Tab struct {
	Names []string          // the members in the order they joined
	Owed  []decimal.Decimal // by name: above 0 is owed to them, below 0 they owe; the sum is 0
	// Transfers settle Owed exactly with the fewest payments tapp.Settle
	// finds (exactly the fewest for up to 16 members with a balance).
	Transfers []tapp.Transfer
	Evenings  int // the closed evenings counted
}

// Tab computes the tab from the group and its evenings' games: games is
// aligned with s.Evenings(), nil for an evening whose game never started.
// Only closed evenings count: an open one's money is not settled yet.
func (s *State) Tab(games []*tapp.State) Tab {
	t := Tab{Names: s.MemberNames()}
	t.Owed = zeros(len(t.Names))
	for _, g := range games {
		if g == nil || g.Closed == nil {
			continue
		}
		t.Evenings++
		for seat, b := range g.Balances() {
			i := t.index(g.Setup.Players[seat])
			t.Owed[i] = t.Owed[i].Add(g.Money(b))
		}
	}
	for _, p := range s.payments {
		if p.Voided {
			continue
		}
		from, to := t.index(p.From), t.index(p.To)
		t.Owed[from] = t.Owed[from].Add(p.Amount)
		t.Owed[to] = t.Owed[to].Sub(p.Amount)
	}
	t.Transfers = tapp.Settle(t.Names, t.Owed)
	return t
}

// index is a name's place in the tab; a player the group does not list
// (which its own evenings never have) is added rather than lost, so the
// tab always sums to zero.
func (t *Tab) index(name string) int {
	if i := slices.Index(t.Names, name); i >= 0 {
		return i
	}
	t.Names = append(t.Names, name)
	t.Owed = append(t.Owed, decimal.Zero)
	return len(t.Names) - 1
}

func zeros(n int) []decimal.Decimal {
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = decimal.Zero
	}
	return out
}

// CashStep gives the smallest cash amount of a currency, when cash is
// rounded coarser than its minor unit: Swiss, Canadian and Australian coins
// stop at 5 cents, New Zealand's at 10, Danish at 50 øre, the Swedish,
// Norwegian and Czech at one crown, the Hungarian at 5 forint.
func CashStep(currency string) (decimal.Decimal, bool) {
	var step string
	switch currency {
	case "AUD", "CAD", "CHF":
		step = "0.05"
	case "NZD":
		step = "0.10"
	case "DKK":
		step = "0.50"
	case "CZK", "NOK", "SEK":
		step = "1"
	case "HUF":
		step = "5"
	default:
		return decimal.Decimal{}, false
	}
	return decimal.RequireFromString(step), true
}

// CashTransfers rounds suggested transfers to what can be paid in cash:
// each amount to the nearest step (halves up), a transfer that rounds to
// nothing dropped. They no longer settle the tab exactly: what is paid is
// recorded as paid, and the tab keeps the exact remainder.
func CashTransfers(ts []tapp.Transfer, step decimal.Decimal) []tapp.Transfer {
	out := []tapp.Transfer{}
	for _, t := range ts {
		t.Amount = t.Amount.Div(step).Round(0).Mul(step)
		if t.Amount.IsPositive() {
			out = append(out, t)
		}
	}
	return out
}
