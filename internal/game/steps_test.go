package game

import (
	"bytes"
	"context"
	"testing"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// A deal recorded step by step (announce, kontra raises, matzl, count) and
// the same deal recorded in one call append the same hand.recorded event.
func TestStepsEqualOneCall(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	steps, _ := svc.Create(ctx, NewGame{Variant: "matzlfangen", Players: players}, "")
	once, _ := svc.Create(ctx, NewGame{Variant: "matzlfangen", Players: players}, "")

	// Hand 1: Anna deals, Ben is forehand and plays rufen with Dan.
	if err := svc.Announce(ctx, steps.ID, payout.Record{Contract: "rufen", Partner: "Dan", Trump: payout.Hearts}, Checks{ExpectedHand: ip(1)}, ""); err != nil {
		t.Fatal(err)
	}
	for level := 1; level <= 5; level++ { // Schuß … Hirsch, one raise at a time
		if err := svc.Kontra(ctx, steps.ID, level, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Matzl(ctx, steps.ID, payout.MatzlDeclarer, ""); err != nil {
		t.Fatal(err)
	}
	a, err := svc.Count(ctx, steps.ID, payout.Record{Points: ip(70), Tricks: ip(5)}, Checks{}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := svc.Record(ctx, once.ID, payout.Record{Contract: "rufen", Partner: "Dan", Trump: payout.Hearts,
		Kontra: ip(5), Matzl: payout.MatzlDeclarer, Points: ip(70), Tricks: ip(5)}, Checks{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Scored.Text != b.Scored.Text || !bytes.Equal(a.Scored.Explanation, b.Scored.Explanation) || a.Scored.Explain().Value.String() != "7" {
		t.Fatalf("steps gave %+v, one call %+v", a, b)
	}
	last := func(id string) []byte {
		evs, err := svc.Events(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return evs[len(evs)-1].Data
	}
	if !bytes.Equal(last(steps.ID), last(once.ID)) {
		t.Fatalf("hand.recorded differs:\nsteps    %s\none call %s", last(steps.ID), last(once.ID))
	}
	_ = svc.View(ctx, steps.ID, func(g *tapp.State) error {
		if g.Pending != nil || len(g.Hands()) != 1 {
			t.Fatalf("after the count: pending %v, %d hands", g.Pending, len(g.Hands()))
		}
		return nil
	})
	// The steps fold the same from the store.
	rebuilt, err := svc.fold(ctx, steps.ID)
	if err != nil || rebuilt.Version != 9 || len(rebuilt.Hands()) != 1 {
		t.Fatalf("rebuilt: %+v %v", rebuilt, err)
	}
}

func TestStepChecks(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g, _ := svc.Create(ctx, NewGame{Variant: "matzlfangen", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err := svc.Kontra(ctx, g.ID, 1, ""); !problem.IsKind(err, problem.Conflict) {
		t.Fatalf("kontra with no deal announced: %v", err)
	}
	if _, err := svc.Count(ctx, g.ID, payout.Record{Points: ip(70), Tricks: ip(5)}, Checks{}, ""); !problem.IsKind(err, problem.Conflict) {
		t.Fatalf("count with no deal announced: %v", err)
	}
	code := func(err error) string {
		if ie, ok := problem.As(err); ok && ie.Kind == problem.Input {
			return ie.Code
		}
		return "not an input error: " + errString(err)
	}
	if c := code(svc.Announce(ctx, g.ID, payout.Record{Contract: "rufen", Partner: "Zoe"}, Checks{}, "")); c != "player.unknown" {
		t.Fatalf("announce with a stranger: %s", c)
	}
	if c := code(svc.Announce(ctx, g.ID, payout.Record{Contract: "durch", Declarer: "Ben", Points: ip(3)}, Checks{}, "")); c != "step.later" {
		t.Fatalf("announce with points: %s", c)
	}
	if err := svc.Announce(ctx, g.ID, payout.Record{Contract: "durch", Declarer: "Cleo"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	if c := code(svc.Matzl(ctx, g.ID, payout.MatzlDefenders, "")); c != "matzl.no-trump" {
		t.Fatalf("matzl in a durch: %s", c)
	}
	if c := code(svc.Kontra(ctx, g.ID, 11, "")); c != "kontra.range" {
		t.Fatalf("kontra 11: %s", c)
	}
	// The count still needs what the contract needs.
	if c := code(func() error { _, err := svc.Count(ctx, g.ID, payout.Record{}, Checks{}, ""); return err }()); c != "tricks.missing" {
		t.Fatalf("count without tricks: %s", c)
	}
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}
