package tapp

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"

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

// exactLimit is how many non-zero balances the exact search takes: it
// takes 2^n·n steps and 2^n words, about 3 ms and 0.6 MiB at 16
// (BenchmarkSettleAtTheLimit; 66 ms and 10 MiB at 20). A group of friends
// rarely has more people owing or owed at once.
const exactLimit = 16

// Settle finds who pays whom so that every balance (summing to zero) ends at
// zero, with as few payments as there can be: exactly the fewest for up to
// exactLimit players with a non-zero balance, greedily above that. The
// same balances always give the same list; it depends only on the seat
// order.
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
	zero := zeroSums(balances, seats)
	if zero == nil || !zero[len(zero)-1] {
		return settleGroup(players, balances, seats)
	}
	n := len(seats)
	full := 1<<n - 1
	// most[mask]: the most prefixes summing to zero that an order of the
	// seats of mask has. For a mask that sums to zero that is the most
	// groups summing to zero it splits into (a split in k groups is an
	// order with k such prefixes, and back).
	most := make([]int8, full+1)
	for mask := 1; mask <= full; mask++ {
		best := int8(0)
		for rest := mask; rest > 0; rest &= rest - 1 {
			best = max(best, most[mask&^(rest&-rest)])
		}
		if zero[mask] {
			best++
		}
		most[mask] = best
	}
	var out []Transfer
	for mask := full; mask > 0; {
		// The group holding the lowest seat in such a split: the first
		// found, counting down, so that the choice depends only on the
		// balances.
		low := mask & -mask
		group := 0
		for sub := mask; sub > 0; sub = (sub - 1) & mask {
			if sub&low != 0 && zero[sub] && most[mask^sub] == most[mask]-1 {
				group = sub
				break
			}
		}
		var seatsOf []int
		for i := range n {
			if group&(1<<i) != 0 {
				seatsOf = append(seatsOf, seats[i])
			}
		}
		out = append(out, settleGroup(players, balances, seatsOf)...)
		mask ^= group
	}
	return out
}

// zeroSums says for every subset of seats (a bit per seat) whether its
// balances sum to zero; nil when there are more than exactLimit seats.
// The sums are int64s of the balances written as whole numbers of their
// smallest place; balances too long for that are summed as decimals, for
// up to decimalLimit seats (nil above).
func zeroSums(balances []decimal.Decimal, seats []int) []bool {
	n := len(seats)
	if n > exactLimit {
		return nil
	}
	zero := make([]bool, 1<<n)
	if whole := asWhole(balances, seats); whole != nil {
		sum := make([]int64, 1<<n)
		for mask := 1; mask < 1<<n; mask++ {
			sum[mask] = sum[mask&(mask-1)] + whole[bits.TrailingZeros(uint(mask))]
			zero[mask] = sum[mask] == 0
		}
		return zero
	}
	if n > decimalLimit {
		return nil
	}
	sum := make([]decimal.Decimal, 1<<n)
	for mask := 1; mask < 1<<n; mask++ {
		sum[mask] = sum[mask&(mask-1)].Add(balances[seats[bits.TrailingZeros(uint(mask))]])
		zero[mask] = sum[mask].IsZero()
	}
	return zero
}

// decimalLimit bounds the exact search over decimal sums (balances with
// more places than an int64 holds, which money never has).
const decimalLimit = 12

// asWhole writes the seats' balances as whole numbers of the smallest place
// among them, nil when one of them, or a sum of n of them, might not fit an
// int64.
func asWhole(balances []decimal.Decimal, seats []int) []int64 {
	exp := int32(0)
	for _, s := range seats {
		exp = min(exp, balances[s].Exponent())
	}
	bound := big.NewInt(math.MaxInt64 / int64(len(seats)))
	whole := make([]int64, len(seats))
	for i, s := range seats {
		v := balances[s].Shift(-exp).BigInt() // exact: exp is the smallest place
		if v.CmpAbs(bound) > 0 {
			return nil
		}
		whole[i] = v.Int64()
	}
	return whole
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
	// Transfers settle Balances: Paid (the payments made on an earlier
	// close of a reopened evening, at its head) and what they leave.
	Transfers []Transfer
	Paid      []Transfer
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
		return Settlement{Balances: s.Balances(), Pot: s.pot, Split: c.Split, RemainderTo: c.RemainderTo, Transfers: c.All(), Paid: c.Paid}
	}
	out, err := s.closeWith(nil, true)
	if pe, ok := problem.As(err); ok && pe.Code == "split.remainder-needed" {
		// A cut is needed: the equal shares are known, the leftover units
		// are not anyone's yet.
		n := decimal.NewFromInt(int64(len(s.balances)))
		share := s.pot.Div(n).Floor()
		// What was paid already (a reopened evening's) depends on no cut.
		out = Settlement{Provisional: true, Pot: s.pot, Transfers: slices.Concat([]Transfer{}, s.Paid()), Paid: s.Paid(),
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
		return Settlement{Balances: s.Balances(), Pot: s.pot, Split: zeros(len(s.balances)), Transfers: s.settleAfter(s.balances, s.Paid()), Paid: s.Paid()}
	}
	return out
}

