package tapp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// One scenario for every command and every refusal of Decide. Amounts cite
// the rules.md row they come from.

func TestStart(t *testing.T) {
	given(t).when(Start{ID: "g1", ReadID: "r1", Variant: "zuger", Players: four, Unit: "0.50", Currency: "chf"}).
		then(GameStarted{Variant: payout.Zuger, Players: four, Unit: "0.50", Currency: "CHF",
			Rules: map[string]json.RawMessage{"tapp_threshold": []byte("61")}, ReadID: "r1"})
}

func TestStartRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		cmd  Start
		code string
	}{
		{"unknown variant", Start{Variant: "skat", Players: four}, "variant.unknown"},
		{"players for another variant", Start{Variant: "old-tapp", Players: four}, "players.count"},
		{"the same name twice", Start{Variant: "zuger", Players: []string{"Anna", "Ben", "anna", "Dan"}}, "players.same"},
		{"unit of zero", Start{Variant: "zuger", Players: four, Unit: "0"}, "unit"},
		{"unit with an exponent", Start{Variant: "zuger", Players: four, Unit: "1e5"}, "amount.exponent"},
		// api.md: amounts are in the currency; a finer unit adds up to money
		// nobody can pay.
		{"unit finer than francs", Start{Variant: "zuger", Players: four, Unit: "0.125", Currency: "CHF"}, "unit.places"},
		{"unit finer than yen", Start{Variant: "zuger", Players: four, Unit: "0.5", Currency: "JPY"}, "unit.places"},
		{"currency not ISO", Start{Variant: "zuger", Players: four, Currency: "ABC"}, "currency"},
		// A money's symbol or short word is answered with the code to write.
		{"currency as a symbol", Start{Variant: "zuger", Players: four, Currency: "€"}, "currency.symbol"},
		{"currency as a symbol of several", Start{Variant: "zuger", Players: four, Currency: "kr"}, "currency.symbols"},
		{"a house rule of another variant", Start{Variant: "zuger", Players: four, Rules: map[string]json.RawMessage{"stake": []byte("2")}}, "rules.unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			given(t).when(c.cmd).thenErr(problem.Input, c.code)
		})
	}
}

// A unit finer than its currency is refused with one the currency can pay;
// without a currency any places are money, and trailing zeros are no finer.
func TestUnitInItsCurrency(t *testing.T) {
	for _, c := range []struct{ unit, currency, says string }{
		{"0.125", "CHF", "unit: 0.125 has more decimal places than CHF has (2), so what it adds up to could not be paid exactly; give a unit such as 0.13"},
		{"0.001", "EUR", "give a unit such as 0.01"},
		{"0.5", "JPY", "give a unit such as 1"},
		{"2.5", "JPY", "give a unit such as 3"},
	} {
		_, err := CheckUnit(c.unit, c.currency)
		if pe, ok := problem.As(err); !ok || pe.Code != "unit.places" || pe.Field != "unit" || !strings.Contains(err.Error(), c.says) {
			t.Errorf("unit %s %s: %v, want %q", c.unit, c.currency, err, c.says)
		}
	}
	for _, c := range []struct{ unit, currency, kept string }{
		{"0.125", "", "0.125"}, {"0.50", "CHF", "0.50"}, {"0.500", "CHF", "0.500"}, {"10", "JPY", "10"}, {"0.005", "KWD", "0.005"}, {"", "EUR", "1"},
	} {
		if got, err := CheckUnit(c.unit, c.currency); err != nil || got != c.kept {
			t.Errorf("unit %q %s: %q %v, want %q", c.unit, c.currency, got, err, c.kept)
		}
	}
}

func TestCommandsOnAGameNotStarted(t *testing.T) {
	given(t).when(RecordHand{Record: pass()}).thenErr(problem.NotFound, "notfound.game")
}

// rules.md zuger: solo (base 2) won with 70, losers over 21: +3v, −v each.
func TestRecordHand(t *testing.T) {
	game(t, "zuger", four, nil).when(RecordHand{Record: solo("Ben", 70, 5)}).
		then(HandRecorded{Hand: 1, Dealer: "Anna", Record: solo("Ben", 70, 5), PotAfter: u(0),
			Scored: scored(0, "Anna", -2, "Ben", 6, "Cleo", -2, "Dan", -2)})
}

