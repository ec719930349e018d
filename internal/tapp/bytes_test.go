package tapp

import (
	"testing"

	"tappbook/internal/payout"
)

// A game weighs what its deals hold: given an evening, when a deal is
// recorded it weighs more by at least that deal's stored bytes; when a
// deal is corrected, more again (the correction's revision and bytes);
// the state it evolved from weighs what it did.
func TestAStateWeighsWhatItsDealsHold(t *testing.T) {
	g := oldTapp(t)
	before := g.state
	was := before.Bytes()
	a, err := Evolve(before, events(before.Version, mustDecide(t, before, RecordHand{Record: payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(80)}}))...)
	if err != nil {
		t.Fatal(err)
	}
	raw := len(a.Hand(a.NextHand() - 1).Revisions[0].result.raw)
	if raw == 0 || a.Bytes() < was+raw {
		t.Fatalf("a deal of %d stored bytes recorded: %d bytes, was %d", raw, a.Bytes(), was)
	}
	c, err := Evolve(a, events(a.Version, mustDecide(t, a, CorrectHand{Hand: 1, Record: pass(), Reason: "recounted"}))...)
	if err != nil {
		t.Fatal(err)
	}
	if c.Bytes() <= a.Bytes() {
		t.Fatalf("a correction weighs nothing: %d bytes before, %d after", a.Bytes(), c.Bytes())
	}
	if before.Bytes() != was {
		t.Fatalf("evolving changed what the older state weighs: %d, was %d", before.Bytes(), was)
	}
}

// What a game weighs is kept as its deals come, change and go, never
// walked: given an old-tapp evening, after each of a deal recorded, a
// correction that re-scores the deal after it, a void that keeps the
// dealer's stake, a deal retracted and one recorded again, the state
// weighs what its deals and retracted deals hold, walked one by one.
func TestAStatesWeightFollowsItsDeals(t *testing.T) {
	lost := payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(50)}
	g := game(t, "old-tapp", three, map[string]any{"stake": 2, "remainder": "cut"})
	walked := func(s *State) int {
		n := 0
		for _, h := range append(s.Hands(), s.Retracted()...) {
			n += h.bytes()
		}
		return n
	}
	for _, c := range []Command{
		RecordHand{Record: lost},
		RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(70)}},
		CorrectHand{Hand: 1, Record: payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: ip(40)}, Reason: "recounted"},
		VoidHand{Hand: 1, Reason: "misdeal"},
		RetractHand{Hand: 2, Reason: "entered twice"},
		RecordHand{Record: pass()},
	} {
		g.and(c)
		if got, want := g.state.Bytes(), walked(g.state); got != want || got == 0 {
			t.Fatalf("after %T: weighs %d bytes, its deals hold %d", c, got, want)
		}
	}
	if len(g.state.Retracted()) != 1 || g.state.Hand(1).Revisions[len(g.state.Hand(1).Revisions)-1].Kind != TypeHandVoided {
		t.Fatalf("the evening did not go as meant: %d retracted", len(g.state.Retracted()))
	}
}
