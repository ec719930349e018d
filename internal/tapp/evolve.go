package tapp

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// Evolve folds events, in version order, into the state s, giving the new
// state; s and everything it shares stay as they were.
func Evolve(s *State, evs ...Event) (*State, error) {
	f := Folder{s: s.clone()}
	for _, e := range evs {
		if err := f.Apply(e); err != nil {
			return nil, err
		}
	}
	return f.s, nil
}

// Fold builds a game from all its events.
func Fold(id string, evs []Event) (*State, error) {
	f := NewFolder(id)
	for _, e := range evs {
		if err := f.Apply(e); err != nil {
			return nil, err
		}
	}
	if !f.s.Started() {
		return nil, fmt.Errorf("fold game %s: no events", id)
	}
	return f.State(), nil
}

// Folder folds a game event by event, as a replay reads them, without
// making a snapshot of every step: what it builds is its own until State
// hands it out.
type Folder struct {
	s     *State
	chunk []byte // where the deals' kept bytes go (keep)
	// ownHands: s.hands' array is this folder's alone, so a deal may be
	// replaced in place rather than by copying the list.
	ownHands bool
}

// NewFolder starts the fold of game id.
func NewFolder(id string) *Folder {
	s := New(id)
	s.hands.front = newFront(0)
	return &Folder{s: s, ownHands: true}
}

// State gives the game as folded so far: a snapshot that later Apply calls
// leave as it is.
func (f *Folder) State() *State {
	out := f.s
	f.s = out.clone()
	f.ownHands = false
	return out
}

// clone is a copy of the state that may be changed without changing s: the
// balances are copied, the rest is replaced rather than written to.
func (s *State) clone() *State {
	c := *s
	c.balances = slices.Clone(s.balances)
	return &c
}

// Apply folds one more event. Events must come in version order; each is
// checked against the game as it stands (a deal numbered in turn, players
// who sit at the table, payments that sum to zero), so a history that does
// not add up is refused, never folded.
func (f *Folder) Apply(e Event) error {
	s := f.s
	if e.Version != s.Version+1 {
		return fmt.Errorf("game %s: event version %d after %d", s.ID, e.Version, s.Version)
	}
	if !s.Started() {
		if _, ok := e.Data.(GameStarted); !ok {
			return fmt.Errorf("game %s: the first event is %s, not %s", s.ID, e.Data.EventType(), TypeGameStarted)
		}
	}
	var err error
	switch p := e.Data.(type) {
	case GameStarted:
		err = f.started(p, e)
	case HandRecorded:
		err = f.recorded(p, e)
	case dealRead:
		err = f.recordedRead(p, e)
	case HandCorrected:
		err = f.corrected(p, e)
	case HandVoided:
		err = f.voided(p, e)
	case HandRescored:
		err = f.rescored(p, e)
	case HandRetracted:
		err = f.retracted(p, e)
	case DealAnnounced:
		rec := p.Record
		s.Pending = &Pending{Hand: p.Hand, Record: rec, Steps: []PendingStep{{Kind: TypeDealAnnounced, At: e.At, Record: rec}}}
	case DealKontra:
		err = f.step(e, func(r *payout.Record) { level := p.Level; r.Kontra = &level })
	case DealMatzl:
		err = f.step(e, func(r *payout.Record) { r.Matzl = p.Side })
	case HerzAs:
		if s.HerzAs != nil {
			err = fmt.Errorf("Herz-As announced twice")
		}
		s.HerzAs = &HerzAsState{AfterHand: p.AfterHand, Holder: -1}
	case HerzAsHolder:
		err = f.holder(p)
	case HerzAsWithdrawn:
		if s.HerzAs == nil {
			err = fmt.Errorf("Herz-As withdrawn but never announced")
		}
		s.HerzAs = nil
	case GameClosed:
		err = f.closed(p, e)
	case GameReopened:
		err = f.reopened()
	case PaySet, TransferPaid, TransferConfirmed, MarkWithdrawn:
		err = f.payFolded(p, e)
	default:
		err = fmt.Errorf("unknown event %T", e.Data)
	}
	if err != nil {
		return fmt.Errorf("game %s: apply event %d (%s): %w", s.ID, e.Version, e.Data.EventType(), err)
	}
	s.Version, s.Head = e.Version, e.Hash
	return nil
}