func TestRecordHandRefusals(t *testing.T) {
	g := game(t, "zuger", four, nil)
	g.when(RecordHand{Record: solo("Ben", 130, 5)}).thenErr(problem.Input, "points.range")
	g.when(RecordHand{Record: solo("Zoe", 70, 5)}).thenErr(problem.Input, "player.unknown")
	g.when(RecordHand{Record: pass(), Checks: Checks{Dealer: sp("Ben")}}).thenErr(problem.Conflict, "conflict.dealer")
	g.when(RecordHand{Record: pass(), Checks: Checks{Dealer: sp("Zoe")}}).thenErr(problem.Conflict, "conflict.dealer-unknown")
	g.when(RecordHand{Record: pass(), Checks: Checks{ExpectedHand: ip(2)}}).thenErr(problem.Conflict, "conflict.hand")
	g.and(RecordHand{Record: pass(), Checks: Checks{Dealer: sp("Anna"), ExpectedHand: ip(1)}}, Close{})
	g.when(RecordHand{Record: pass()}).thenErr(problem.Conflict, "conflict.closed")
}

// rules.md matzlfangen: a side that took no trick cannot have caught the
// matzl; such a record is refused, never scored as a cancelled deal.
func TestMatzlByATricklessSideRefused(t *testing.T) {
	g := game(t, "matzlfangen", four, nil)
	rec := payout.Record{Contract: "treiben", Declarer: "Ben", Trump: "hearts", Points: ip(0), Tricks: ip(0), Matzl: payout.MatzlDeclarer}
	g.when(RecordHand{Record: rec}).thenErr(problem.Input, "matzl.declarer-no-trick")
}

func TestAnnounceStepsAndCount(t *testing.T) {
	g := game(t, "matzlfangen", four, nil)
	g.when(RaiseKontra{Level: 1}).thenErr(problem.Conflict, "conflict.no-deal")
	g.when(Count{Counts: payout.Record{Points: ip(70), Tricks: ip(5)}}).thenErr(problem.Conflict, "conflict.no-deal")
	g.when(Announce{Record: payout.Record{Contract: "rufen", Partner: "Dan", Points: ip(70)}}).thenErr(problem.Input, "step.later")
	rufen := payout.Record{Contract: "rufen", Partner: "Dan", Trump: "hearts"}
	g.when(Announce{Record: rufen}).then(DealAnnounced{Hand: 1, Record: rufen})
	g.and(Announce{Record: rufen})
	g.when(RaiseKontra{Level: 11}).thenErr(problem.Input, "kontra.range")
	g.when(RaiseKontra{Level: 2}).then(DealKontra{Hand: 1, Level: 2})
	g.and(RaiseKontra{Level: 2})
	g.when(CatchMatzl{Side: "nobody"}).thenErr(problem.Input, "matzl.unknown")
	g.when(CatchMatzl{Side: payout.MatzlDeclarer}).then(DealMatzl{Hand: 1, Side: payout.MatzlDeclarer})
	g.and(CatchMatzl{Side: payout.MatzlDeclarer})
	// rules.md matzlfangen: rufen won simply (1) + kontra 2 + matzl caught
	// by the winners (+1) = 4; forehand Ben and partner Dan each +4.
	full := rufen
	full.Kontra, full.Matzl, full.Points, full.Tricks = ip(2), payout.MatzlDeclarer, ip(70), ip(5)
	next := g.when(Count{Counts: payout.Record{Points: ip(70), Tricks: ip(5)}}).
		then(HandRecorded{Hand: 1, Dealer: "Anna", Record: full, PotAfter: u(0),
			Scored: scored(0, "Anna", -4, "Ben", 4, "Cleo", -4, "Dan", 4)})
	if next.Pending != nil {
		t.Fatal("the count left the deal pending")
	}
}

// rules.md old-tapp: the dealer's stake goes into the pot; a won solo takes
// the whole pot (this deal's stake included) and ⌈excess/2⌉ from each.
func oldTapp(t *testing.T) *scenario {
	return game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"}).
		and(RecordHand{Record: pass()}, RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(70)}})
}

