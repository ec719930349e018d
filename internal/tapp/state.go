// Package tapp is the game of one evening as events in, events out: the
// event types and their one decoder (event.go), the fold of events into an
// immutable State (state.go, evolve.go), the decisions that turn a command
// into new events or a refusal (decide.go), the end of a Württemberg evening
// (end.go), and the settlement (settle.go). It is pure: no I/O, no clock,
// no randomness; the scoring rules come from internal/payout.
package tapp

import (
	"encoding/json"
	"slices"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/payee"
	"tappbook/internal/payout"
)

// State is one evening as its events tell it. It is an immutable snapshot:
// Evolve never changes a State, it gives a new one that shares what did not
// change, so a reader may keep and read a State while commands go on.
// Nothing reachable from a State may be written to.
type State struct {
	ID        string
	ReadID    string // the key of the read-only link
	Group     string // the group the evening belongs to, if any
	Setup     payout.Setup
	Unit      decimal.Decimal
	UnitText  string // the unit as given, for its decimal places
	Currency  string
	StartedAt time.Time
	Version   int64  // the stream version folded so far
	Head      string // the hash of the last event folded

	Closed *Closing
	// Reopened: the evening was closed and is open again, until it closes
	// again; a group's tab then leaves its money out but keeps what was
	// paid on it, which the pages must say.
	Reopened bool
	Pending  *Pending // a deal being recorded step by step, if any
	HerzAs   *HerzAsState
	// Damaged: the stored history cannot be trusted past Version (a hash
	// that does not chain, a changed or missing event). The game is read
	// as far as it holds and never written to.
	Damaged *Damage

	hands handList
	// retracted: deals taken back (undone), oldest first, each with its
	// history ending in the retraction: the History still shows them.
	retracted []*Hand
	// bytes is what the deals and the retracted ones hold (Bytes), kept
	// as deals come, change and go: a walk over them on every deal made
	// recording a long evening's deals quadratic.
	bytes int
	// edited is the version of the last event that changed or took back
	// a deal already recorded (0: none): what was read of the deals at an
	// earlier version still holds of its deals while edited is no later.
	edited   int64
	balances []decimal.Decimal // by seat, in units; with pot they sum to zero
	pot      decimal.Decimal

	payees map[string]payee.Details // how each player is paid (pay.go); replaced, never written to
	// payments is the money paid on the closes' transfers, in the order
	// marked: kept through a reopen, and paid already when the evening is
	// closed again.
	payments []payment
}

// HerzAsState is the end of a Württemberg evening as far as it has come.
type HerzAsState struct {
	AfterHand  int   // announced after this deal
	InTapp     []int // deals in which ♥A lay in the tapp, the question passing on
	Holder     int   // the seat dealt ♥A; -1 until known
	HolderHand int   // the deal it was dealt in
}

// Pending is a deal announced but not yet counted.
type Pending struct {
	Hand   int
	Record payout.Record // as far as it is known: no points, tricks or Ramsch yet
	Steps  []PendingStep
}

// PendingStep is one step of a deal being recorded: what it was known as
// after the step.
type PendingStep struct {
	Kind   string // the event type
	At     time.Time
	Record payout.Record
}

// Hand is one deal with its history. A game holds many, so a deal keeps
// its amounts and the bytes of its events (stored.go), and decodes its
// record and explanation only when they are asked for.
type Hand struct {
	Number     int
	Dealer     int // seat
	Voided     bool
	VoidReason string
	Revisions  []Revision // oldest first: recorded, then corrections, voids and re-scorings
	// record and result are the revisions whose record and result count
	// now: the last recording or correction, and the last of those or of
	// the re-scorings.
	record, result int32
	// potMatters: the deal's result may change with the pot before it
	// (payout.Descriptor.PotMatters), as its record now stands.
	potMatters bool
	// kept: what a voided deal still moves (old-tapp: the dealer's stake
	// that stays in the pot); nil when it moves nothing.
	kept *amounts
}

// Entered is how many times the deal's record has been entered: 1 when
// recorded, one more per correction (api.md's "revisions").
func (h *Hand) Entered() int {
	return h.count(TypeHandRecorded, TypeHandCorrect)
}

// Changes is how many times the deal was entered or voided: what a
// correction begun earlier checks, so that it undoes neither another
// phone's correction nor its void.
func (h *Hand) Changes() int {
	return h.count(TypeHandRecorded, TypeHandCorrect, TypeHandVoided)
}