func (f *Folder) started(p GameStarted, e Event) error {
	s := f.s
	if s.Started() {
		return fmt.Errorf("the game has started already")
	}
	rules, err := payout.DecodeStoredRules(p.Variant, p.Rules)
	if err != nil {
		return err
	}
	s.Setup = payout.Setup{Variant: p.Variant, Players: p.Players, Rules: rules}
	if err := s.Setup.Check(); err != nil {
		return err
	}
	if s.Unit, err = decimal.NewFromString(p.Unit); err != nil {
		return fmt.Errorf("unit %q: %w", p.Unit, err)
	}
	s.UnitText, s.Currency, s.StartedAt, s.ReadID, s.Group = p.Unit, p.Currency, e.At, p.ReadID, p.Group
	s.balances = make([]decimal.Decimal, len(p.Players))
	for i := range s.balances {
		s.balances[i] = decimal.Zero
	}
	s.pot = decimal.Zero
	return nil
}

// result turns a stored result, keyed by name, into one by seat, checking
// that it names only players and that its payments sum to zero. raw is the
// event's payload as stored, kept for the explanation.
func (s *State) result(sc Scored, raw stored) (Result, error) {
	var bySeat [maxSeats]decimal.Decimal // no allocation for a table of four or fewer
	deltas := bySeat[:0]
	if len(s.Setup.Players) > maxSeats {
		deltas = make([]decimal.Decimal, 0, len(s.Setup.Players))
	}
	deltas = deltas[:len(s.Setup.Players)]
	for i := range deltas {
		deltas[i] = decimal.Zero
	}
	for name, d := range sc.Deltas {
		seat := s.Setup.IndexOf(name)
		if seat < 0 {
			return Result{}, fmt.Errorf("%q is not a player", name)
		}
		deltas[seat] = d
	}
	return s.seated(deltas, sc.PotDelta, raw)
}

// seated is a result from its amounts by seat, checking that its payments
// sum to zero.
func (s *State) seated(deltas []decimal.Decimal, potDelta decimal.Decimal, raw stored) (Result, error) {
	sum := potDelta
	for _, d := range deltas {
		sum = addUnits(sum, d)
	}
	if !sum.IsZero() {
		return Result{}, fmt.Errorf("the payments sum to %s, not zero", sum)
	}
	return Result{amounts: newAmounts(deltas, potDelta), raw: raw}, nil
}

// potMatters says whether a deal as recorded may score differently at
// another pot.
func (s *State) potMatters(rec payout.Record) bool { return s.Variant().PotMatters(rec.Contract) }

func (f *Folder) recorded(p HandRecorded, e Event) error {
	s := f.s
	dealer, err := s.turn(p.Hand, p.Dealer)
	if err != nil {
		return err
	}
	b, err := f.raw(e)
	if err != nil {
		return err
	}
	res, err := s.result(p.Scored, b)
	if err != nil {
		return fmt.Errorf("hand %d: %w", p.Hand, err)
	}
	f.deal(p.Hand, dealer, p.Record.Contract, res, e)
	return nil
}

// recordedRead folds a recorded deal as DecodeForFold read it, as recorded
// folds the whole payload.
func (f *Folder) recordedRead(d dealRead, e Event) error {
	s := f.s
	dealer, err := s.turn(d.hand, d.dealer)
	if err != nil {
		return err
	}
	if e.Raw == nil {
		return fmt.Errorf("hand %d: a deal read for the fold comes without its stored bytes", d.hand)
	}
	var ms [keptCount]member
	kept := members(e.Raw, d.kept[:d.nKept], &ms)
	res, err := s.seated(d.deltas[:len(s.Setup.Players)], d.potDelta, f.keepMembers(e.Raw, kept, membersSize(kept), true))
	if err != nil {
		return fmt.Errorf("hand %d: %w", d.hand, err)
	}
	f.deal(d.hand, dealer, d.contract, res, e)
	return nil
}

// turn checks that deal hand comes next, dealt by dealer, whose seat it
// gives.
func (s *State) turn(hand int, dealer string) (int, error) {
	if hand != s.NextHand() {
		return 0, fmt.Errorf("hand %d recorded after %d hands", hand, s.NextHand()-1)
	}
	seat := s.Setup.IndexOf(dealer)
	if seat != s.DealerOf(hand) {
		return 0, fmt.Errorf("hand %d is dealt by %s, not %q", hand, s.Setup.Players[s.DealerOf(hand)], dealer)
	}
	return seat, nil
}

