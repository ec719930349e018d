package tapp

import (
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payee"
	"tappbook/internal/problem"
)

// closedInEUR: a zuger evening in EUR at 0.50 a unit where Ben's solo won
// (base 2): Ben +6 units, everyone else −2, closed: Anna, Cleo and Dan pay
// Ben 2 units (1.00) each.
func closedInEUR(t *testing.T) *scenario {
	t.Helper()
	sc := &scenario{t: t, state: New("g1")}
	return sc.and(Start{ID: "g1", ReadID: "r1", Variant: "zuger", Players: four, Unit: "0.50", Currency: "EUR"},
		RecordHand{Record: solo("Ben", 70, 5)}, Close{})
}

var annaPaid = payee.Details{Name: "Anna Muster", IBAN: "DE89370400440532013000", PayPal: "annamuster"}

func TestSetPayKeepsTheDetailsAsChecked(t *testing.T) {
	st := closedInEUR(t).when(SetPay{Player: "Anna", Details: payee.Details{Name: "Anna Muster", IBAN: "de89 3704 0044 0532 0130 00", PayPal: "annamuster"}}).
		then(PaySet{Player: "Anna", Details: annaPaid})
	if d, ok := st.PayOf("Anna"); !ok || d != annaPaid {
		t.Errorf("PayOf(Anna) = %+v, %v", d, ok)
	}
	// {} removes them.
	sc := &scenario{t: t, state: st}
	st = sc.when(SetPay{Player: "Anna"}).then(PaySet{Player: "Anna"})
	if _, ok := st.PayOf("Anna"); ok {
		t.Error("empty details did not remove Anna's")
	}
}

func TestSetPayRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		cmd  SetPay
		kind problem.Kind
		code string
	}{
		{"wrong check digit", SetPay{Player: "Anna", Details: payee.Details{Name: "Anna", IBAN: "DE88370400440532013000"}}, problem.Input, "pay.iban-checksum"},
		{"not a Swish number", SetPay{Player: "Anna", Details: payee.Details{Swish: "08-123 45 67"}}, problem.Input, "pay.swish"},
		{"PayPal name with a slash", SetPay{Player: "Anna", Details: payee.Details{PayPal: "paypal.me/anna"}}, problem.Input, "pay.paypal-slash"},
		{"not a player", SetPay{Player: "Zoe", Details: payee.Details{PayPal: "zoe"}}, problem.NotFound, "notfound.player"},
	} {
		t.Run(c.name, func(t *testing.T) { closedInEUR(t).when(c.cmd).thenErr(c.kind, c.code) })
	}
}

func TestPaidThenConfirmed(t *testing.T) {
	sc := closedInEUR(t)
	tr := sc.state.Closed.Transfers[0]
	if tr.To != "Ben" || !tr.Amount.Equal(decimal.NewFromInt(2)) || sc.state.MoneyText(tr.Amount) != "1.00" {
		t.Fatalf("transfer 0 is %+v, want one of 2 units (1.00) to Ben", tr)
	}
	if s, _ := sc.state.TransferState(0); s != StateOpen {
		t.Fatalf("state %s before anything, want open", s)
	}
	sc.state = sc.when(MarkPaid{Transfer: 0, By: tr.From}).then(TransferPaid{TransferMarked{Index: 0, Transfer: tr, By: tr.From}})
	if s, _ := sc.state.TransferState(0); s != StatePaid {
		t.Fatalf("state %s once marked paid, want paid", s)
	}
	sc.when(MarkPaid{Transfer: 0, By: tr.From}).thenErr(problem.Conflict, "conflict.paid-twice")
	sc.when(MarkConfirmed{Transfer: 0, By: tr.From}).thenErr(problem.Conflict, "conflict.confirmed-by")
	sc.state = sc.when(MarkConfirmed{Transfer: 0, By: "Ben"}).then(TransferConfirmed{TransferMarked{Index: 0, Transfer: tr, By: "Ben"}})
	if s, _ := sc.state.TransferState(0); s != StateConfirmed {
		t.Fatalf("state %s once confirmed, want confirmed", s)
	}
	sc.when(MarkConfirmed{Transfer: 0, By: "Ben"}).thenErr(problem.Conflict, "conflict.confirmed-twice")
	if s, _ := sc.state.TransferState(1); s != StateOpen {
		t.Errorf("transfer 1 is %s; marking transfer 0 changed it", s)
	}
}