// SettlementWith gives what closing the open game now with this cut would
// give: the same closeWith Close uses, so that a preview of the cut as
// chosen is what the close then fixes. A cut the rules refuse is the
// refusal Close would give.
func (s *State) SettlementWith(remainderTo []string) (Settlement, error) {
	if s.Closed != nil {
		return s.Settlement(), nil
	}
	return s.closeWith(remainderTo, true)
}

// closeWith shares out the pot, with the cut as recorded, and settles the
// balances that gives, less what was paid on an earlier close (unless
// carry is false: a close from before payments were carried).
func (s *State) closeWith(remainderTo []string, carry bool) (Settlement, error) {
	split, err := payout.SplitPot(s.Setup, s.balances, s.pot, remainderTo)
	if err != nil {
		return Settlement{}, err
	}
	out := Settlement{Split: split.Shares, RemainderTo: split.RemainderTo, Pot: s.pot, Balances: make([]decimal.Decimal, len(s.balances))}
	for seat, b := range s.balances {
		out.Balances[seat] = b.Add(split.Shares[seat])
		out.Pot = out.Pot.Sub(split.Shares[seat])
	}
	if carry {
		out.Paid = s.Paid()
	}
	out.Transfers = s.settleAfter(out.Balances, out.Paid)
	return out, nil
}

// settleAfter is paid, then the fewest transfers that settle what the
// balances leave once it is.
func (s *State) settleAfter(balances []decimal.Decimal, paid []Transfer) []Transfer {
	left := slices.Clone(balances)
	for _, p := range paid {
		from, to := s.Setup.IndexOf(p.From), s.Setup.IndexOf(p.To)
		left[from], left[to] = left[from].Add(p.Amount), left[to].Sub(p.Amount)
	}
	if len(paid) == 0 {
		// Settle's own slice: "transfers": [] when nobody owes, as every
		// close has been written (Concat of nothing is nil, written null,
		// which the closes stored before would no longer match).
		return Settle(s.Setup.Players, left)
	}
	return slices.Concat(paid, Settle(s.Setup.Players, left))
}

func zeros(n int) []decimal.Decimal {
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = decimal.Zero
	}
	return out
}

// checkTransfers says whether transfers settle balances exactly: each names
// two different players and an amount above zero, and paying them all
// leaves every balance at zero. A close is checked when it is decided and
// again when it is read, so that who pays whom can never disagree with the
// standings, whatever wrote the event.
func checkTransfers(players []string, balances []decimal.Decimal, ts []Transfer) error {
	left := slices.Clone(balances)
	seat := func(name string) int { return slices.Index(players, name) }
	for _, t := range ts {
		from, to := seat(t.From), seat(t.To)
		switch {
		case from < 0 || to < 0:
			return fmt.Errorf("the payment from %q to %q names someone who is not a player", t.From, t.To)
		case from == to:
			return fmt.Errorf("%q pays %q: a payment from a player to themselves", t.From, t.To)
		case !t.Amount.IsPositive():
			return fmt.Errorf("%q pays %q %s: a payment must be above zero", t.From, t.To, t.Amount)
		}
		left[from] = left[from].Add(t.Amount)
		left[to] = left[to].Sub(t.Amount)
	}
	for i, b := range left {
		if !b.IsZero() {
			return fmt.Errorf("after the payments %s is left at %s, not 0: they do not settle the balances", players[i], b)
		}
	}
	return nil
}
