package group

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"
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

// Folder folds a group event by event, as a replay reads them.
type Folder struct {
	s *State
}

// NewFolder starts the fold of group id.
func NewFolder(id string) *Folder { return &Folder{s: New(id)} }

// State gives the group as folded so far: a snapshot that later Apply calls
// leave as it is.
func (f *Folder) State() *State {
	out := f.s
	f.s = out.clone()
	return out
}

// Peek gives the group as folded so far without handing it out: the
// caller may read it only until the next Apply.
func (f *Folder) Peek() *State { return f.s }

// clone is a copy of the state that may be changed without changing s: its
// lists are clipped, so an append copies them, and a payment is replaced,
// never written to.
func (s *State) clone() *State {
	c := *s
	c.members = slices.Clip(s.members)
	c.evenings = slices.Clip(s.evenings)
	c.payments = slices.Clip(s.payments)
	return &c
}

// Apply folds one more event. Events must come in version order; each is
// checked against the group as it stands (members named, payments numbered
// in turn, nothing voided twice), so a history that does not add up is
// refused, never folded.
func (f *Folder) Apply(e Event) error {
	s := f.s
	if e.Version != s.Version+1 {
		return fmt.Errorf("group %s: event version %d after %d", s.ID, e.Version, s.Version)
	}
	if _, ok := e.Data.(Started); !ok && !s.Started() {
		return fmt.Errorf("group %s: the first event is %s, not %s", s.ID, e.Data.EventType(), TypeStarted)
	}
	var err error
	switch p := e.Data.(type) {
	case Started:
		err = f.started(p, e)
	case MemberAdded:
		err = f.memberAdded(p, e)
	case EveningJoined:
		err = f.eveningJoined(p, e)
	case PaymentRecorded:
		err = f.paymentRecorded(p, e)
	case PaymentVoided:
		err = f.paymentVoided(p, e)
	case MemberPaySet:
		err = f.memberPaySet(p)
	case PaymentConfirmed:
		err = f.paymentConfirmed(p, e.At)
	default:
		err = fmt.Errorf("unknown event %T", e.Data)
	}
	if err != nil {
		return fmt.Errorf("group %s: apply event %d (%s): %w", s.ID, e.Version, e.Data.EventType(), err)
	}
	s.Version = e.Version
	return nil
}

func (f *Folder) started(p Started, e Event) error {
	s := f.s
	if s.Started() {
		return fmt.Errorf("the group has started already")
	}
	unit, err := decimal.NewFromString(p.Unit)
	if err != nil {
		return fmt.Errorf("unit %q: %w", p.Unit, err)
	}
	s.Name, s.Unit, s.UnitText, s.Currency, s.ReadID, s.StartedAt = p.Name, unit, p.Unit, p.Currency, p.ReadID, e.At
	return nil
}

func (f *Folder) memberAdded(p MemberAdded, e Event) error {
	s := f.s
	if other := s.spelledAs(p.Name); other != "" {
		return fmt.Errorf("%q is already a member as %q", p.Name, other)
	}
	s.members = append(s.members, Member{Name: p.Name, Since: e.At})
	return nil
}

func (f *Folder) eveningJoined(p EveningJoined, e Event) error {
	s := f.s
	if p.Game == "" {
		return fmt.Errorf("an evening with no game")
	}
	if _, ok := s.Evening(p.Game); ok {
		return fmt.Errorf("game %s joined twice", p.Game)
	}
	s.evenings = append(s.evenings, Evening{Game: p.Game, ReadID: p.ReadID, At: e.At})
	return nil
}

func (f *Folder) paymentRecorded(p PaymentRecorded, e Event) error {
	s := f.s
	switch {
	case p.Payment != len(s.payments)+1:
		return fmt.Errorf("payment %d recorded after %d payments", p.Payment, len(s.payments))
	case !s.IsMember(p.From) || !s.IsMember(p.To):
		return fmt.Errorf("payment %d from %q to %q: both must be members", p.Payment, p.From, p.To)
	case p.From == p.To:
		return fmt.Errorf("payment %d from %q to themselves", p.Payment, p.From)
	case !p.Amount.IsPositive():
		return fmt.Errorf("payment %d of %s: an amount must be above 0", p.Payment, p.Amount)
	}
	s.payments = append(s.payments, &Payment{Number: p.Payment, From: p.From, To: p.To, Amount: p.Amount, Note: p.Note, At: e.At, State: p.State})
	return nil
}

func (f *Folder) paymentVoided(p PaymentVoided, e Event) error {
	s := f.s
	old := s.Payment(p.Payment)
	switch {
	case old == nil:
		return fmt.Errorf("there is no payment %d", p.Payment)
	case old.Voided:
		return fmt.Errorf("payment %d is already voided", p.Payment)
	}
	voided := *old
	voided.Voided, voided.VoidReason, voided.VoidedAt = true, p.Reason, e.At
	s.payments = slices.Clone(s.payments) // older snapshots still read the payment as it was
	s.payments[p.Payment-1] = &voided
	return nil
}
