package tapp

import (
	"bytes"
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// paidThenReopened: closedInEUR with Anna's transfer to Ben paid and
// confirmed, then reopened and Ben's solo won once more (Ben +12 units,
// everyone else −4).
func paidThenReopened(t *testing.T) (*scenario, Transfer) {
	t.Helper()
	sc := closedInEUR(t)
	i := slices.IndexFunc(sc.state.Closed.Transfers, func(tr Transfer) bool { return tr.From == "Anna" })
	tr := sc.state.Closed.Transfers[i]
	sc.and(MarkPaid{Transfer: i, By: "Anna"}, MarkConfirmed{Transfer: i, By: "Ben"}, Reopen{Reason: "one more"}, RecordHand{Record: solo("Ben", 70, 5)})
	return sc, tr
}

// api.md: payments already recorded stay through a reopen. Closing again
// lists Anna's payment first, as confirmed, and settles only what it
// leaves: Anna pays Ben 2 units more, not 4.
func TestAPaymentStaysThroughAReopen(t *testing.T) {
	sc, paid := paidThenReopened(t)
	if s, _ := sc.state.TransferState(0); s != StateConfirmed {
		t.Fatalf("the reopened evening's settlement shows Anna's payment %s, want confirmed", s)
	}
	st := sc.when(Close{}).then(GameClosed{Split: noShares, Paid: []Transfer{paid},
		Transfers: []Transfer{{From: "Cleo", To: "Ben", Amount: units(4)}, {From: "Dan", To: "Ben", Amount: units(4)}, {From: "Anna", To: "Ben", Amount: units(2)}}})
	if err := checkTransfers(st.Setup.Players, st.Balances(), st.Closed.All()); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{StateConfirmed, StateOpen, StateOpen, StateOpen} {
		if s, _ := st.TransferState(i); s != want {
			t.Errorf("transfer %d is %s, want %s", i, s, want)
		}
	}
	sc.state = st
	sc.when(MarkPaid{Transfer: 0, By: "Anna"}).thenErr(problem.Conflict, "conflict.confirmed-twice")
	sc.state = sc.when(MarkPaid{Transfer: 3, By: "Anna"}).then(TransferPaid{TransferMarked{Index: 3, Transfer: Transfer{From: "Anna", To: "Ben", Amount: units(2)}, By: "Anna"}})
	if got := sc.state.Paid(); len(got) != 2 || !got[1].Amount.Equal(units(2)) {
		t.Errorf("paid so far %v, want Anna's 2 and 2 units", got)
	}
}

// A close written before payments were carried settled the whole balances
// and listed no payments: it still folds and is decided again as it was
// (an import of an old file), and its transfer shows the earlier mark of
// the same place and amount, as it did then.
func TestACloseFromBeforePaymentsWereCarried(t *testing.T) {
	sc, _ := paidThenReopened(t)
	old := GameClosed{Split: noShares,
		Transfers: []Transfer{{From: "Anna", To: "Ben", Amount: units(4)}, {From: "Cleo", To: "Ben", Amount: units(4)}, {From: "Dan", To: "Ben", Amount: units(4)}}}
	raw, err := encodePayload(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := Redecide(sc.state, []Event{{Version: sc.state.Version + 1, At: at, Data: old, Raw: raw}}); err != nil {
		t.Errorf("an old close is not decided again: %v", err)
	}
	sc.fold(old)
	if len(sc.state.Closed.Paid) != 0 || len(sc.state.Closed.All()) != 3 {
		t.Errorf("the old close lists %v", sc.state.Closed.All())
	}
}

// A close where nobody owed, stored with its transfers null (as one build
// wrote them), is decided again to the same bytes; today's is [].
func TestACloseWithTransfersNullIsDecidedAgain(t *testing.T) {
	g := game(t, "zuger", four, nil).and(RecordHand{Record: pass()})
	old := GameClosed{Split: noShares}
	raw, err := encodePayload(old)
	if err != nil || !bytes.Contains(raw, []byte(`"transfers":null`)) {
		t.Fatalf("%s %v", raw, err)
	}
	if err := Redecide(g.state, []Event{{Version: g.state.Version + 1, At: at, Data: old, Raw: raw}}); err != nil {
		t.Errorf("a close with transfers null is not decided again: %v", err)
	}
}

// A close whose payments are not the ones marked does not fold.
func TestACloseWithOtherPaymentsDoesNotFold(t *testing.T) {
	sc, paid := paidThenReopened(t)
	paid.Amount = units(3)
	forged := GameClosed{Split: noShares, Paid: []Transfer{paid},
		Transfers: []Transfer{{From: "Cleo", To: "Ben", Amount: units(4)}, {From: "Dan", To: "Ben", Amount: units(4)}, {From: "Anna", To: "Ben", Amount: units(1)}}}
	if _, err := Evolve(sc.state, Event{Version: sc.state.Version + 1, At: at, Data: forged}); err == nil {
		t.Error("a close taking 3 units as paid, where 2 were, folded")
	}
}

func units(n int64) decimal.Decimal { return decimal.NewFromInt(n) }

// noShares is a zuger close's split: no pot, nothing to share.
var noShares = map[string]decimal.Decimal{"Anna": units(0), "Ben": units(0), "Cleo": units(0), "Dan": units(0)}

// A reopened old-tapp evening waiting for its cut lists what was paid
// already, which depends on no cut, and nothing else.
func TestAPaymentStaysWhileACutIsAwaited(t *testing.T) {
	sc := game(t, "old-tapp", three, map[string]any{"stake": 1, "remainder": "cut"}).
		and(RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(70)}}, Close{})
	tr := sc.state.Closed.Transfers[0]
	sc.and(MarkPaid{Transfer: 0, By: tr.From}, Reopen{Reason: "one more"}, RecordHand{Record: pass()})
	s := sc.state.Settlement()
	if !s.Provisional || len(s.Transfers) != 1 || !sameTransfer(s.Transfers[0], tr) {
		t.Fatalf("the settlement awaiting the cut lists %v, want only the payment %v", s.Transfers, tr)
	}
	if state, _ := sc.state.TransferState(0); state != StatePaid {
		t.Errorf("the payment is %s, want paid", state)
	}
}