// deal adds a recorded deal to the game.
func (f *Folder) deal(hand, dealer int, contract string, res Result, e Event) {
	s := f.s
	// A deal and its first revision in one allocation: a long history is
	// mostly these.
	a := &struct {
		hand  Hand
		first [1]Revision
	}{}
	a.first[0] = Revision{Kind: TypeHandRecorded, Version: e.Version, At: e.At, result: res, scored: true}
	a.hand = Hand{Number: hand, Dealer: dealer, Revisions: a.first[:1:1], // a later revision is appended to a copy
		potMatters: s.Variant().PotMatters(contract)}
	s.hands = s.hands.appended(&a.hand)
	s.bytes += a.hand.bytes()
	s.Pending = nil // a deal recorded ends any deal being recorded step by step
	s.count(&res.amounts, 1)
}

// replace puts a new version of deal n in place: in the folder's own list,
// or in a copy of a list a snapshot shares.
func (f *Folder) replace(n int, h *Hand) {
	f.s.edited = h.Revisions[len(h.Revisions)-1].Version
	f.s.bytes += h.bytes() - f.s.hands.items[n-1].bytes()
	if !f.ownHands {
		f.s.hands = f.s.hands.replaced(n, h)
		f.ownHands = true
		return
	}
	f.s.hands.items[n-1] = h
}

// edit gives a copy of deal n to change, with its history extended by rev.
func (s *State) edit(n int, rev Revision) (*Hand, error) {
	old := s.Hand(n)
	if old == nil {
		return nil, fmt.Errorf("there is no hand %d", n)
	}
	h := *old
	h.Revisions = append(slices.Clip(old.Revisions), rev)
	return &h, nil
}

// latest is the index of a hand's newest revision.
func (h *Hand) latest() int32 { return int32(len(h.Revisions) - 1) }

func (f *Folder) corrected(p HandCorrected, e Event) error {
	s := f.s
	b, err := f.raw(e)
	if err != nil {
		return err
	}
	res, err := s.result(p.Scored, b)
	if err != nil {
		return fmt.Errorf("hand %d: %w", p.Hand, err)
	}
	h, err := s.edit(p.Hand, Revision{Kind: TypeHandCorrect, Version: e.Version, At: e.At, Reason: p.Reason, result: res, scored: true})
	if err != nil {
		return err
	}
	if a := h.counts(); a != nil {
		s.count(a, -1)
	}
	h.Voided, h.VoidReason, h.kept = false, "", nil
	h.record, h.result, h.potMatters = h.latest(), h.latest(), s.potMatters(p.Record)
	s.count(&res.amounts, 1)
	f.replace(p.Hand, h)
	return nil
}

func (f *Folder) voided(p HandVoided, e Event) error {
	s := f.s
	h, err := s.edit(p.Hand, Revision{Kind: TypeHandVoided, Version: e.Version, At: e.At, Reason: p.Reason})
	if err != nil {
		return err
	}
	if h.Voided {
		return fmt.Errorf("hand %d is already voided", p.Hand)
	}
	s.count(&h.Result().amounts, -1)
	h.Voided, h.VoidReason = true, p.Reason
	if p.StakeKept != nil {
		// The dealer's stake stays in the pot (old-tapp's misdeal).
		deltas := make([]decimal.Decimal, len(s.Setup.Players))
		for i := range deltas {
			deltas[i] = decimal.Zero
		}
		deltas[h.Dealer] = p.StakeKept.Neg()
		kept := newAmounts(deltas, *p.StakeKept)
		h.kept = &kept
		s.count(h.kept, 1)
	}
	f.replace(p.Hand, h)
	return nil
}

// retracted takes the last deal back out of the list, as if never
// recorded, keeping it with its history among the retracted.
func (f *Folder) retracted(p HandRetracted, e Event) error {
	s := f.s
	last := len(s.hands.items)
	if p.Hand != last {
		return fmt.Errorf("hand %d retracted, but the last hand is %d", p.Hand, last)
	}
	h, err := s.edit(p.Hand, Revision{Kind: TypeHandRetracted, Version: e.Version, At: e.At, Reason: p.Reason})
	if err != nil {
		return err
	}
	if a := h.counts(); a != nil {
		s.count(a, -1)
	}
	// A list whose spare room is clipped: the next deal is appended to a
	// copy, never over the slot older snapshots still read.
	s.bytes += h.bytes() - s.hands.items[last-1].bytes()
	s.hands = handList{items: s.hands.items[: last-1 : last-1]}
	s.edited = e.Version
	f.ownHands = false
	s.retracted = append(slices.Clip(s.retracted), h)
	s.Pending = nil // a deal being recorded step by step had the next number
	return nil
}

