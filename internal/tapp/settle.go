package tapp

import (
	"math/bits"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// Transfer is one payment at the end of the evening.
type Transfer struct {
	From   string          `json:"from"`
	To     string          `json:"to"`
	Amount decimal.Decimal `json:"amount"`
}

// exactLimit is how many non-zero balances the exact search takes: it is
// 3^n in the worst case, instant at 10, and a table rarely has more.
const exactLimit = 10

// Settle finds who pays whom so that every balance (summing to zero) ends at
// zero, with as few payments as it can: exactly the fewest for up to 10
// players with a non-zero balance, greedily above that. The same balances
// always give the same list; it depends only on the seat order.
//
// The fewest payments for n non-zero balances is n minus the largest number
// of groups they split into that each sum to zero: a group of k settles in
// k−1 payments and no fewer.
func Settle(players []string, balances []decimal.Decimal) []Transfer {
	var seats []int
	for seat, b := range balances {
		if !b.IsZero() {
			seats = append(seats, seat)
		}
	}
	if len(seats) == 0 {
		return []Transfer{}
	}
	if len(seats) > exactLimit {
		return settleGroup(players, balances, seats)
	}
	n := len(seats)
	full := 1<<n - 1
	sum := make([]decimal.Decimal, full+1)
	for mask := 1; mask <= full; mask++ {
		low := bits.TrailingZeros(uint(mask))
		sum[mask] = sum[mask&(mask-1)].Add(balances[seats[low]])
	}
	// best[mask]: the most zero-sum groups a zero-sum mask splits into;
	// choice[mask]: the group holding its lowest seat in such a split.
	best := make([]int, full+1)
	choice := make([]int, full+1)
	for mask := 1; mask <= full; mask++ {
		if !sum[mask].IsZero() {
			continue
		}
		low := mask & -mask
		best[mask] = -1
		for sub := mask; sub > 0; sub = (sub - 1) & mask {
			if sub&low == 0 || !sum[sub].IsZero() {
				continue
			}
			if c := 1 + best[mask^sub]; c > best[mask] {
				best[mask], choice[mask] = c, sub
			}
		}
	}
	var out []Transfer
	for mask := full; mask > 0; mask ^= choice[mask] {
		var group []int
		for i := range n {
			if choice[mask]&(1<<i) != 0 {
				group = append(group, seats[i])
			}
		}
		out = append(out, settleGroup(players, balances, group)...)
	}
	return out
}

// settleGroup settles a zero-sum group: the largest debtor pays the largest
// creditor as much as closes one of them, ties going to the earlier seat.
// Every payment closes at least one balance, so k balances take at most k−1.
func settleGroup(players []string, balances []decimal.Decimal, group []int) []Transfer {
	left := make(map[int]decimal.Decimal, len(group))
	for _, s := range group {
		left[s] = balances[s]
	}
	var out []Transfer
	for {
		debtor, creditor := -1, -1
		for _, s := range group {
			b := left[s]
			if b.IsNegative() && (debtor < 0 || b.LessThan(left[debtor])) {
				debtor = s
			}
			if b.IsPositive() && (creditor < 0 || b.GreaterThan(left[creditor])) {
				creditor = s
			}
		}
		if debtor < 0 || creditor < 0 {
			return out
		}
		amount := decimal.Min(left[debtor].Neg(), left[creditor])
		out = append(out, Transfer{From: players[debtor], To: players[creditor], Amount: amount})
		left[debtor] = left[debtor].Add(amount)
		left[creditor] = left[creditor].Sub(amount)
	}
}

// Settlement is who pays whom, in units, for a game as it stands: after
// closing, what the close fixed; before, what closing now would give.
type Settlement struct {
	Balances    []decimal.Decimal // by seat, the pot shared out
	Pot         decimal.Decimal   // what is left in the pot: zero, or the undecided units
	Split       []decimal.Decimal // by seat, each share of the pot
	RemainderTo []string
	Transfers   []Transfer
	// Provisional: the leftover units of the pot await a cut that is not
	// recorded yet. Nothing may pretend to know who wins it (rules.md "End
	// of the session"): the pot is shared equally, Undecided units stay in
	// it, CutAmong says who may win them, and no payments are given, since
	// every one of them depends on the cut.
	Provisional bool
	Undecided   int
	CutAmong    []string
}

// Settlement gives the settlement of the game as it stands: the one close
// fixed, or a preview of closing now, by the same closeWith that Close
// uses.
func (s *State) Settlement() Settlement {
	if c := s.Closed; c != nil {
		return Settlement{Balances: s.Balances(), Pot: s.pot, Split: c.Split, RemainderTo: c.RemainderTo, Transfers: c.Transfers}
	}
	out, err := s.closeWith(nil)
	if pe, ok := problem.As(err); ok && pe.Code == "split.remainder-needed" {
		// A cut is needed: the equal shares are known, the leftover units
		// are not anyone's yet.
		n := decimal.NewFromInt(int64(len(s.balances)))
		share := s.pot.Div(n).Floor()
		out = Settlement{Provisional: true, Pot: s.pot, Transfers: []Transfer{},
			CutAmong: payout.RemainderEligible(s.Setup, s.balances)}
		for _, b := range s.balances {
			out.Split = append(out.Split, share)
			out.Balances = append(out.Balances, b.Add(share))
			out.Pot = out.Pot.Sub(share)
		}
		out.Undecided = int(out.Pot.IntPart())
		return out
	}
	if err != nil {
		// Cannot happen for a game that folded: settle without the pot.
		return Settlement{Balances: s.Balances(), Pot: s.pot, Split: zeros(len(s.balances)), Transfers: Settle(s.Setup.Players, s.balances)}
	}
	return out
}

// closeWith shares out the pot, with the cut as recorded, and settles the
// balances that gives.
func (s *State) closeWith(remainderTo []string) (Settlement, error) {
	split, err := payout.SplitPot(s.Setup, s.balances, s.pot, remainderTo)
	if err != nil {
		return Settlement{}, err
	}
	out := Settlement{Split: split.Shares, RemainderTo: split.RemainderTo, Pot: s.pot, Balances: make([]decimal.Decimal, len(s.balances))}
	for seat, b := range s.balances {
		out.Balances[seat] = b.Add(split.Shares[seat])
		out.Pot = out.Pot.Sub(split.Shares[seat])
	}
	out.Transfers = Settle(s.Setup.Players, out.Balances)
	return out, nil
}

func zeros(n int) []decimal.Decimal {
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = decimal.Zero
	}
	return out
}