func TestOldTappPot(t *testing.T) {
	g := oldTapp(t)
	if !g.state.Pot().IsZero() || g.state.Balance(2).String() != "14" {
		t.Fatalf("pot %s, Cleo %s; want 0 and 14", g.state.Pot(), g.state.Balance(2))
	}
}

// A correction that leaves the pot after the deal as it was re-scores
// nothing later.
func TestCorrectHand(t *testing.T) {
	rec := payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(73)}
	oldTapp(t).when(CorrectHand{Hand: 1, Record: rec, Reason: "it was played"}).
		then(HandCorrected{Hand: 1, Record: rec, Reason: "it was played", PotAfter: u(2),
			Scored: scored(2, "Anna", 6, "Ben", -4, "Cleo", -4)})
}

// A correction begun when deal 1 had been entered once meets another
// phone's correction made since: refused, saying what the deal reads now,
// instead of quietly undoing it. Begun after it, it is made.
func TestCorrectionMeetsAnotherCorrection(t *testing.T) {
	theirs := payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(73)}
	mine := payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(50)}
	g := oldTapp(t).and(CorrectHand{Hand: 1, Record: theirs, Reason: "it was played"})
	if n := g.state.Hand(1).Entered(); n != 2 {
		t.Fatalf("deal 1 entered %d times", n)
	}
	stale := CorrectHand{Hand: 1, Record: mine, Reason: "Ben played", Checks: Checks{Entered: ip(1)}}
	g.when(stale).thenErr(problem.Conflict, "conflict.entered")
	err := g.when(stale).err
	if !problem.IsKind(err, problem.Conflict) || !strings.Contains(err.Error(), "deal 1 was changed by someone else") ||
		!strings.Contains(err.Error(), "Coeurfrage by Anna won with 73 points") {
		t.Fatalf("a correction over another: %v", err)
	}
	// A void since is a change too: a correction begun before it does not
	// bring the deal back unasked.
	voided := oldTapp(t).and(VoidHand{Hand: 1, Reason: "misdeal"})
	if n := voided.state.Hand(1).Changes(); n != 2 {
		t.Fatalf("deal 1 changed %d times", n)
	}
	if err := voided.when(CorrectHand{Hand: 1, Record: mine, Reason: "Ben played", Checks: Checks{Changes: ip(1)}}).err; !strings.Contains(fmt.Sprint(err), "it now reads: voided (misdeal)") {
		t.Fatalf("a correction begun before a void: %v", err)
	}
	g.when(CorrectHand{Hand: 1, Record: mine, Reason: "Ben played", Checks: Checks{Entered: ip(2)}}).
		then(HandCorrected{Hand: 1, Record: mine, Reason: "Ben played", PotAfter: u(5),
			Scored: scored(5, "Anna", 3-2, "Ben", -9, "Cleo", 3)}, HandRescored{Hand: 2, Cause: 1, PotAfter: u(0), Scored: scored(-5, "Anna", -5, "Ben", -5-2, "Cleo", 10+7)})
}

// Voiding deal 1, a coeurfrage lost into the pot, takes its payments back
// but keeps Anna's stake in the pot (rules.md "Decisions": a misdeal was
// dealt), so the solo of deal 2 takes a smaller pot: deal 2 is re-scored,
// caused by deal 1.
func TestVoidHandRescoresLaterDeals(t *testing.T) {
	lost := payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(50)}
	g := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"}).
		and(RecordHand{Record: lost}, RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(70)}})
	next := g.when(VoidHand{Hand: 1, Reason: "misdeal"}).
		then(HandVoided{Hand: 1, Reason: "misdeal", StakeKept: dp(2)},
			HandRescored{Hand: 2, Cause: 1, PotAfter: u(0), Scored: scored(-2, "Anna", -5, "Ben", -7, "Cleo", 14)})
	if !next.Pot().IsZero() || next.Balance(0).String() != "-7" {
		t.Fatalf("pot %s, Anna %s; want 0 and -7 (her stake kept, the solo's 5)", next.Pot(), next.Balance(0))
	}
}

