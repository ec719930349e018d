package tapp

import (
	"unsafe"

	"github.com/shopspring/decimal"
)

// maxSeats is the most players any variant seats.
const maxSeats = 4

// amounts are what one deal moves, in units: each seat's amount and the
// pot's. A game holds one per deal and revision, so they are kept as whole
// numbers in int32 — what nearly every deal moves, and small enough that a
// deal with its first revision fits an allocation of 224 bytes, not 256 —
// and as decimals only when one of them is not whole or does not fit (a
// fraction of a unit, or old-tapp's pot, which a lost solo doubles without
// bound). Immutable.
type amounts struct {
	exact *[]decimal.Decimal  // by seat, then the pot's; nil when whole holds them
	whole [maxSeats + 1]int32 // by seat, then the pot's at maxSeats; when exact is nil
	seats int8
}

// fitsWhole is the most digits a whole amount may have to be kept in int64:
// any two such amounts add up without overflow.
const fitsWhole = 17

// whole64 gives d as an int64 when it is a whole number of at most
// fitsWhole digits.
func whole64(d decimal.Decimal) (int64, bool) {
	if d.Exponent() != 0 || d.NumDigits() > fitsWhole {
		return 0, false
	}
	return d.CoefficientInt64(), true
}

// whole32 gives d as an int32 when it is a whole number that fits.
func whole32(d decimal.Decimal) (int32, bool) {
	n, ok := whole64(d)
	if !ok || n != int64(int32(n)) {
		return 0, false
	}
	return int32(n), true
}

// newAmounts keeps a deal's amounts: deltas by seat, and the pot's.
func newAmounts(deltas []decimal.Decimal, pot decimal.Decimal) amounts {
	a := amounts{seats: int8(len(deltas))}
	ok := len(deltas) <= maxSeats
	for seat, d := range deltas {
		if !ok {
			break
		}
		a.whole[seat], ok = whole32(d)
	}
	if ok {
		a.whole[maxSeats], ok = whole32(pot)
	}
	if !ok {
		exact := make([]decimal.Decimal, len(deltas)+1)
		copy(exact, deltas)
		exact[len(deltas)] = pot
		a.whole, a.exact = [maxSeats + 1]int32{}, &exact
	}
	return a
}

// delta is seat's amount.
func (a *amounts) delta(seat int) decimal.Decimal {
	if a.exact != nil {
		return (*a.exact)[seat]
	}
	return wholeUnits(int64(a.whole[seat]))
}

// pot is the pot's amount.
func (a *amounts) pot() decimal.Decimal {
	if a.exact != nil {
		return (*a.exact)[a.seats]
	}
	return wholeUnits(int64(a.whole[maxSeats]))
}

// deltas are the amounts by seat (a new slice).
func (a *amounts) deltas() []decimal.Decimal {
	out := make([]decimal.Decimal, a.seats)
	for seat := range out {
		out[seat] = a.delta(seat)
	}
	return out
}

// equal reports whether a deal scored as r moves the same amounts.
func (a *amounts) equal(deltas []decimal.Decimal, pot decimal.Decimal) bool {
	if len(deltas) != int(a.seats) || !a.pot().Equal(pot) {
		return false
	}
	for seat, d := range deltas {
		if !a.delta(seat).Equal(d) {
			return false
		}
	}
	return true
}

// total is a running sum of units, such as the pot as the deals carry it:
// in an int64 while it fits, a decimal once it does not. Summing an
// evening's deals this way makes no decimal per deal.
type total struct {
	n     int64
	exact *decimal.Decimal // nil while n holds the sum
}

func totalOf(d decimal.Decimal) total {
	if n, ok := whole64(d); ok {
		return total{n: n}
	}
	return total{exact: &d}
}

func (t total) decimal() decimal.Decimal {
	if t.exact != nil {
		return *t.exact
	}
	return wholeUnits(t.n)
}

// plusPot is t and the pot's amount of a.
func (t total) plusPot(a *amounts) total {
	if t.exact == nil && a.exact == nil {
		x := int64(a.whole[maxSeats])
		if s := t.n + x; (x >= 0) == (s >= t.n) { // no overflow
			return total{n: s}
		}
	}
	return t.plus(a.pot())
}

// plus is t + d.
func (t total) plus(d decimal.Decimal) total {
	if t.exact == nil {
		if x, ok := whole64(d); ok {
			if s := t.n + x; (x >= 0) == (s >= t.n) {
				return total{n: s}
			}
		}
	}
	return totalOf(t.decimal().Add(d))
}

func (t total) equal(u total) bool {
	if t.exact == nil && u.exact == nil {
		return t.n == u.n
	}
	return t.decimal().Equal(u.decimal())
}

// WholeMoves puts in dst (one per seat) what the deal moves in the
// standings as it stands (Moves), and gives the pot's, as whole numbers of
// units: what a page that adds up hundreds of deals sums without making a
// decimal for each. False when an amount is not a whole number that fits
// in int64; then Moves gives them.
func (h *Hand) WholeMoves(dst []int64) (pot int64, ok bool) {
	a := h.counts()
	if a == nil {
		clear(dst)
		return 0, true
	}
	if a.exact != nil || len(dst) != int(a.seats) {
		return 0, false
	}
	for seat := range dst {
		dst[seat] = int64(a.whole[seat])
	}
	return int64(a.whole[maxSeats]), true
}

// Bytes is about how much memory the state's deals hold: each deal, its
// revisions and the stored bytes they read their record and explanation
// from. What a server's games in memory are weighed by (game.MemoryBudget),
// so that the budget is one of memory, whatever the deals' sizes.
func (s *State) Bytes() int { return s.bytes }

// bytes is what one deal holds: itself, the pointer to it, its revisions
// with their stored bytes and reasons, and amounts kept apart.
func (h *Hand) bytes() int {
	n := int(unsafe.Sizeof(*h)) + int(unsafe.Sizeof(h)) + len(h.VoidReason)
	for i := range h.Revisions {
		r := &h.Revisions[i]
		n += int(unsafe.Sizeof(*r)) + len(r.result.raw) + len(r.Reason) + r.result.amounts.extra()
	}
	if h.kept != nil {
		n += int(unsafe.Sizeof(*h.kept)) + h.kept.extra()
	}
	return n
}

// extra is what amounts hold beyond themselves: the decimals of amounts
// that are not whole.
func (a *amounts) extra() int {
	if a.exact == nil {
		return 0
	}
	return len(*a.exact) * 48 // a decimal and the big.Int it points to
}