func (f *Folder) rescored(p HandRescored, e Event) error {
	s := f.s
	b, err := f.raw(e)
	if err != nil {
		return err
	}
	res, err := s.result(p.Scored, b)
	if err != nil {
		return fmt.Errorf("hand %d: %w", p.Hand, err)
	}
	h, err := s.edit(p.Hand, Revision{Kind: TypeHandRescored, Version: e.Version, At: e.At, Cause: p.Cause, result: res, scored: true})
	if err != nil {
		return err
	}
	if h.Voided {
		return fmt.Errorf("hand %d is voided and cannot be re-scored", p.Hand)
	}
	s.count(&h.Result().amounts, -1)
	h.result = h.latest()
	s.count(&res.amounts, 1)
	f.replace(p.Hand, h)
	return nil
}

// count adds a deal's amounts to the balances and the pot (sign 1), or
// takes them back out (sign -1).
func (s *State) count(a *amounts, sign int) {
	for seat := range s.balances {
		d := a.delta(seat)
		if sign < 0 {
			d = d.Neg()
		}
		s.balances[seat] = addUnits(s.balances[seat], d)
	}
	pd := a.pot()
	if sign < 0 {
		pd = pd.Neg()
	}
	s.pot = addUnits(s.pot, pd)
}

func (f *Folder) step(e Event, set func(*payout.Record)) error {
	s := f.s
	if s.Pending == nil {
		return fmt.Errorf("%s with no deal announced", e.Data.EventType())
	}
	p := *s.Pending
	set(&p.Record)
	p.Steps = append(slices.Clip(p.Steps), PendingStep{Kind: e.Data.EventType(), At: e.At, Record: p.Record})
	s.Pending = &p
	return nil
}

func (f *Folder) holder(p HerzAsHolder) error {
	s := f.s
	if s.HerzAs == nil {
		return fmt.Errorf("♥A holder before Herz-As was announced")
	}
	h := *s.HerzAs
	if p.Hand != h.question() {
		return fmt.Errorf("♥A holder for deal %d, but the question is about deal %d", p.Hand, h.question())
	}
	if p.InTapp {
		h.InTapp = append(slices.Clip(h.InTapp), p.Hand)
	} else {
		seat := s.Setup.IndexOf(p.Player)
		if seat < 0 {
			return fmt.Errorf("%q is not a player", p.Player)
		}
		h.Holder, h.HolderHand = seat, p.Hand
	}
	s.HerzAs = &h
	return nil
}

func (f *Folder) closed(p GameClosed, e Event) error {
	s := f.s
	if s.Closed != nil {
		return fmt.Errorf("the game is already closed")
	}
	split := make([]decimal.Decimal, len(s.Setup.Players))
	for i := range split {
		split[i] = decimal.Zero
	}
	for name, d := range p.Split {
		seat := s.Setup.IndexOf(name)
		if seat < 0 {
			return fmt.Errorf("%q is not a player", name)
		}
		split[seat] = d
	}
	for seat, share := range split {
		s.balances[seat] = addUnits(s.balances[seat], share)
		s.pot = addUnits(s.pot, share.Neg())
	}
	if !s.pot.IsZero() {
		return fmt.Errorf("the split leaves %s units in the pot", s.pot)
	}
	if p.Paid != nil && !slices.EqualFunc(p.Paid, s.Paid(), sameTransfer) {
		return fmt.Errorf("the close takes as paid %d payments, but %d were marked paid", len(p.Paid), len(s.payments))
	}
	if err := checkTransfers(s.Setup.Players, s.balances, slices.Concat(p.Paid, p.Transfers)); err != nil {
		return err
	}
	s.Closed = &Closing{At: e.At, Version: e.Version, Head: e.Hash, RemainderTo: p.RemainderTo, Split: split, Paid: p.Paid, Transfers: p.Transfers}
	s.Reopened = false
	return nil
}

// reopened takes the close back: the pot's shares go back into the pot,
// so the evening stands as it did before it was closed.
func (f *Folder) reopened() error {
	s := f.s
	if s.Closed == nil {
		return fmt.Errorf("reopened, but the evening is not closed")
	}
	for seat, share := range s.Closed.Split {
		s.balances[seat] = addUnits(s.balances[seat], share.Neg())
		s.pot = addUnits(s.pot, share)
	}
	s.Closed, s.Reopened = nil, true
	return nil
}

// Peek gives the game as folded so far without handing it out: the caller
// may read it only until the next Apply.
func (f *Folder) Peek() *State { return f.s }

// Damaged marks the game folded so far as the whole of what can be trusted:
// the event after it is at fault.
func (f *Folder) Damaged(d Damage) { f.s.Damaged = &d }
