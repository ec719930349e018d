package tapp

import (
	"testing"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// api.md "Corrections": a retract takes the last deal back as if it had
// never been recorded: the same number and dealer come next, and in
// old-tapp its stake leaves the pot (rules.md "Decisions").
func TestRetractTheLastDeal(t *testing.T) {
	g := oldTapp(t) // deal 1 pass (Anna's stake), deal 2 Cleo's solo took the pot
	next := g.when(RetractHand{Hand: 2, Reason: "wrong player"}).
		then(HandRetracted{Hand: 2, Dealer: "Ben", Reason: "wrong player"})
	if next.NextHand() != 2 || next.Setup.Players[next.NextDealer()] != "Ben" {
		t.Fatalf("after the retract deal %d dealt by %s comes next; want deal 2 by Ben", next.NextHand(), next.Setup.Players[next.NextDealer()])
	}
	// Deal 1's stake is back in the pot, Ben's stake of deal 2 left it.
	if next.Pot().String() != "2" || next.Balance(0).String() != "-2" || !next.Balance(1).IsZero() || !next.Balance(2).IsZero() {
		t.Fatalf("pot %s, balances %v; want 2 and Anna -2, Ben 0, Cleo 0", next.Pot(), next.Balances())
	}
	if r := next.Retracted(); len(r) != 1 || r[0].Number != 2 || r[0].Revisions[len(r[0].Revisions)-1].Kind != TypeHandRetracted {
		t.Fatalf("the retracted deal is not kept with its history: %+v", r)
	}
	// Entered again, it is deal 2 dealt by Ben, at the pot of 2.
	g.fold(HandRetracted{Hand: 2, Dealer: "Ben", Reason: "wrong player"})
	g.when(RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Anna", Trump: "clubs", Points: ip(70)}, Checks: Checks{Dealer: sp("Ben"), ExpectedHand: ip(2)}}).
		then(HandRecorded{Hand: 2, Dealer: "Ben", Record: payout.Record{Contract: "solo", Declarer: "Anna", Trump: "clubs", Points: ip(70)},
			PotAfter: u(0), Scored: scored(-2, "Anna", 14, "Ben", -5-2, "Cleo", -5)})
}

// A void keeps the dealer's stake in the pot; a retract of that voided
// last deal takes it back too.
func TestRetractAVoidedDeal(t *testing.T) {
	g := oldTapp(t).and(VoidHand{Hand: 2, Reason: "misdeal"})
	if g.state.Pot().String() != "4" || g.state.Balance(1).String() != "-2" {
		t.Fatalf("after the void: pot %s, Ben %s; want 4 and -2", g.state.Pot(), g.state.Balance(1))
	}
	next := g.when(RetractHand{Hand: 2}).then(HandRetracted{Hand: 2, Dealer: "Ben"})
	if next.Pot().String() != "2" || !next.Balance(1).IsZero() {
		t.Fatalf("after the retract: pot %s, Ben %s; want 2 and 0", next.Pot(), next.Balance(1))
	}
}

// A void stored before the stake was kept goes on meaning what it did: the
// deal moves nothing, its stake included.
func TestVoidStoredBeforeTheStakeWasKept(t *testing.T) {
	g := oldTapp(t)
	g.fold(HandVoided{Hand: 1, Reason: "misdeal"},
		HandRescored{Hand: 2, Cause: 1, PotAfter: u(0), Scored: scored(0, "Anna", -5, "Ben", -7, "Cleo", 12)})
	if !g.state.Pot().IsZero() || !g.state.Balance(0).Equal(u(-5)) || !g.state.PotBefore(2).IsZero() {
		t.Fatalf("pot %s, Anna %s, pot before deal 2 %s; want 0, -5, 0", g.state.Pot(), g.state.Balance(0), g.state.PotBefore(2))
	}
}

func TestRetractRefusals(t *testing.T) {
	g := oldTapp(t)
	g.when(RetractHand{Hand: 3}).thenErr(problem.NotFound, "notfound.hand")
	// Not the last deal: corrected or voided instead.
	g.when(RetractHand{Hand: 1}).thenErr(problem.Conflict, "conflict.retract-not-last")
	g.when(RetractHand{Hand: 2, Reason: "a\u202ebc"}).thenErr(problem.Input, "text.bidi")
	// Herz-As said after deal 2 counts the end of the evening from it.
	w := wuerttemberg(t).and(AnnounceHerzAs{})
	w.when(RetractHand{Hand: 2}).thenErr(problem.Conflict, "conflict.retract-herz-as")
	w.and(WithdrawHerzAs{Reason: "too soon"})
	w.when(RetractHand{Hand: 2}).then(HandRetracted{Hand: 2, Dealer: "Ben"})
	g.and(Close{})
	g.when(RetractHand{Hand: 2}).thenErr(problem.Conflict, "conflict.closed")
}

// Who was dealt the ♥A in a deal counts the end of the evening from it: that
// deal is not taken back, whether it was named or the ♥A lay in the tapp.
func TestRetractRefusedForTheHerzAsDeal(t *testing.T) {
	named := wuerttemberg(t).and(AnnounceHerzAs{}, RecordHand{Record: suit("Cleo")}, SayHerzAsHolder{Player: "Dan"})
	named.when(RetractHand{Hand: 3}).thenErr(problem.Conflict, "conflict.retract-herz-as-holder")
	inTapp := wuerttemberg(t).and(AnnounceHerzAs{}, RecordHand{Record: suit("Cleo")}, SayHerzAsHolder{InTapp: true})
	inTapp.when(RetractHand{Hand: 3}).thenErr(problem.Conflict, "conflict.retract-herz-as-holder")
	asked := wuerttemberg(t).and(AnnounceHerzAs{}, RecordHand{Record: suit("Cleo")})
	asked.when(RetractHand{Hand: 3}).then(HandRetracted{Hand: 3, Dealer: "Cleo"})
}

// An import decides every command again: a retract, a void of now (the
// stake kept) and one stored before it (the stake taken back) each give
// the events the file holds.
func TestRedecideRetractAndVoids(t *testing.T) {
	g := oldTapp(t)
	for _, p := range []Payload{
		HandRetracted{Hand: 2, Dealer: "Ben", Reason: "typo"},
		HandVoided{Hand: 2, Reason: "misdeal", StakeKept: dp(2)},
		HandVoided{Hand: 2, Reason: "misdeal"},
	} {
		raw, err := encodePayload(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := Redecide(g.state, []Event{{Version: g.state.Version + 1, At: at, Data: p, Raw: raw}}); err != nil {
			t.Errorf("%s %s decided again: %v", p.EventType(), raw, err)
		}
	}
}

// A close whose leftover units the biggest-loser rule gave stores them as
// given, though its command named no one: it is decided again, as an
// import does, to the same event.
func TestRedecideACloseTheBiggestLoserRuleCut(t *testing.T) {
	g := game(t, "old-tapp", three, map[string]any{"remainder": "biggest-loser"}).and(RecordHand{Record: pass()})
	ps, err := Decide(g.state, Close{})
	if err != nil {
		t.Fatal(err)
	}
	closed := ps[0].(GameClosed)
	if len(closed.RemainderTo) == 0 {
		t.Fatalf("the close %+v names no one for the leftover units", closed)
	}
	raw, err := encodePayload(closed)
	if err != nil {
		t.Fatal(err)
	}
	if err := Redecide(g.state, []Event{{Version: g.state.Version + 1, At: at, Data: closed, Raw: raw}}); err != nil {
		t.Errorf("%s decided again: %v", raw, err)
	}
}

// A Württemberg suit, rufer or durch names its trump (hearts pays double).
// One stored with its trump left out, while only hearts or not was asked,
// is decided again as it was stored, as an import and verify do.
func TestWuerttembergTrumpLeftOut(t *testing.T) {
	g := wuerttemberg(t)
	rec := payout.Record{Contract: "suit", Declarer: "Cleo", Points: ip(70)}
	rufer := payout.Record{Contract: "rufer", Declarer: "Cleo"}
	durch := payout.Record{Contract: "durch", Declarer: "Anna", Tricks: ip(8)}
	g.when(RecordHand{Record: rec}).thenErr(problem.Input, "trump.missing")
	g.when(Announce{Record: rufer}).thenErr(problem.Input, "trump.missing")
	g.when(CorrectHand{Hand: 1, Record: durch, Reason: "typo"}).thenErr(problem.Input, "trump.missing")
	for _, c := range []Command{
		RecordHand{Record: rec, stored: true},
		Announce{Record: rufer, stored: true},
		CorrectHand{Hand: 1, Record: durch, Reason: "typo", stored: true},
	} {
		ps, err := Decide(g.state, c)
		if err != nil {
			t.Fatalf("%T as stored: %v", c, err)
		}
		batch := make([]Event, len(ps))
		for i, p := range ps {
			raw, err := encodePayload(p)
			if err != nil {
				t.Fatal(err)
			}
			batch[i] = Event{Version: g.state.Version + int64(i) + 1, At: at, Data: p, Raw: raw}
		}
		if err := Redecide(g.state, batch); err != nil {
			t.Errorf("%T stored without its trump, decided again: %v", c, err)
		}
	}
}

// An announcement stored by an earlier server without its trump is counted
// as a new deal, held to every check: it is announced again with its
// trump. Decided again from its events, it is as it was stored.
func TestWuerttembergCountOfAnAnnouncementWithoutTrump(t *testing.T) {
	g := wuerttemberg(t).and(Announce{Record: payout.Record{Contract: "durch", Declarer: "Cleo"}, stored: true})
	g.when(Count{Counts: payout.Record{Tricks: ip(8)}}).thenErr(problem.Input, "trump.missing")
	ps, err := Decide(g.state, Count{Counts: payout.Record{Tricks: ip(8)}, stored: true})
	if err != nil {
		t.Fatalf("the count as stored: %v", err)
	}
	raw, err := encodePayload(ps[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := Redecide(g.state, []Event{{Version: g.state.Version + 1, At: at, Data: ps[0], Raw: raw}}); err != nil {
		t.Errorf("the count stored without a trump, decided again: %v", err)
	}
	g.when(Announce{Record: payout.Record{Contract: "durch", Declarer: "Cleo", Trump: "hearts"}}).then(
		DealAnnounced{Hand: 3, Record: payout.Record{Contract: "durch", Declarer: "Cleo", Trump: "hearts"}})
}

// A deal stored by an earlier server without its trump, taken back, is
// recorded again as it was (redo): its stored record, not a new one.
func TestWuerttembergRedoOfADealWithoutTrump(t *testing.T) {
	old := payout.Record{Contract: "suit", Declarer: "Cleo", Points: ip(70)}
	g := wuerttemberg(t).and(RecordHand{Record: old, stored: true}, RetractHand{Hand: 3})
	g.when(RecordHand{Record: payout.Record{Contract: "suit", Declarer: "Dan", Points: ip(70)}}).thenErr(problem.Input, "trump.missing")
	if _, err := Decide(g.state, RecordHand{Record: old}); err != nil {
		t.Fatalf("deal 3 recorded again as it was: %v", err)
	}
}
