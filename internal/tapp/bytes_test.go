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
