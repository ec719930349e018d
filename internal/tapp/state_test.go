package tapp

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"tappbook/internal/payout"
)

// A state is a snapshot: evolving it, even twice from the same state (two
// successors, as a refold beside a command would make), never changes what
// an older state shows.
func TestStatesAreSnapshots(t *testing.T) {
	g := oldTapp(t)
	before := g.state
	was := js(map[string]any{"hands": handsView(before), "balances": before.Balances(), "pot": before.Pot()})

	a, err := Evolve(before, events(before.Version, mustDecide(t, before, RecordHand{Record: pass()}))...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Evolve(before, events(before.Version, mustDecide(t, before, RecordHand{Record: payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(80)}}))...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Evolve(a, events(a.Version, mustDecide(t, a, VoidHand{Hand: 1, Reason: "misdeal"}))...)
	if err != nil {
		t.Fatal(err)
	}
	if now := js(map[string]any{"hands": handsView(before), "balances": before.Balances(), "pot": before.Pot()}); now != was {
		t.Fatalf("evolving changed the older state:\nwas %s\nnow %s", was, now)
	}
	if a.Hand(3).Record().Contract != "pass" || b.Hand(3).Record().Contract != "coeurfrage" {
		t.Fatalf("two successors of one state share a deal: %s / %s", a.Hand(3).Record().Contract, b.Hand(3).Record().Contract)
	}
	if a.Hand(1).Voided || !c.Hand(1).Voided {
		t.Fatal("a void showed in the state it was decided on")
	}
}

// Successors of one state evolved at the same time (run with -race) each
// keep their own deal: claiming the spare slot after the deals is one
// compare and swap, not a write two evolvers could both make.
func TestSuccessorsEvolvedAtOnce(t *testing.T) {
	before := oldTapp(t).state
	contracts := []string{"pass", "coeurfrage", "solo", "pass", "coeurfrage", "solo", "pass", "coeurfrage"}
	got := make([]*State, len(contracts))
	var wg sync.WaitGroup
	for i, c := range contracts {
		rec := pass()
		switch c {
		case "coeurfrage":
			rec = payout.Record{Contract: c, Declarer: "Ben", Points: ip(80)}
		case "solo":
			rec = payout.Record{Contract: c, Declarer: "Anna", Trump: "clubs", Points: ip(70)}
		}
		evs := events(before.Version, mustDecide(t, before, RecordHand{Record: rec}))
		wg.Go(func() {
			var err error
			if got[i], err = Evolve(before, evs...); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, c := range contracts {
		if got[i] == nil {
			continue
		}
		if h := got[i].Hand(3); h == nil || h.Record().Contract != c {
			t.Errorf("successor %d shows deal 3 as %v, want %s", i, h, c)
		}
	}
	if len(before.Hands()) != 2 {
		t.Fatalf("the state they came from has %d deals, want 2", len(before.Hands()))
	}
}

func mustDecide(t *testing.T, s *State, c Command) []Payload {
	t.Helper()
	ps, err := Decide(s, c)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// Folding all events at once and evolving them one command at a time give
// the same game, after random records, corrections and voids; the balances
// and the pot always sum to zero.
func TestFoldEqualsEvolve(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 9))
		g := game(t, "old-tapp", three, map[string]any{"stake": 2})
		var all []Event
		all = append(all, events(0, []Payload{mustStart(t)})...)
		for range 80 {
			n := len(g.state.Hands())
			var cmd Command = RecordHand{Record: randomOldTapp(rng)}
			switch k := rng.IntN(10); {
			case k == 0 && n > 0:
				cmd = VoidHand{Hand: 1 + rng.IntN(n), Reason: "misdeal"}
			case k < 3 && n > 0:
				cmd = CorrectHand{Hand: 1 + rng.IntN(n), Record: randomOldTapp(rng), Reason: "typo"}
			}
			ps, err := Decide(g.state, cmd)
			if err != nil {
				continue // a void of a voided deal
			}
			evs := events(g.state.Version, ps)
			all = append(all, evs...)
			if g.state, err = Evolve(g.state, evs...); err != nil {
				t.Fatal(err)
			}
			sum := g.state.Pot()
			for _, b := range g.state.Balances() {
				sum = sum.Add(b)
			}
			if !sum.IsZero() {
				t.Fatalf("seed %d: balances and pot sum to %s", seed, sum)
			}
		}
		folded, err := Fold("g1", all)
		if err != nil {
			t.Fatal(err)
		}
		view := func(s *State) string {
			return js(map[string]any{"hands": handsView(s), "balances": s.Balances(), "pot": s.Pot(), "v": s.Version})
		}
		if view(folded) != view(g.state) {
			t.Fatalf("seed %d: the fold differs from the evolved state", seed)
		}
	}
}

func mustStart(t *testing.T) Payload {
	return mustDecide(t, New("g1"), Start{ID: "g1", ReadID: "r1", Variant: "old-tapp", Players: three,
		Rules: map[string]json.RawMessage{"stake": json.RawMessage("2")}})[0]
}

func randomOldTapp(rng *rand.Rand) payout.Record {
	who := three[rng.IntN(3)]
	switch rng.IntN(4) {
	case 0:
		return pass()
	case 1:
		return payout.Record{Contract: "coeurfrage", Declarer: who, Points: ip(rng.IntN(117) + 2)}
	case 2:
		return payout.Record{Contract: "coeursolo", Declarer: who, Points: ip(rng.IntN(117) + 2)}
	}
	return payout.Record{Contract: "solo", Declarer: who, Trump: "clubs", Points: ip(rng.IntN(117) + 2)}
}

// A stored history that does not add up is refused where it is read, never
// folded: payments that do not sum to zero, a deal out of turn, a stranger.
func TestTheFoldChecksWhatItReads(t *testing.T) {
	start := mustStart(t)
	for _, c := range []struct {
		name string
		bad  Payload
		want string
	}{
		{"payments that do not sum to zero", HandRecorded{Hand: 1, Dealer: "Anna", Record: pass(), Scored: scored(2, "Anna", -1)}, "sum to"},
		{"a deal out of turn", HandRecorded{Hand: 2, Dealer: "Ben", Record: pass(), Scored: scored(2, "Ben", -2)}, "recorded after"},
		{"the wrong dealer", HandRecorded{Hand: 1, Dealer: "Ben", Record: pass(), Scored: scored(2, "Ben", -2)}, "dealt by"},
		{"a stranger", HandRecorded{Hand: 1, Dealer: "Anna", Record: pass(), Scored: scored(2, "Anna", -2, "Zoe", 0)}, "not a player"},
		{"a void of no deal", HandVoided{Hand: 4, Reason: "x"}, "no hand 4"},
	} {
		_, err := Fold("g1", events(0, []Payload{start, c.bad}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		// and as a replay folds them: from their stored bytes, read by
		// DecodeForFold
		f := NewFolder("g1")
		for i, p := range []Payload{start, c.bad} {
			raw, _ := encodePayload(p)
			if p, err = DecodeForFold(p.EventType(), raw, three); err == nil {
				err = f.Apply(Event{Version: int64(i + 1), Data: p, Raw: raw})
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, replayed: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// handsView is everything a game's deals say, decoded, for comparing two
// states: each deal's record, result and explanation, and each revision's.
func handsView(s *State) []map[string]any {
	result := func(r *Result) map[string]any {
		if r == nil {
			return nil
		}
		return map[string]any{"deltas": r.Deltas(), "pot": r.PotDelta(), "text": r.Text(), "ruleset": r.Ruleset(),
			"why": r.Explanation(), "json": r.ExplanationJSON()}
	}
	var out []map[string]any
	for _, h := range s.Hands() {
		var revs []map[string]any
		for _, r := range h.Revisions {
			revs = append(revs, map[string]any{"kind": r.Kind, "at": r.At, "reason": r.Reason, "cause": r.Cause,
				"record": r.Record(), "result": result(r.Result())})
		}
		out = append(out, map[string]any{"n": h.Number, "dealer": h.Dealer, "voided": h.Voided, "why": h.VoidReason,
			"record": h.Record(), "result": result(h.Result()), "revisions": revs})
	}
	return out
}