func TestCorrectAndVoidRefusals(t *testing.T) {
	g := oldTapp(t)
	g.when(CorrectHand{Hand: 3, Record: pass()}).thenErr(problem.NotFound, "notfound.hand")
	g.when(CorrectHand{Hand: 1, Record: pass(), Reason: "a\u202ebc"}).thenErr(problem.Input, "text.bidi")
	g.when(VoidHand{Hand: 9, Reason: "x"}).thenErr(problem.NotFound, "notfound.hand")
	g.when(VoidHand{Hand: 1, Reason: "  "}).thenErr(problem.Input, "void.reason")
	g.and(VoidHand{Hand: 1, Reason: "misdeal"})
	g.when(VoidHand{Hand: 1, Reason: "again"}).thenErr(problem.Conflict, "conflict.voided")
}

func TestClose(t *testing.T) {
	// zuger: no pot to share; the one transfer settles the solo.
	game(t, "zuger", four, nil).and(RecordHand{Record: solo("Ben", 70, 5)}).when(Close{}).
		then(GameClosed{Split: scored(0, "Anna", 0, "Ben", 0, "Cleo", 0, "Dan", 0).Deltas,
			Transfers: []Transfer{{From: "Anna", To: "Ben", Amount: u(2)}, {From: "Cleo", To: "Ben", Amount: u(2)}, {From: "Dan", To: "Ben", Amount: u(2)}}})
}

