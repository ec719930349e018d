// Package payout holds the scoring rules of the four Tapp variants, as
// docs/rules.md states them: given a game's setup, the table state
// and one deal as recorded at the table, it says what every player and the
// pot win or lose, in units, and why. It is pure: no I/O, no clock, no
// package-level mutable state.
package payout

import (
	"fmt"
	"reflect"

	"github.com/shopspring/decimal"
)

// Variant names one of the four games; the ids are the ones rules.md and
// api.md use.
type Variant string

const (
	Zuger        Variant = "zuger"
	OldTapp      Variant = "old-tapp"
	Matzlfangen  Variant = "matzlfangen"
	Wuerttemberg Variant = "wuerttemberg"
)

// RulesetVersion identifies the scoring code. It is stored with every scored
// deal so that history keeps the numbers it had when it was recorded.
const RulesetVersion = "2026-11-23.1"

// Setup is what a game is started with.
type Setup struct {
	Variant Variant
	Players []string // seat order, the order in which the deal passes
	Rules   Rules
}

// Table is the state of the table a deal needs that is not in its record.
type Table struct {
	Dealer int             // seat of the dealer of this deal
	Pot    decimal.Decimal // old-tapp: the pot before this deal's stake
}

// Forehand is the seat after the dealer.
func (t Table) Forehand(players int) int { return (t.Dealer + 1) % players }

// Record is one deal as entered at the table; the JSON names are api.md's.
// Pointers tell "not given" from zero.
type Record struct {
	Contract string `json:"contract"`
	Declarer string `json:"declarer,omitempty"`
	Partner  string `json:"partner,omitempty"`
	Trump    string `json:"trump,omitempty"`
	Points   *int   `json:"points,omitempty"`
	Tricks   *int   `json:"tricks,omitempty"`
	// Won says the outcome of a contract tricks alone decide (bettel: no
	// trick; rufer, durch, tout: every trick) instead of the count.
	Won    *bool                  `json:"won,omitempty"`
	Tout   *bool                  `json:"tout,omitempty"`
	Kontra *int                   `json:"kontra,omitempty"`
	Matzl  string                 `json:"matzl,omitempty"`
	Ramsch map[string]RamschScore `json:"ramsch,omitempty"`
}

// Same reports whether o is the deal r entered again: equal, where a tout
// of false, a kontra of 0 and no Ramsch scores are the same as none given.
func (r Record) Same(o Record) bool {
	return reflect.DeepEqual(r.plain(), o.plain())
}

// plain is r with its defaults given as none.
func (r Record) plain() Record {
	if r.Tout != nil && !*r.Tout {
		r.Tout = nil
	}
	if r.Kontra != nil && *r.Kontra == 0 {
		r.Kontra = nil
	}
	if len(r.Ramsch) == 0 {
		r.Ramsch = nil
	}
	return r
}

// RamschScore is one player's take in a Württemberg Ramsch.
type RamschScore struct {
	Points *int `json:"points"`
	Tricks *int `json:"tricks"`
}

// Result is what a deal changes: each seat's balance and the pot, in units.
type Result struct {
	Deltas      []decimal.Decimal // by seat
	PotDelta    decimal.Decimal
	Explanation Explanation
}

// Score validates a deal and scores it. Every error it returns is an
// *problem.Error naming the field, except a broken zero-sum invariant, which is
// a bug and is reported as such rather than recorded.
func Score(s Setup, t Table, r Record) (Result, error) {
	return score(s, t, r, false, false)
}

// ScoreNew is Score for a record about to be stored (recorded or a
// correction): it also makes the checks a record stored before them was
// not held to (see deal.stored), which Score, re-scoring what is stored,
// leaves out.
func ScoreNew(s Setup, t Table, r Record) (Result, error) {
	return score(s, t, r, false, true)
}

// CheckAnnouncement checks a deal as far as it is known before the cards are
// counted (contract, declarer, partner, trump, tout, kontra, matzl), for
// recording a deal step by step: every check Score makes on those fields,
// none that needs points, tricks or Ramsch scores. fresh: an announcement
// about to be stored, held to every check as ScoreNew holds a record.
func CheckAnnouncement(s Setup, t Table, r Record, fresh bool) error {
	_, err := score(s, t, r, true, fresh)
	return err
}

