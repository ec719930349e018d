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
	// Reopened are the evenings (numbered from 1, as the group lists them)
	// closed once and open again: their money is out of the tab until
	// they close again, but what was paid on them is in, so Transfers
	// then include paying that back; whoever shows them must say so.
	Reopened []int
}

// Tab computes the tab from the group and its evenings' games: games is
// aligned with s.Evenings(), nil for an evening whose game never started.
// Only closed evenings count: an open one's money is not settled yet. What
// was paid on an evening's transfers counts as a payment of the group's,
// also while that evening is reopened (api.md: payments recorded stay).
func (s *State) Tab(games []*tapp.State) Tab {
	t := Tab{Names: s.MemberNames()}
	t.Owed = zeros(len(t.Names))
	for n, g := range games {
		if g == nil {
			continue
		}
		if g.Reopened && g.Closed == nil {
			t.Reopened = append(t.Reopened, n+1)
		}
		for _, p := range g.Paid() {
			t.paid(p.From, p.To, g.Money(p.Amount))
		}
		if g.Closed == nil {
			continue
		}
		if playedNothing(g) {
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
		t.paid(p.From, p.To, p.Amount)
	}
	t.Transfers = tapp.Settle(t.Names, t.Owed)
	return t
}

// paid counts money from paid to to.
func (t *Tab) paid(from, to string, amount decimal.Decimal) {
	f, r := t.index(from), t.index(to)
	t.Owed[f] = t.Owed[f].Add(amount)
	t.Owed[r] = t.Owed[r].Sub(amount)
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

// CashTransfers is what to pay when cash is rounded to step: each member's
// balance rounded to a step so that the rounded balances still add up to
// zero (each rounded down, then up by one step for as many as the sum
// needs, the largest remainders first, then in the tab's order), and these
// settled as Tab's Transfers are (tapp.Settle). owed adds up to zero, as a
// Tab's does; the plan settles the rounded balances exactly, which then do
// too. Nobody then pays or gets a step or more
// beyond what is exact, and whoever is owed gets what all the others pay
// to them, no more: rounding each payment on its own had someone owed 12.00
// collect 9.00 + 4.00. What is paid is recorded as paid, and the tab keeps
// the exact remainder.
func CashTransfers(names []string, owed []decimal.Decimal, step decimal.Decimal) []tapp.Transfer {
	rounded := make([]decimal.Decimal, len(owed))
	rest := make([]decimal.Decimal, len(owed)) // in steps, in [0, 1)
	short := decimal.Zero                      // in steps: what the floors took from zero
	for i, b := range owed {
		q := b.Div(step)
		floor := q.Floor()
		rounded[i], rest[i] = floor.Mul(step), q.Sub(floor)
		short = short.Sub(floor)
	}
	order := make([]int, len(owed))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rest[b].Cmp(rest[a]) })
	// With owed adding up to zero, 0 <= short < len(owed); bounded anyway,
	// so that a tab that did not add up could not make this panic.
	for _, i := range order[:max(0, min(len(order), int(short.IntPart())))] {
		rounded[i] = rounded[i].Add(step)
	}
	return tapp.Settle(names, rounded)
}
