package tapp

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"tappbook/internal/payee"
)

// How the players are paid and whether each transfer of the close has been
// (api.md "Paying what the close says"). These come after the close too:
// they change no money, so a closed evening takes them.
const (
	TypePaySet            = "player.pay-set"
	TypeTransferPaid      = "transfer.paid"
	TypeTransferConfirmed = "transfer.confirmed"
	// TypeMarkWithdrawn: a mark taken back by whoever made it, since any
	// phone at the table can tap and one wrong tap cleared a real debt.
	TypeMarkWithdrawn = "transfer.mark-withdrawn"
)

// AboutPaying says whether an event of this type is about paying: one a
// closed evening takes, which changes no money.
func AboutPaying(eventType string) bool {
	switch eventType {
	case TypePaySet, TypeTransferPaid, TypeTransferConfirmed, TypeMarkWithdrawn:
		return true
	}
	return false
}

// PaySet: how Player wants to be paid, as checked; empty details remove it.
type PaySet struct {
	Player  string        `json:"player"`
	Details payee.Details `json:"details"`
}

// TransferMarked: the payer said transfer Transfer (its index in the
// close's list) is sent (transfer.paid), or the payee that it arrived
// (transfer.confirmed). The transfer is kept with it: a close made again
// after a reopen may list other transfers.
type TransferMarked struct {
	Index int `json:"transfer"`
	Transfer
	By string `json:"by"`
}

// TransferPaid and TransferConfirmed are the two marks.
type (
	TransferPaid      struct{ TransferMarked }
	TransferConfirmed struct{ TransferMarked }
)

// MarkWithdrawn: the mark Mark ("paid" or "confirmed") on transfer Index
// is taken back by By, who made it: the transfer is open again, or sent
// and not yet received. The mark itself stays in the history.
type MarkWithdrawn struct {
	TransferMarked
	Mark   string `json:"mark"`
	Reason string `json:"reason,omitempty"`
}

func (MarkWithdrawn) EventType() string { return TypeMarkWithdrawn }

// WithdrawMark: whoever marked transfer Transfer paid (Confirmed false) or
// confirmed takes it back.
type WithdrawMark struct {
	Transfer  int
	By        string
	Confirmed bool
	Reason    string
}

func (WithdrawMark) Kind() string { return TypeMarkWithdrawn }
func (WithdrawMark) pay()         {}

func (PaySet) EventType() string            { return TypePaySet }
func (TransferPaid) EventType() string      { return TypeTransferPaid }
func (TransferConfirmed) EventType() string { return TypeTransferConfirmed }

// SetPay says how a player is paid; the zero details remove it.
type SetPay struct {
	Player  string
	Details payee.Details
}

// MarkPaid: the payer of transfer Transfer says it is sent.
type MarkPaid struct {
	Transfer int
	By       string
}

// MarkConfirmed: the payee of transfer Transfer says it arrived.
type MarkConfirmed struct {
	Transfer int
	By       string
}

func (SetPay) Kind() string        { return TypePaySet }
func (MarkPaid) Kind() string      { return TypeTransferPaid }
func (MarkConfirmed) Kind() string { return TypeTransferConfirmed }

func (SetPay) pay()        {}
func (MarkPaid) pay()      {}
func (MarkConfirmed) pay() {}

// payCommand is a command about paying: taken by a closed evening too.
type payCommand interface {
	Command
	pay()
}

// Transfer states, as api.md names them.
const (
	StateOpen      = "open"
	StatePaid      = "paid"
	StateConfirmed = "confirmed"
)

// payment is money a player says they sent for a transfer of a close,
// made by the first mark on it and confirmed by the payee's.
type payment struct {
	Transfer
	index     int   // the transfer's place in its close's list
	close     int64 // that close's version
	confirmed bool
	at        time.Time // when it was marked paid, or confirmed
}

// PayOf gives how a player wants to be paid, if they said.
func (s *State) PayOf(player string) (payee.Details, bool) {
	d, ok := s.payees[player]
	return d, ok
}

// Paid is the money paid on the closes' transfers so far, in units, in the
// order marked: what a close takes as paid.
func (s *State) Paid() []Transfer {
	if len(s.payments) == 0 {
		return nil // as a close stores it, so that a state rebuilt is the same
	}
	out := make([]Transfer, len(s.payments))
	for i, p := range s.payments {
		out[i] = p.Transfer
	}
	return out
}

// TransferState is open, paid or confirmed for transfer i of the
// settlement (the close's, or closing now's), with when it was marked last.
func (s *State) TransferState(i int) (state string, at time.Time) {
	k, ok := s.paymentFor(i)
	switch {
	case !ok:
		return StateOpen, time.Time{}
	case s.payments[k].confirmed:
		return StateConfirmed, s.payments[k].at
	}
	return StatePaid, s.payments[k].at
}