func TestMarksRefused(t *testing.T) {
	sc := closedInEUR(t)
	tr := sc.state.Closed.Transfers[1]
	sc.when(MarkPaid{Transfer: 1, By: "Ben"}).thenErr(problem.Conflict, "conflict.paid-by")
	sc.when(MarkPaid{Transfer: 7, By: tr.From}).thenErr(problem.NotFound, "notfound.transfer")
	sc.when(MarkPaid{Transfer: 1}).thenErr(problem.Input, "transfer.by-missing")
	open := &scenario{t: t, state: New("g1")}
	open.and(Start{ID: "g1", Variant: "zuger", Players: four, Currency: "EUR"}, RecordHand{Record: solo("Ben", 70, 5)})
	open.when(MarkPaid{Transfer: 0, By: "Anna"}).thenErr(problem.Conflict, "conflict.transfer-open")
	// How to pay is said before the close too.
	open.when(SetPay{Player: "Ben", Details: payee.Details{PayPal: "ben"}}).then(PaySet{Player: "Ben", Details: payee.Details{PayPal: "ben"}})
}

// A mark folds only onto the transfer it names: a history whose mark names
// another is refused, never folded.
func TestMarkOfAnotherTransferDoesNotFold(t *testing.T) {
	sc := closedInEUR(t)
	wrong := sc.state.Closed.Transfers[0]
	wrong.Amount = decimal.RequireFromString("9")
	if _, err := Evolve(sc.state, Event{Version: sc.state.Version + 1, At: at, Data: TransferPaid{TransferMarked{Transfer: wrong, By: wrong.From}}}); err == nil {
		t.Error("a mark of a transfer the close does not list folded")
	}
}

// Sent lists a payment marked sent with where the close lists it, and
// whether it is confirmed: the group's tab shows the unconfirmed ones.
func TestSentSaysWhichAreConfirmed(t *testing.T) {
	sc := closedInEUR(t)
	if got := sc.state.Sent(); len(got) != 0 {
		t.Fatalf("sent before any mark: %v", got)
	}
	tr := sc.state.Closed.Transfers[2]
	sc.and(MarkPaid{Transfer: 2, By: tr.From})
	if got := sc.state.Sent(); len(got) != 1 || got[0].Index != 2 || got[0].Confirmed || !sameTransfer(got[0].Transfer, tr) {
		t.Fatalf("sent once marked paid: %+v", got)
	}
	sc.and(MarkConfirmed{Transfer: 2, By: tr.To})
	if got := sc.state.Sent(); len(got) != 1 || !got[0].Confirmed {
		t.Fatalf("sent once confirmed: %+v", got)
	}
	sc.and(Reopen{Reason: "one more"})
	if got := sc.state.Sent(); len(got) != 1 || got[0].Index != -1 {
		t.Errorf("sent while reopened: %+v, want index -1", got)
	}
}

