package tapp

import (
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// api.md "Closing the evening": a closed evening can be reopened with a
// reason; the pot shared out at the close goes back into it, deals are
// recorded and corrected again, and the next close settles it afresh.
func TestReopenPutsThePotBackAndClosesAgain(t *testing.T) {
	g := game(t, "old-tapp", three, nil).and(RecordHand{Record: pass()}, RecordHand{Record: pass()})
	open, pot := g.state.Balances(), g.state.Pot()
	g.when(Reopen{Reason: "deal 2 was wrong"}).thenErr(problem.Conflict, "conflict.not-closed")

	g.and(Close{RemainderTo: []string{"Cleo"}})
	g.when(RecordHand{Record: pass()}).thenErr(problem.Conflict, "conflict.closed")
	g.when(CorrectHand{Hand: 1, Record: solo("Anna", 70, 5), Reason: "x"}).thenErr(problem.Conflict, "conflict.closed")
	g.when(Reopen{Reason: "  "}).thenErr(problem.Input, "reopen.reason")
	g.when(Reopen{Reason: "a\u202ebc"}).thenErr(problem.Input, "text.bidi")

	g.state = g.when(Reopen{Reason: "deal 2 was wrong"}).then(GameReopened{Reason: "deal 2 was wrong"})
	if g.state.Closed != nil {
		t.Fatal("reopened, the evening still reads as closed")
	}
	if !g.state.Pot().Equal(pot) || !equalAll(g.state.Balances(), open) {
		t.Fatalf("reopened: balances %v pot %s, want %v and %s as before the close", g.state.Balances(), g.state.Pot(), open, pot)
	}
	g.when(Reopen{Reason: "again"}).thenErr(problem.Conflict, "conflict.not-closed")

	// Corrected and one more deal: the pot carries, and the close settles
	// the pot as it now stands (6 units: no cut this time).
	g.and(CorrectHand{Hand: 2, Record: payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(70)}, Reason: "a coeurfrage, not a pass"}, RecordHand{Record: pass()})
	ps, err := Decide(g.state, Close{})
	if err != nil {
		t.Fatalf("closing again: %v", err)
	}
	g.fold(ps...)
	if g.state.Closed == nil || !g.state.Pot().IsZero() {
		t.Fatalf("closed again: closed %v, pot %s", g.state.Closed != nil, g.state.Pot())
	}
	if got := g.state.Closed.Version; got != g.state.Version {
		t.Fatalf("the close is event %d, the game's last is %d", got, g.state.Version)
	}
	sum := decimal.Zero
	for _, b := range g.state.Balances() {
		sum = sum.Add(b)
	}
	if !sum.IsZero() {
		t.Fatalf("closed again, the balances sum to %s", sum)
	}
}

// A reopen event folded onto an evening that is not closed is a history
// that does not add up: refused, never folded.
func TestReopenOfAnOpenEveningDoesNotFold(t *testing.T) {
	g := game(t, "zuger", four, nil)
	if _, err := Evolve(g.state, Event{Version: g.state.Version + 1, At: at, Data: GameReopened{Reason: "x"}}); err == nil {
		t.Fatal("a reopen of an open evening folded")
	}
}

func equalAll(a, b []decimal.Decimal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}