// paymentFor is the payment made for transfer i: one paid before the close
// and listed first in it, or one marked on the close's own transfer. A
// close from before payments were carried (Paid empty) takes a mark on an
// earlier close's transfer of the same place and amount, as tappbook then
// showed it. An open evening's settlement lists every payment first.
func (s *State) paymentFor(i int) (int, bool) {
	c := s.Closed
	if c == nil || i < len(c.Paid) {
		return i, i >= 0 && i < len(s.payments)
	}
	t, ok := s.closedTransfer(i)
	if !ok {
		return 0, false
	}
	for k, p := range s.payments {
		if p.index == i && sameTransfer(p.Transfer, t) && (p.close == c.Version || len(c.Paid) == 0) {
			return k, true
		}
	}
	return 0, false
}

func (s *State) closedTransfer(i int) (Transfer, bool) {
	if s.Closed == nil || i < 0 || i >= len(s.Closed.Paid)+len(s.Closed.Transfers) {
		return Transfer{}, false
	}
	return s.Closed.All()[i], true
}

func sameTransfer(a, b Transfer) bool {
	return a.From == b.From && a.To == b.To && a.Amount.Equal(b.Amount)
}

// decidePay decides a command about paying: on any started, undamaged
// evening for details, on a closed one for the transfers it fixed.
func (s *State) decidePay(c payCommand) ([]Payload, error) {
	switch {
	case !s.Started():
		return nil, catalogue.NotFound("notfound.game")
	case s.Damaged != nil:
		return nil, catalogue.Conflict("conflict.damaged", s.Damaged.Seq, s.Damaged.Version, s.Damaged.Why)
	}
	switch c := c.(type) {
	case SetPay:
		player := s.Setup.Name(c.Player)
		if s.Setup.IndexOf(player) < 0 {
			return nil, catalogue.NotFound("notfound.player", c.Player)
		}
		d, err := payee.Check(c.Details, s.Currency)
		if err != nil {
			return nil, err
		}
		return []Payload{PaySet{Player: player, Details: d}}, nil
	case MarkPaid:
		return s.decideMark(c.Transfer, c.By, false)
	case MarkConfirmed:
		return s.decideMark(c.Transfer, c.By, true)
	case WithdrawMark:
		return s.decideUnmark(c)
	}
	return nil, fmt.Errorf("decide: unknown pay command %T", c)
}

func (s *State) decideMark(i int, by string, confirm bool) ([]Payload, error) {
	if s.Closed == nil {
		return nil, catalogue.Conflict("conflict.transfer-open")
	}
	t, ok := s.closedTransfer(i)
	if !ok {
		return nil, catalogue.NotFound("notfound.transfer", i, len(s.Closed.Paid)+len(s.Closed.Transfers))
	}
	by = s.Setup.Name(by)
	state, _ := s.TransferState(i)
	amount := s.MoneyText(t.Amount)
	m := TransferMarked{Index: i, Transfer: t, By: by}
	switch {
	case by == "":
		return nil, catalogue.Input("by", "transfer.by-missing")
	case confirm && by != t.To:
		return nil, catalogue.Conflict("conflict.confirmed-by", t.From, t.To, amount, by)
	case confirm && state == StateConfirmed:
		return nil, catalogue.Conflict("conflict.confirmed-twice", t.From, t.To, amount)
	case confirm:
		return []Payload{TransferConfirmed{m}}, nil
	case by != t.From:
		return nil, catalogue.Conflict("conflict.paid-by", t.From, t.To, amount, by)
	case state == StateConfirmed:
		return nil, catalogue.Conflict("conflict.confirmed-twice", t.From, t.To, amount)
	case state == StatePaid:
		return nil, catalogue.Conflict("conflict.paid-twice", t.From, t.To, amount)
	}
	return []Payload{TransferPaid{m}}, nil
}

// payFolded folds an event about paying.
func (f *Folder) payFolded(p Payload, e Event) error {
	s := f.s
	switch p := p.(type) {
	case PaySet:
		if s.Setup.IndexOf(p.Player) < 0 {
			return fmt.Errorf("%q is not a player", p.Player)
		}
		payees := maps.Clone(s.payees)
		if payees == nil {
			payees = map[string]payee.Details{}
		}
		if p.Details.Empty() {
			delete(payees, p.Player)
		} else {
			payees[p.Player] = p.Details
		}
		s.payees = payees
	case TransferPaid:
		return f.marked(p.TransferMarked, false, e.At)
	case TransferConfirmed:
		return f.marked(p.TransferMarked, true, e.At)
	case MarkWithdrawn:
		return f.withdrawn(p)
	}
	return nil
}