// A wrong tap is taken back by whoever made it, as a new event: the
// transfer is open again (a "sent"), or sent and not yet received (an
// "arrived"); each refusal says why.
func TestAMarkIsTakenBack(t *testing.T) {
	sc := closedInEUR(t)
	tr := sc.state.Closed.Transfers[0]
	m := TransferMarked{Index: 0, Transfer: tr, By: tr.From}
	sc.when(WithdrawMark{Transfer: 0, By: tr.From}).thenErr(problem.Conflict, "conflict.withdraw-unmarked")
	sc.and(MarkPaid{Transfer: 0, By: tr.From})
	sc.when(WithdrawMark{Transfer: 0, By: "Ben"}).thenErr(problem.Conflict, "conflict.withdraw-by")
	sc.when(WithdrawMark{Transfer: 0}).thenErr(problem.Input, "transfer.by-missing")
	sc.when(WithdrawMark{Transfer: 9, By: tr.From}).thenErr(problem.NotFound, "notfound.transfer")
	sc.when(WithdrawMark{Transfer: 0, By: "Ben", Confirmed: true}).thenErr(problem.Conflict, "conflict.withdraw-unmarked")
	sc.and(MarkConfirmed{Transfer: 0, By: "Ben"})
	sc.when(WithdrawMark{Transfer: 0, By: tr.From}).thenErr(problem.Conflict, "conflict.withdraw-confirmed")
	sc.when(WithdrawMark{Transfer: 0, By: tr.From, Confirmed: true}).thenErr(problem.Conflict, "conflict.withdraw-by")
	sc.state = sc.when(WithdrawMark{Transfer: 0, By: "Ben", Confirmed: true, Reason: "not on my account"}).
		then(MarkWithdrawn{TransferMarked: TransferMarked{Index: 0, Transfer: tr, By: "Ben"}, Mark: StateConfirmed, Reason: "not on my account"})
	if s, _ := sc.state.TransferState(0); s != StatePaid {
		t.Fatalf("state %s once the arrival is taken back, want paid", s)
	}
	sc.state = sc.when(WithdrawMark{Transfer: 0, By: tr.From}).then(MarkWithdrawn{TransferMarked: m, Mark: StatePaid})
	if s, _ := sc.state.TransferState(0); s != StateOpen || sc.state.Paid() != nil {
		t.Fatalf("state %s, paid %v once the sent is taken back, want open and none", s, sc.state.Paid())
	}
	// It can be marked again, as any open transfer.
	sc.when(MarkPaid{Transfer: 0, By: tr.From}).then(TransferPaid{m})
}

// A payment carried through a reopen is settled by the close: its "sent"
// cannot be taken back, though its "arrived" can; and nothing is taken
// back while the evening is open.
func TestACarriedPaymentStaysSent(t *testing.T) {
	sc, _ := paidThenReopened(t)
	sc.when(WithdrawMark{Transfer: 0, By: "Ben", Confirmed: true}).thenErr(problem.Conflict, "conflict.transfer-open")
	sc.and(Close{})
	sc.and(WithdrawMark{Transfer: 0, By: "Ben", Confirmed: true})
	sc.when(WithdrawMark{Transfer: 0, By: "Anna"}).thenErr(problem.Conflict, "conflict.withdraw-carried")
}

// A withdrawal is decided again from its event, as every other (import
// and verify).
func TestAWithdrawalIsDecidedAgain(t *testing.T) {
	sc := closedInEUR(t)
	tr := sc.state.Closed.Transfers[0]
	sc.and(MarkPaid{Transfer: 0, By: tr.From})
	ev := MarkWithdrawn{TransferMarked: TransferMarked{Index: 0, Transfer: tr, By: tr.From}, Mark: StatePaid, Reason: "wrong tap"}
	raw, err := encodePayload(ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := Redecide(sc.state, []Event{{Version: sc.state.Version + 1, At: at, Data: ev, Raw: raw}}); err != nil {
		t.Errorf("a withdrawal is not decided again: %v", err)
	}
	got, err := Decode(TypeMarkWithdrawn, raw, sc.state.Setup.Players)
	if w, ok := got.(MarkWithdrawn); err != nil || !ok || w.Mark != ev.Mark || w.Reason != ev.Reason || w.By != ev.By || !sameTransfer(w.Transfer, tr) {
		t.Errorf("decoded %+v, %v; want %+v", got, err, ev)
	}
	forged := ev
	forged.By = "Ben"
	raw, _ = encodePayload(forged)
	if err := Redecide(sc.state, []Event{{Version: sc.state.Version + 1, At: at, Data: forged, Raw: raw}}); err == nil {
		t.Error("a withdrawal by someone who did not mark it is decided again")
	}
}
