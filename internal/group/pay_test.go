package group

import (
	"testing"

	"tappbook/internal/payee"
	"tappbook/internal/problem"
)

func TestSetMemberPay(t *testing.T) {
	zurich := &payee.Address{Street: "Bahnhofstrasse 1", Postcode: "8000", Town: "Zürich", Country: "CH"}
	want := payee.Details{Name: "Anna Muster", IBAN: "CH9300762011623852957", Address: zurich}
	g := thursday(t).when(SetMemberPay{Member: "Anna", Details: payee.Details{Name: "Anna Muster", IBAN: "ch93 0076 2011 6238 5295 7",
		Address: &payee.Address{Street: "Bahnhofstrasse 1", Postcode: "8000", Town: "Zürich", Country: "ch"}}}).
		then(MemberPaySet{Member: "Anna", Details: want})
	if d, ok := g.PayOf("Anna"); !ok || d.IBAN != want.IBAN || *d.Address != *zurich {
		t.Fatalf("PayOf(Anna) = %+v, %v", d, ok)
	}
}

func TestSetMemberPayRefusals(t *testing.T) {
	sc := thursday(t) // in CHF
	sc.when(SetMemberPay{Member: "Anna", Details: payee.Details{Name: "Anna", IBAN: "CH9300762011623852956"}}).thenErr(problem.Input, "pay.iban-checksum", "iban")
	sc.when(SetMemberPay{Member: "Anna", Details: payee.Details{Name: "Anna", IBAN: "CH9300762011623852957"}}).thenErr(problem.Input, "pay.address-needed", "address")
	sc.when(SetMemberPay{Member: "Anna", Details: payee.Details{Swish: "12345"}}).thenErr(problem.Input, "pay.swish", "swish")
	sc.when(SetMemberPay{Member: "Anna", Details: payee.Details{PayPal: "anna/muster"}}).thenErr(problem.Input, "pay.paypal-slash", "paypal")
	sc.when(SetMemberPay{Member: "Zoe", Details: payee.Details{PayPal: "zoe"}}).thenErr(problem.NotFound, "notfound.member", "")
}

func TestPaymentSentThenConfirmed(t *testing.T) {
	sc := thursday(t)
	sc.state = sc.when(RecordPayment{From: "Ben", To: "Anna", Amount: "3.50", State: "paid"}).
		then(PaymentRecorded{Payment: 1, From: "Ben", To: "Anna", Amount: d("3.50"), State: PaymentPaid})
	if p := sc.state.Payment(1); !p.AwaitsConfirmation() {
		t.Fatalf("payment %+v does not await its payee", p)
	}
	sc.when(ConfirmPayment{Payment: 1, By: "Ben"}).thenErr(problem.Conflict, "conflict.payment-confirmed-by", "")
	before := sc.state
	sc.state = sc.when(ConfirmPayment{Payment: 1, By: "Anna"}).then(PaymentConfirmed{Payment: 1, By: "Anna"})
	if p := sc.state.Payment(1); p.AwaitsConfirmation() || p.ConfirmedBy != "Anna" {
		t.Fatalf("payment %+v after its confirmation", p)
	}
	if !before.Payment(1).AwaitsConfirmation() {
		t.Fatal("confirming changed an older snapshot")
	}
	sc.when(ConfirmPayment{Payment: 1, By: "Anna"}).thenErr(problem.Conflict, "conflict.payment-confirmed-twice", "")
}

func TestConfirmRefusals(t *testing.T) {
	sc := thursday(t).and(RecordPayment{From: "Ben", To: "Anna", Amount: "1"})
	sc.when(ConfirmPayment{Payment: 1, By: "Anna"}).thenErr(problem.Conflict, "conflict.payment-received", "")
	sc.when(ConfirmPayment{Payment: 2, By: "Anna"}).thenErr(problem.NotFound, "notfound.payment", "")
	sc.when(ConfirmPayment{Payment: 1}).thenErr(problem.Input, "payment.by-missing", "by")
	sc.when(RecordPayment{From: "Ben", To: "Anna", Amount: "1", State: "confirmed"}).thenErr(problem.Input, "payment.state", "state")
}

func TestDecodePayEvents(t *testing.T) {
	for _, p := range []Payload{
		MemberPaySet{Member: "Anna", Details: payee.Details{Swish: "+46701234567"}}, PaymentConfirmed{Payment: 1, By: "Anna"},
		PaymentRecorded{Payment: 1, From: "A", To: "B", Amount: d("1"), State: PaymentPaid},
	} {
		got, err := Decode(p.EventType(), []byte(js(p)))
		if err != nil || js(got) != js(p) || !IsType(p.EventType()) {
			t.Fatalf("%s: %s %v", p.EventType(), js(got), err)
		}
	}
}