func (f *Folder) marked(m TransferMarked, confirmed bool, at time.Time) error {
	s := f.s
	if t, ok := s.closedTransfer(m.Index); !ok || !sameTransfer(t, m.Transfer) {
		return fmt.Errorf("transfer %d (%s to %s, %s) is not one of the close", m.Index, m.From, m.To, m.Amount)
	}
	payments := slices.Clone(s.payments) // an earlier state may share them
	k, ok := s.paymentFor(m.Index)
	switch {
	case !ok:
		payments = append(payments, payment{Transfer: m.Transfer, index: m.Index, close: s.Closed.Version, confirmed: confirmed, at: at})
	case confirmed && !payments[k].confirmed:
		payments[k].confirmed, payments[k].at = true, at
	}
	s.payments = payments
	return nil
}

// Sent is a payment marked sent on a transfer of a close: its transfer,
// whether the payee confirmed it, and where the close lists it now.
type Sent struct {
	Transfer
	Confirmed bool
	// Index is the transfer's place in the close's list, where it is
	// confirmed; -1 while the evening is reopened, when it cannot be.
	Index int
}

// Sent are the payments marked on the closes' transfers, in the order
// marked (as Paid), each with whether it is confirmed: the group's tab
// lists those that are not, as it does its own payments.
func (s *State) Sent() []Sent {
	out := make([]Sent, len(s.payments))
	for k, p := range s.payments {
		out[k] = Sent{Transfer: p.Transfer, Confirmed: p.confirmed, Index: -1}
	}
	if s.Closed == nil {
		return out
	}
	for i := range len(s.Closed.Paid) + len(s.Closed.Transfers) {
		if k, ok := s.paymentFor(i); ok {
			out[k].Index = i
		}
	}
	return out
}

// decideUnmark takes back a mark: only its maker (the payer's "sent",
// the payee's "arrived"), only the mark the transfer has now (a "sent"
// once confirmed is taken back by the payee first), and never a payment
// the close carried from before a reopen: that close settled what it
// left, and taking it back would make its transfers wrong.
func (s *State) decideUnmark(c WithdrawMark) ([]Payload, error) {
	if s.Closed == nil {
		return nil, catalogue.Conflict("conflict.transfer-open")
	}
	t, ok := s.closedTransfer(c.Transfer)
	if !ok {
		return nil, catalogue.NotFound("notfound.transfer", c.Transfer, len(s.Closed.Paid)+len(s.Closed.Transfers))
	}
	by := s.Setup.Name(c.By)
	state, _ := s.TransferState(c.Transfer)
	amount := s.MoneyText(t.Amount)
	mark, maker, want := StatePaid, t.From, StatePaid
	if c.Confirmed {
		mark, maker, want = StateConfirmed, t.To, StateConfirmed
	}
	switch {
	case by == "":
		return nil, catalogue.Input("by", "transfer.by-missing")
	case by != maker:
		return nil, catalogue.Conflict("conflict.withdraw-by", maker, t.From, t.To, amount, by)
	case state == StateConfirmed && !c.Confirmed:
		return nil, catalogue.Conflict("conflict.withdraw-confirmed", t.From, t.To, amount)
	case state != want:
		return nil, catalogue.Conflict("conflict.withdraw-unmarked", t.From, t.To, amount)
	case !c.Confirmed && c.Transfer < len(s.Closed.Paid):
		return nil, catalogue.Conflict("conflict.withdraw-carried", t.From, t.To, amount)
	}
	return []Payload{MarkWithdrawn{TransferMarked: TransferMarked{Index: c.Transfer, Transfer: t, By: by}, Mark: mark, Reason: c.Reason}}, nil
}

// withdrawn folds a mark taken back: a confirmation makes the payment
// sent again; a "sent" removes the payment, which is one marked on this
// close (decideUnmark refuses the carried ones), so the payments the
// close carried keep their places.
func (f *Folder) withdrawn(m MarkWithdrawn) error {
	s := f.s
	if t, ok := s.closedTransfer(m.Index); !ok || !sameTransfer(t, m.Transfer) {
		return fmt.Errorf("transfer %d (%s to %s, %s) is not one of the close", m.Index, m.From, m.To, m.Amount)
	}
	k, ok := s.paymentFor(m.Index)
	if !ok {
		return fmt.Errorf("transfer %d's mark is taken back, but it has none", m.Index)
	}
	payments := slices.Clone(s.payments) // an earlier state may share them
	switch {
	case m.Mark == StateConfirmed && payments[k].confirmed:
		payments[k].confirmed = false
	case m.Mark == StatePaid && !payments[k].confirmed && k >= len(s.Closed.Paid):
		payments = slices.Delete(payments, k, k+1)
	default:
		return fmt.Errorf("transfer %d's %q mark is taken back, but it is not the mark it has", m.Index, m.Mark)
	}
	if len(payments) == 0 {
		payments = nil // as a state that never had one
	}
	s.payments = payments
	return nil
}