func (h *Hand) count(kinds ...string) int {
	n := 0
	for i := range h.Revisions {
		if slices.Contains(kinds, h.Revisions[i].Kind) {
			n++
		}
	}
	return n
}

// Record is the deal as entered, as it now counts (decoded afresh).
func (h *Hand) Record() payout.Record { return h.Revisions[h.record].result.raw.record() }

// Result is what the deal moves now, and why.
func (h *Hand) Result() *Result { return &h.Revisions[h.result].result }

// Moves is what the deal moves in the standings as it stands, by seat and
// for the pot: its result's, or nothing once voided (what it moved before
// stays in its revisions). The deals' moves add up to the balances.
func (h *Hand) Moves() (deltas []decimal.Decimal, pot decimal.Decimal) {
	res := h.Result()
	if h.Voided && h.kept != nil {
		return h.kept.deltas(), h.kept.pot()
	}
	if h.Voided {
		return make([]decimal.Decimal, len(res.Deltas())), decimal.Zero
	}
	return res.Deltas(), res.PotDelta()
}

// counts is what the deal moves in the standings as it stands: its
// result's, what a void kept, or nil.
func (h *Hand) counts() *amounts {
	if h.Voided {
		return h.kept
	}
	return &h.Result().amounts
}

// Result is what a deal moves, by seat, in units, and why: its amounts,
// and the stored event it was scored in, which holds the explanation.
type Result struct {
	amounts
	raw stored
}

// Delta is what seat's balance moves, in units.
func (r *Result) Delta(seat int) decimal.Decimal { return r.delta(seat) }

// Deltas are what the deal moves by seat, in units (a new slice).
func (r *Result) Deltas() []decimal.Decimal { return r.deltas() }

// PotDelta is what the pot moves, in units.
func (r *Result) PotDelta() decimal.Decimal { return r.pot() }

// Text is the English explanation.
func (r *Result) Text() string { return r.raw.text() }

// Ruleset is the version of the rules the deal was scored by.
func (r *Result) Ruleset() string { return r.raw.ruleset() }

// Explanation decodes why the result is what it is.
func (r *Result) Explanation() payout.Explanation { return decodeExplanation(r.raw.explanation()) }

// ExplanationJSON is the explanation as stored, for clients that read it
// as JSON. The bytes are the game's: read them, never write.
func (r *Result) ExplanationJSON() json.RawMessage { return r.raw.explanation() }

// Explain decodes why a stored result is what it is.
func (s Scored) Explain() payout.Explanation { return decodeExplanation(s.Explanation) }

func decodeExplanation(raw json.RawMessage) payout.Explanation {
	var e payout.Explanation
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &e) // a stored explanation always decodes; an empty one explains nothing
	}
	return e
}

// Revision is one event in a deal's history.
type Revision struct {
	Kind    string // the event type
	Version int64  // the event's in the game's history: which came first
	At      time.Time
	Reason  string
	Cause   int // for a re-scoring: the deal whose change caused it
	result  Result
	scored  bool // the event scored the deal: all but a void
}

// Record is the deal as this event entered it; nil for a void or a
// re-scoring, which enter none (decoded afresh).
func (r *Revision) Record() *payout.Record {
	if r.Kind != TypeHandRecorded && r.Kind != TypeHandCorrect {
		return nil
	}
	rec := r.result.raw.record()
	return &rec
}

// Result is what this event scored the deal as; nil for a void or a
// retraction.
func (r *Revision) Result() *Result {
	if !r.scored {
		return nil
	}
	return &r.result
}

// Damage is what is wrong with a stored history, from the first event at
// fault on.
type Damage struct {
	Version int64  // the event at fault
	Seq     int64  // its place in the whole store
	Why     string // what is wrong, in a sentence
}

// Closing is the end of the evening.
type Closing struct {
	At          time.Time
	Version     int64  // the close's event: what a receipt counts to
	Head        string // its hash
	RemainderTo []string
	Split       []decimal.Decimal // by seat
	// Paid is the payments made before this close (on an earlier close of
	// a reopened evening); Transfers settle what they leave.
	Paid      []Transfer
	Transfers []Transfer
}

// All is who pays whom as the close lists it: the payments made before
// it, then its own transfers. A transfer's index is its place here.
func (c *Closing) All() []Transfer { return slices.Concat(c.Paid, c.Transfers) }

