package group

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"tappbook/internal/names"
	"tappbook/internal/payee"
)

// How the members are paid, and payments awaiting their payee's word
// (api.md "Paying what the close says").
const (
	TypeMemberPaySet     = "member.pay-set"
	TypePaymentConfirmed = "payment.confirmed"
)

// PaymentPaid is the state of a payment the payer recorded as sent, which
// its payee is still to confirm; "" is a payment recorded as done.
const PaymentPaid = "paid"

// MemberPaySet: how Member wants to be paid, used by every evening of the
// group; empty details remove it.
type MemberPaySet struct {
	Member  string        `json:"member"`
	Details payee.Details `json:"details"`
}

// PaymentConfirmed: the payee of payment n says it arrived.
type PaymentConfirmed struct {
	Payment int    `json:"payment"`
	By      string `json:"by"`
}

func (MemberPaySet) EventType() string     { return TypeMemberPaySet }
func (PaymentConfirmed) EventType() string { return TypePaymentConfirmed }

// SetMemberPay says how a member is paid; the zero details remove it.
type SetMemberPay struct {
	Member  string
	Details payee.Details
}

// ConfirmPayment: the payee of payment n says it arrived.
type ConfirmPayment struct {
	Payment int
	By      string
}

func (SetMemberPay) Kind() string   { return TypeMemberPaySet }
func (ConfirmPayment) Kind() string { return TypePaymentConfirmed }

// PayOf gives how a member wants to be paid, if they said.
func (s *State) PayOf(member string) (payee.Details, bool) {
	d, ok := s.payees[member]
	return d, ok
}

// AwaitsConfirmation reports whether a payment was recorded as sent and
// its payee has not yet said it arrived.
func (p *Payment) AwaitsConfirmation() bool { return p.State == PaymentPaid && p.ConfirmedBy == "" }

func (s *State) decideMemberPay(c SetMemberPay) ([]Payload, error) {
	member := names.Resolve(c.Member, s.IsMember)
	if !s.IsMember(member) {
		return nil, catalogue.NotFound("notfound.member", c.Member)
	}
	d, err := payee.Check(c.Details, s.Currency)
	if err != nil {
		return nil, err
	}
	return []Payload{MemberPaySet{Member: member, Details: d}}, nil
}

func (s *State) decideConfirm(c ConfirmPayment) ([]Payload, error) {
	p := s.Payment(c.Payment)
	by := s.memberName(c.By)
	switch {
	case p == nil:
		return nil, catalogue.NotFound("notfound.payment", c.Payment)
	case p.Voided:
		return nil, catalogue.Conflict("conflict.payment-voided", c.Payment)
	case by == "":
		return nil, catalogue.Input("by", "payment.by-missing")
	case by != p.To:
		return nil, catalogue.Conflict("conflict.payment-confirmed-by", c.Payment, p.From, p.To, by)
	case p.ConfirmedBy != "":
		return nil, catalogue.Conflict("conflict.payment-confirmed-twice", c.Payment, p.To)
	case p.State != PaymentPaid:
		return nil, catalogue.Conflict("conflict.payment-received", c.Payment)
	}
	return []Payload{PaymentConfirmed{Payment: c.Payment, By: by}}, nil
}

func (f *Folder) memberPaySet(p MemberPaySet) error {
	s := f.s
	if !s.IsMember(p.Member) {
		return fmt.Errorf("%q is not a member", p.Member)
	}
	payees := maps.Clone(s.payees)
	if payees == nil {
		payees = map[string]payee.Details{}
	}
	if p.Details.Empty() {
		delete(payees, p.Member)
	} else {
		payees[p.Member] = p.Details
	}
	s.payees = payees
	return nil
}

func (f *Folder) paymentConfirmed(p PaymentConfirmed, at time.Time) error {
	s := f.s
	old := s.Payment(p.Payment)
	switch {
	case old == nil:
		return fmt.Errorf("there is no payment %d", p.Payment)
	case old.To != p.By:
		return fmt.Errorf("payment %d to %q confirmed by %q", p.Payment, old.To, p.By)
	case old.ConfirmedBy != "":
		return fmt.Errorf("payment %d is already confirmed", p.Payment)
	}
	confirmed := *old
	confirmed.ConfirmedBy, confirmed.ConfirmedAt = p.By, at
	s.payments = slices.Clone(s.payments) // older snapshots still read the payment as it was
	s.payments[p.Payment-1] = &confirmed
	return nil
}