// An evening where nobody owes anything closes with "transfers": [], as
// closes always were written: decided again, a stored close must be the
// same bytes.
func TestCloseOwingNothingWritesNoTransfersAsAList(t *testing.T) {
	g := game(t, "zuger", four, nil).and(RecordHand{Record: pass()})
	ps, err := Decide(g.state, Close{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(ps[0]); !strings.Contains(string(b), `"transfers":[]`) {
		t.Fatalf("the close: %s", b)
	}
}

// rules.md old-tapp "End of the session": the pot shared equally, the
// leftover unit to the winner of the cut (the default remainder rule).
func TestCloseSharesThePot(t *testing.T) {
	g := game(t, "old-tapp", three, nil).and(RecordHand{Record: pass()}, RecordHand{Record: pass()})
	g.when(Close{}).thenErr(problem.Input, "split.remainder-needed")
	g.when(Close{RemainderTo: []string{"Zoe"}}).thenErr(problem.Input, "split.remainder-player")
	next := g.when(Close{RemainderTo: []string{"Cleo"}}).
		then(GameClosed{RemainderTo: []string{"Cleo"}, Split: scored(0, "Anna", 1, "Ben", 1, "Cleo", 2).Deltas,
			Transfers: []Transfer{{From: "Anna", To: "Cleo", Amount: u(1)}, {From: "Ben", To: "Cleo", Amount: u(1)}}})
	if !next.Pot().IsZero() {
		t.Fatalf("the pot after closing holds %s", next.Pot())
	}
}

// A close sent with the version whose settlement was shown (the close
// page's) is refused once the evening has changed since: nobody ends it on
// numbers nobody saw. The version it was shown closes as the rules say.
func TestCloseOnTheVersionSeen(t *testing.T) {
	g := game(t, "old-tapp", three, nil).and(RecordHand{Record: pass()})
	seen := g.state.Version
	g.and(RecordHand{Record: pass()})
	g.when(Close{RemainderTo: []string{"Cleo"}, Seen: seen}).thenErr(problem.Conflict, "conflict.close-changed")
	g.when(Close{RemainderTo: []string{"Cleo"}, Seen: g.state.Version}).
		then(GameClosed{RemainderTo: []string{"Cleo"}, Split: scored(0, "Anna", 1, "Ben", 1, "Cleo", 2).Deltas,
			Transfers: []Transfer{{From: "Anna", To: "Cleo", Amount: u(1)}, {From: "Ben", To: "Cleo", Amount: u(1)}}})
}

// rules.md wuerttemberg "End of the evening", with four players.
func wuerttemberg(t *testing.T) *scenario {
	return game(t, "wuerttemberg", four, nil).and(
		RecordHand{Record: suit("Anna")}, RecordHand{Record: suit("Ben")})
}

func suit(who string) payout.Record {
	return payout.Record{Contract: "suit", Declarer: who, Trump: "clubs", Points: ip(70)}
}

func ramsch() payout.Record {
	rs := func(p, t int) payout.RamschScore { return payout.RamschScore{Points: ip(p), Tricks: ip(t)} }
	return payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": rs(50, 3), "Ben": rs(40, 3), "Cleo": rs(30, 2), "Dan": rs(0, 0)}}
}

func TestHerzAs(t *testing.T) {
	game(t, "zuger", four, nil).when(AnnounceHerzAs{}).thenErr(problem.Conflict, "conflict.herz-as-variant")
	game(t, "zuger", four, nil).when(SayHerzAsHolder{Player: "Ben"}).thenErr(problem.Conflict, "conflict.herz-as-variant")
	game(t, "zuger", four, nil).when(WithdrawHerzAs{}).thenErr(problem.Conflict, "conflict.herz-as-variant")
	g := wuerttemberg(t)
	g.when(AnnounceHerzAs{}).then(HerzAs{AfterHand: 2})
	g.when(SayHerzAsHolder{Player: "Dan"}).thenErr(problem.Conflict, "conflict.herz-as-none")
	g.when(WithdrawHerzAs{}).thenErr(problem.Conflict, "conflict.herz-as-none")
	g.and(AnnounceHerzAs{})
	g.when(AnnounceHerzAs{}).thenErr(problem.Conflict, "conflict.herz-as-again")
	g.when(WithdrawHerzAs{Reason: "said too soon"}).then(HerzAsWithdrawn{Reason: "said too soon"})
}

// The player dealt ♥A in deal 3 (Dan) deals the last regular deal the next
// time he deals: deal 4. Then each player deals one Zwangsramsch, 5–8, and
// the evening is over.
func TestTheEndOfTheEvening(t *testing.T) {
	g := wuerttemberg(t).and(AnnounceHerzAs{})
	g.when(SayHerzAsHolder{Player: "Dan"}).then(HerzAsHolder{Hand: 3, Player: "Dan"}) // known while deal 3 is played
	g.and(RecordHand{Record: suit("Cleo")})                                           // deal 3
	mayRecord(t, g.state, "")                                                         // deal 4 is regular whoever has ♥A
	g.when(SayHerzAsHolder{}).thenErr(problem.Input, "herz-as.player-missing")
	g.when(SayHerzAsHolder{Player: "Dan", InTapp: true}).thenErr(problem.Input, "herz-as.both")
	g.when(SayHerzAsHolder{Player: "Zoe"}).thenErr(problem.Input, "player.unknown")
	g.and(SayHerzAsHolder{Player: "Dan"})
	g.when(SayHerzAsHolder{Player: "Ben"}).thenErr(problem.Conflict, "conflict.herz-as-holder-known")
	e := g.state.End()
	if e.LastRegular != 4 || len(e.Zwangsramsch) != 4 || e.Zwangsramsch[0] != 5 || e.Phase != PhaseLastRound {
		t.Fatalf("end = %+v, want the last regular deal 4, Zwangsramsch 5–8", e)
	}
	mayRecord(t, g.state, "")
	g.and(RecordHand{Record: suit("Dan")}) // deal 4, the last regular one
	g.when(RecordHand{Record: suit("Anna")}).thenErr(problem.Conflict, "conflict.forced")
	mayRecord(t, g.state, "") // a Zwangsramsch may be recorded
	g.when(Announce{Record: payout.Record{Contract: "suit", Declarer: "Anna", Trump: "clubs"}}).thenErr(problem.Conflict, "conflict.forced")
	g.when(RecordHand{Record: ramsch()}).then(HandRecorded{Hand: 5, Dealer: "Anna", Record: ramsch(), PotAfter: u(0),
		Scored: scored(0, "Anna", -20, "Ben", 5, "Cleo", 5, "Dan", 10)}) // rules.md Ramsch: 5 each, 10 to a Jungfer
	g.and(RecordHand{Record: ramsch()}, RecordHand{Record: ramsch()}) // deals 5 and 6
	g.when(WithdrawHerzAs{}).thenErr(problem.Conflict, "conflict.herz-as-withdraw")
	g.when(CorrectHand{Hand: 5, Record: suit("Anna")}).thenErr(problem.Conflict, "conflict.forced")
	g.and(RecordHand{Record: ramsch()}, RecordHand{Record: ramsch()})
	if !g.state.End().Over() {
		t.Fatalf("after the last Zwangsramsch: %+v", g.state.End())
	}
	g.when(RecordHand{Record: ramsch()}).thenErr(problem.Conflict, "conflict.over")
	mayRecord(t, g.state, "conflict.over")
	// Corrections, voids and closing still work.
	g.and(CorrectHand{Hand: 4, Record: suit("Ben"), Reason: "Ben played it"}, VoidHand{Hand: 8, Reason: "misdeal"}, Close{})
	mayRecord(t, g.state, "conflict.closed")
}

// Nobody has said who was dealt ♥A in deal 3: deal 4 is a regular deal
// whoever it was (the holder deals it at the earliest, and then it is the
// last regular one: rules.md "End of the evening"), so it is recorded; deal
// 5 may be a Zwangsramsch, so it waits for the answer. Dan, who dealt
// deal 4, had it: deal 5 is the first Zwangsramsch.
func TestTheDealAfterTheQuestionWaitsNotTheOneBefore(t *testing.T) {
	g := wuerttemberg(t).and(AnnounceHerzAs{}, RecordHand{Record: suit("Cleo")}) // deal 3
	if e := g.state.End(); e.Phase != PhaseHolder || e.Question != 3 {
		t.Fatalf("after deal 3: %+v, want the holder of deal 3 asked", e)
	}
	g.when(RecordHand{Record: suit("Anna")}).then(HandRecorded{Hand: 4, Dealer: "Dan", Record: suit("Anna"), PotAfter: u(0),
		Scored: scored(0, "Anna", 15, "Ben", -5, "Cleo", -5, "Dan", -5)}) // rules.md: suit, clubs: 5 from each
	g.and(RecordHand{Record: suit("Anna")}) // deal 4
	g.when(RecordHand{Record: suit("Ben")}).thenErr(problem.Conflict, "conflict.holder-first")
	g.when(RecordHand{Record: ramsch()}).thenErr(problem.Conflict, "conflict.holder-first")
	mayRecord(t, g.state, "conflict.holder-first") // the form says so before anything is typed
	g.and(SayHerzAsHolder{Player: "Dan"})
	if e := g.state.End(); e.LastRegular != 4 || e.Phase != PhaseForced || e.Forced != 1 {
		t.Fatalf("Dan had ♥A in deal 3 and dealt deal 4: %+v, want deal 4 the last regular one and deal 5 Zwangsramsch 1", e)
	}
	g.when(RecordHand{Record: suit("Ben")}).thenErr(problem.Conflict, "conflict.forced")
}

// A mis-tap on who was dealt ♥A in deal 3 (Dan, who deals deal 4, so the
// last regular deal is 4) is mended to Ben (who deals deal 6): the last
// regular deal moves to 6 (rules.md Württemberg end of the evening). It
// can be mended while no recorded deal is regular under one answer and a
// Zwangsramsch under the other.
func TestHerzAsHolderChanged(t *testing.T) {
	g := wuerttemberg(t).and(AnnounceHerzAs{}, SayHerzAsHolder{Player: "Dan"}, RecordHand{Record: suit("Cleo")}, RecordHand{Record: suit("Dan")})
	if e := g.state.End(); e.LastRegular != 4 || e.Phase != PhaseForced {
		t.Fatalf("end = %+v", e)
	}
	g.when(SayHerzAsHolder{Player: "Dan", Change: true}).thenErr(problem.Conflict, "conflict.herz-as-holder-known")
	g.when(SayHerzAsHolder{InTapp: true, Change: true}).thenErr(problem.Input, "herz-as.player-missing")
	g.when(SayHerzAsHolder{Player: "Ben", Change: true}).then(HerzAsHolder{Hand: 3, Player: "Ben"})
	g.and(SayHerzAsHolder{Player: "Ben", Change: true})
	if e := g.state.End(); e.Holder != "Ben" || e.LastRegular != 6 || e.Zwangsramsch[0] != 7 || e.Phase != PhaseLastRound {
		t.Fatalf("after the change: %+v", e)
	}
	g.and(RecordHand{Record: suit("Anna")}) // deal 5: regular under Ben, a Zwangsramsch under Dan
	g.when(SayHerzAsHolder{Player: "Dan", Change: true}).thenErr(problem.Conflict, "conflict.herz-as-holder-late")
}

// mayRecord checks State.MayRecord, what a record form asks before it
// opens, against the refusal RecordHand gives ("" for none).
func mayRecord(t *testing.T, s *State, code string) {
	t.Helper()
	err := s.MayRecord()
	if pe, ok := problem.As(err); code == "" && err != nil || code != "" && (!ok || pe.Code != code) {
		t.Fatalf("MayRecord: %v, want %q", err, code)
	}
}

// rules.md: if the ♥A lay in the tapp, nobody was dealt it and the
// question passes to the deal after.
func TestHerzAsInTheTapp(t *testing.T) {
	g := wuerttemberg(t).and(AnnounceHerzAs{}, RecordHand{Record: suit("Cleo")}) // deal 3
	g.when(SayHerzAsHolder{InTapp: true}).then(HerzAsHolder{Hand: 3, InTapp: true})
	g.and(SayHerzAsHolder{InTapp: true})
	// Deal 4 is being played: who has ♥A in it may be said now, or that it
	// lies in the tapp again; about deal 5 nothing can be said yet.
	early := *g
	early.and(SayHerzAsHolder{InTapp: true})
	early.when(SayHerzAsHolder{Player: "Anna"}).thenErr(problem.Conflict, "conflict.herz-as-holder-early")
	g.and(RecordHand{Record: suit("Dan")}, SayHerzAsHolder{Player: "Anna"}) // deal 4: Anna had ♥A
	if e := g.state.End(); e.HolderHand != 4 || e.LastRegular != 5 || e.Zwangsramsch[3] != 9 {
		t.Fatalf("end = %+v, want ♥A in deal 4, Anna deals the last regular deal 5", e)
	}
}

// A game whose stored history broke is read as far as it holds and refuses
// every command, naming the event at fault.
func TestDamagedGameRefusesCommands(t *testing.T) {
	f := NewFolder("g1")
	for _, e := range events(0, []Payload{mustStart(t)}) {
		if err := f.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	f.Damaged(Damage{Version: 2, Seq: 7, Why: "its hash does not match its content: it was changed"})
	sc := &scenario{t: t, state: f.State()}
	sc.when(RecordHand{Record: pass()}).thenErr(problem.Conflict, "conflict.damaged")
	sc.when(Close{}).thenErr(problem.Conflict, "conflict.damaged")
}

// Every refusal the game has is met by a test: a scenario here, or, for
// the ones a request's shape decides, a test of the web handlers.
func TestEveryRefusalHasATest(t *testing.T) {
	var tests strings.Builder
	for _, glob := range []string{"*_test.go", "../web/*_test.go"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tests.Write(b)
		}
	}
	for code := range Messages().Messages() {
		if !strings.Contains(tests.String(), `"`+code+`"`) {
			t.Errorf("refusal %q is met by no test", code)
		}
	}
}

// An old-tapp solo without its trump (api.md: optional, the suit does not
// change the money) goes on as it was: re-scored after a correction before
// it, brought back after an undo, and counted when its announcement was
// stored without one; a new one may leave it out too.
func TestSoloStoredWithoutTrump(t *testing.T) {
	g := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"}).and(RecordHand{Record: pass()})
	solo := payout.Record{Contract: "solo", Declarer: "Cleo", Points: ip(70)}
	res, err := payout.Score(g.state.Setup, payout.Table{Dealer: g.state.DealerOf(2), Pot: g.state.Pot()}, solo)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewScored(g.state.Setup, res)
	if err != nil {
		t.Fatal(err)
	}
	g.fold(HandRecorded{Hand: 2, Dealer: g.state.Setup.Players[g.state.DealerOf(2)], Record: solo, PotAfter: addUnits(g.state.Pot(), sc.PotDelta), Scored: sc})
	if _, err := Decide(g.state, RecordHand{Record: solo}); err != nil {
		t.Fatalf("a new solo without trump: %v", err)
	}
	// Deal 1 corrected: the solo takes another pot and is re-scored.
	if ps, err := Decide(g.state, CorrectHand{Hand: 1, Record: payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(50)}, Reason: "recounted"}); err != nil || len(ps) != 2 {
		t.Fatalf("a correction before the stored solo: %d events, %v", len(ps), err)
	}
	// Undone, then brought back as it was.
	g.and(VoidHand{Hand: 2, Reason: "undo"})
	if _, err := Decide(g.state, CorrectHand{Hand: 2, Record: g.state.Hand(2).Record(), Reason: "undo taken back"}); err != nil {
		t.Fatalf("the stored solo brought back: %v", err)
	}
	// A trump given is checked: hearts is coeursolo's.
	other := solo
	other.Trump = "hearts"
	g.when(CorrectHand{Hand: 2, Record: other, Reason: "recounted"}).thenErr(problem.Input, "trump.not-allowed")

	// Announced step by step before the trump was required, counted now.
	p := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"})
	p.fold(DealAnnounced{Hand: 1, Record: payout.Record{Contract: "solo", Declarer: "Cleo"}})
	if _, err := Decide(p.state, Count{Counts: payout.Record{Points: ip(70)}}); err != nil {
		t.Fatalf("counting a solo announced without trump: %v", err)
	}
	p2 := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"})
	p2.when(Announce{Record: payout.Record{Contract: "solo", Declarer: "Cleo"}}).then(DealAnnounced{Hand: 1, Record: payout.Record{Contract: "solo", Declarer: "Cleo"}})
}

// A second phone answering the ♥A question is told what the first said:
// who had it, or that it lay in the tapp and the question passed on.
func TestHerzAsAnsweredSaysWhat(t *testing.T) {
	answered := func(s *State, code, says string) {
		t.Helper()
		err := s.End().Answered()
		if code == "" {
			if err != nil {
				t.Fatalf("nothing answered yet: %v", err)
			}
			return
		}
		if pe, ok := problem.As(err); !ok || pe.Code != code || !strings.Contains(err.Error(), says) {
			t.Fatalf("answered: %v, want %s saying %q", err, code, says)
		}
	}
	g := wuerttemberg(t).and(AnnounceHerzAs{}, RecordHand{Record: suit("Cleo")}) // deal 3
	answered(g.state, "", "")
	g.and(SayHerzAsHolder{InTapp: true})
	answered(g.state, "conflict.herz-as-in-tapp", "deal 3")
	g.and(RecordHand{Record: suit("Dan")}, SayHerzAsHolder{Player: "Ben"}) // deal 4: Ben had it
	answered(g.state, "conflict.herz-as-holder-known", "Ben")
}

// Three players, Herz-As after deal 1; deal 2 (the question) and deal 3
// are recorded before anyone answers, then the ♥A is said to have lain in
// the tapp in deal 2: the question passes to deal 3, already played, so
// deal 4 (regular whoever had it in deal 3) may be recorded, and deal 5
// waits for the answer. Cleo had it and deals deal 6: the last regular one.
func TestInTappSaidAfterTheNextDeal(t *testing.T) {
	g := game(t, "wuerttemberg", three, nil).and(RecordHand{Record: suit("Anna")}, AnnounceHerzAs{},
		RecordHand{Record: suit("Ben")}, RecordHand{Record: suit("Cleo")}) // deals 1, 2, 3
	mayRecord(t, g.state, "conflict.holder-first") // deal 4 waits for deal 2's answer
	g.and(SayHerzAsHolder{InTapp: true})
	if e := g.state.End(); e.Phase != PhaseHolder || e.Question != 3 {
		t.Fatalf("after the ♥A lay in the tapp in deal 2: %+v, want deal 3's holder asked", e)
	}
	mayRecord(t, g.state, "")
	g.and(RecordHand{Record: suit("Anna")}) // deal 4
	mayRecord(t, g.state, "conflict.holder-first")
	g.and(SayHerzAsHolder{Player: "Cleo"})
	if e := g.state.End(); e.LastRegular != 6 || len(e.Zwangsramsch) != 3 || e.Zwangsramsch[0] != 7 || e.Phase != PhaseLastRound {
		t.Fatalf("Cleo had the ♥A in deal 3: %+v, want deal 6 the last regular one, Zwangsramsch 7–9", e)
	}
}