// New is the state of a game before its first event.
func New(id string) *State { return &State{ID: id} }

// Started reports whether the game has its first event.
func (s *State) Started() bool { return s.Version > 0 }

// Variant describes the game's variant: its contracts, house rules and
// what its evening asks.
func (s *State) Variant() *payout.Descriptor { return payout.Describe(s.Setup.Variant) }

// Edited is the version of the last event that changed a deal already
// recorded or took one back; 0 when none has. The deals of the State at
// version v, v >= Edited, are the first deals of this one, unchanged: a
// reader may add up only those recorded since.
func (s *State) Edited() int64 { return s.edited }

// Hands gives the deals in order. The slice and the deals are the
// snapshot's: read them, never write.
func (s *State) Hands() []*Hand { return s.hands.items[:len(s.hands.items):len(s.hands.items)] }

// Hand returns deal n, or nil.
func (s *State) Hand(n int) *Hand {
	if n < 1 || n > len(s.hands.items) {
		return nil
	}
	return s.hands.items[n-1]
}

// Retracted gives the deals taken back (undone), oldest first, each with
// its history ending in the retraction. Read them, never write.
func (s *State) Retracted() []*Hand { return s.retracted[:len(s.retracted):len(s.retracted)] }

// Balances gives each seat's balance in units (a copy).
func (s *State) Balances() []decimal.Decimal { return append([]decimal.Decimal(nil), s.balances...) }

// Balance is one seat's balance in units.
func (s *State) Balance(seat int) decimal.Decimal { return s.balances[seat] }

// Pot is what the pot holds, in units.
func (s *State) Pot() decimal.Decimal { return s.pot }

// DealerOf is the seat that deals hand n (1-based): the first player deals
// first, and the deal moves one seat on after every deal, passed in and
// voided ones included.
func (s *State) DealerOf(n int) int { return (n - 1) % len(s.Setup.Players) }

// NextHand is the number the next deal gets.
func (s *State) NextHand() int { return len(s.hands.items) + 1 }

// NextDealer is the seat that deals next.
func (s *State) NextDealer() int { return s.DealerOf(s.NextHand()) }

// PotBefore is the pot as it stood before deal n: the results of the
// counted deals before it.
func (s *State) PotBefore(n int) decimal.Decimal {
	var pot total
	for _, h := range s.hands.items[:n-1] {
		if a := h.counts(); a != nil {
			pot = pot.plusPot(a)
		}
	}
	return pot.decimal()
}

// PotsAfter gives the pot after each deal as the deals stand now (a voided
// deal leaves it as it was, but for a stake it kept), for pages that list
// the deals.
func (s *State) PotsAfter() []decimal.Decimal {
	out := make([]decimal.Decimal, len(s.hands.items))
	var pot total
	for i, h := range s.hands.items {
		if a := h.counts(); a != nil {
			pot = pot.plusPot(a)
		}
		out[i] = pot.decimal()
	}
	return out
}

// Counted is the number of deals that count (not voided).
func (s *State) Counted() int {
	n := 0
	for _, h := range s.hands.items {
		if !h.Voided {
			n++
		}
	}
	return n
}

// handList is the deals of a state. Snapshots share its array: a new state
// appends into the spare capacity after the deals of the state it came from,
// which no older state can see. front, shared by the lists of one array,
// is how far the array is taken; a state claims the next slot by moving
// front on (compare and swap), and one that cannot, not being the
// furthest, copies before it appends, so two successors of one state never
// write the same slot, even when evolved at the same time.
type handList struct {
	items []*Hand
	front *atomic.Int64
}

func (l handList) appended(h *Hand) handList {
	items, front := l.items, l.front
	n := int64(len(items))
	if front == nil || len(items) == cap(items) || !front.CompareAndSwap(n, n+1) {
		grown := make([]*Hand, len(items), 2*len(items)+8)
		copy(grown, items)
		items, front = grown, newFront(n+1)
	}
	return handList{items: append(items, h), front: front}
}

func newFront(n int64) *atomic.Int64 {
	f := new(atomic.Int64)
	f.Store(n)
	return f
}

// replaced gives the list with deal n (1-based) replaced; the array is
// copied, as older states still read the old deal.
func (l handList) replaced(n int, h *Hand) handList {
	items := make([]*Hand, len(l.items), cap(l.items))
	copy(items, l.items)
	items[n-1] = h
	return handList{items: items, front: newFront(int64(len(items)))}
}