func score(s Setup, t Table, r Record, partial, fresh bool) (Result, error) {
	if err := s.Check(); err != nil {
		return Result{}, err
	}
	n := len(s.Players)
	if t.Dealer < 0 || t.Dealer >= n {
		return Result{}, fmt.Errorf("score deal: dealer seat %d is not at a table of %d", t.Dealer, n)
	}
	if !partial && (r.Won != nil || r.Tricks == nil) {
		// Tricks left out where they cannot change the money (api.md
		// "Recording a deal").
		return scoreUncounted(s, t, r, fresh)
	}
	return scoreOnce(s, t, r, partial, fresh)
}

func scoreOnce(s Setup, t Table, r Record, partial, fresh bool) (Result, error) {
	d := newDeal(s, t)
	d.partial, d.stored = partial, !fresh
	err := s.describe().score(d, r)
	if err != nil || partial {
		return Result{}, err
	}
	res := d.result()
	if err := checkZeroSum(res.Deltas, res.PotDelta); err != nil {
		return Result{}, fmt.Errorf("score %s deal: %w", s.Variant, err)
	}
	return res, nil
}

// checkZeroSum enforces the invariant every deal keeps: what the players win
// the others and the pot lose.
func checkZeroSum(deltas []decimal.Decimal, pot decimal.Decimal) error {
	if wholeZeroSum(deltas, pot) {
		return nil
	}
	sum := pot
	for _, d := range deltas {
		sum = sum.Add(d)
	}
	if !sum.IsZero() {
		return fmt.Errorf("payments sum to %s, not zero (a bug: nothing was recorded)", sum)
	}
	return nil
}

// wholeZeroSum says that deltas and pot sum to zero when each is a whole
// number of at most 17 digits, as a deal's amounts nearly always are:
// summed in int64, where decimal's Add allocates for every amount (every
// deal scored is checked). False leaves the check to decimal.
func wholeZeroSum(deltas []decimal.Decimal, pot decimal.Decimal) bool {
	whole := func(d decimal.Decimal) bool { return d.Exponent() == 0 && d.NumDigits() <= 17 }
	if !whole(pot) || len(deltas) > 63 { // 64 amounts under 10^17 cannot overflow
		return false
	}
	sum := pot.CoefficientInt64()
	for _, d := range deltas {
		if !whole(d) {
			return false
		}
		sum += d.CoefficientInt64()
	}
	return sum == 0
}

// deal accumulates one deal's payments and explanation while a variant's
// rules run; it keeps the zero-sum bookkeeping in one place.
type deal struct {
	setup  Setup
	table  Table
	deltas []decimal.Decimal
	pot    decimal.Decimal
	ex     Explanation
	// partial: only the announcement is known; the variant stops after its
	// checks, which do not ask for the counts.
	partial bool
	// stored: the record was stored already and is re-scored (after a
	// correction before it, or by verify). A check added later is not
	// made of it, so a history recorded before it still folds and scores.
	stored bool
}

func newDeal(s Setup, t Table) *deal {
	return &deal{setup: s, table: t, deltas: make([]decimal.Decimal, len(s.Players))}
}

func (d *deal) players() int { return len(d.setup.Players) }

// each moves v from every seat in payers to seat to.
func (d *deal) pay(from, to int, v decimal.Decimal) {
	d.deltas[from] = d.deltas[from].Sub(v)
	d.deltas[to] = d.deltas[to].Add(v)
}

// alone settles a declarer-against-the-rest contract: a winning declarer
// receives v from each opponent, a losing one pays each of them v.
func (d *deal) alone(declarer int, won bool, v decimal.Decimal) {
	for seat := range d.deltas {
		if seat == declarer {
			continue
		}
		if won {
			d.pay(seat, declarer, v)
		} else {
			d.pay(declarer, seat, v)
		}
	}
}

// intoPot moves v from a seat into the pot (a negative v takes from it).
func (d *deal) intoPot(seat int, v decimal.Decimal) {
	d.deltas[seat] = d.deltas[seat].Sub(v)
	d.pot = d.pot.Add(v)
}

func (d *deal) result() Result {
	return Result{Deltas: d.deltas, PotDelta: d.pot, Explanation: d.ex}
}

func units(n int) decimal.Decimal { return decimal.NewFromInt(int64(n)) }
