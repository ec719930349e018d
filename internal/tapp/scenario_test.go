package tapp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// Command scenarios in memory, go-eventually style: given the events of a
// game (or the commands that made them), when a command comes, then these
// events are decided, or this refusal. No store, no clock.

type scenario struct {
	t     *testing.T
	state *State
}

var at = time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)

// given folds events into a new game.
func given(t *testing.T, ps ...Payload) *scenario {
	t.Helper()
	sc := &scenario{t: t, state: New("g1")}
	sc.fold(ps...)
	return sc
}

// game starts an evening of a variant with these players and house rules.
func game(t *testing.T, variant string, players []string, rules map[string]any) *scenario {
	t.Helper()
	raw := map[string]json.RawMessage{}
	for k, v := range rules {
		b, _ := json.Marshal(v)
		raw[k] = b
	}
	sc := &scenario{t: t, state: New("g1")}
	return sc.and(Start{ID: "g1", ReadID: "r1", Variant: variant, Players: players, Rules: raw})
}

func (sc *scenario) fold(ps ...Payload) {
	sc.t.Helper()
	for _, p := range ps {
		next, err := Evolve(sc.state, Event{Version: sc.state.Version + 1, At: at, Data: p})
		if err != nil {
			sc.t.Fatalf("given %T: %v", p, err)
		}
		sc.state = next
	}
}

// and runs commands that must succeed, folding what they decide.
func (sc *scenario) and(cmds ...Command) *scenario {
	sc.t.Helper()
	for _, c := range cmds {
		ps, err := Decide(sc.state, c)
		if err != nil {
			sc.t.Fatalf("given %T %+v: %v", c, c, err)
		}
		sc.fold(ps...)
	}
	return sc
}

type outcome struct {
	sc     *scenario
	events []Payload
	err    error
}

func (sc *scenario) when(c Command) outcome {
	ps, err := Decide(sc.state, c)
	return outcome{sc: sc, events: ps, err: err}
}

// then checks the decided events, field by field as stored. Where a wanted
// deal leaves its explanation out, only the amounts are compared.
func (o outcome) then(want ...Payload) *State {
	t := o.sc.t
	t.Helper()
	if o.err != nil {
		t.Fatalf("refused: %v", o.err)
	}
	if len(o.events) != len(want) {
		t.Fatalf("decided %d events %s, want %d %s", len(o.events), js(o.events), len(want), js(want))
	}
	for i := range want {
		got := o.events[i]
		if got.EventType() != want[i].EventType() {
			t.Fatalf("event %d is %s, want %s", i, got.EventType(), want[i].EventType())
		}
		if g, w := js(amountsOnly(got, want[i])), js(want[i]); g != w {
			t.Fatalf("event %d:\n got %s\nwant %s", i, g, w)
		}
	}
	next, err := Evolve(o.sc.state, events(o.sc.state.Version, o.events)...)
	if err != nil {
		t.Fatalf("the decided events do not fold: %v", err)
	}
	return next
}

// thenErr checks the refusal's kind and code, and that nothing was decided.
func (o outcome) thenErr(kind problem.Kind, code string) {
	t := o.sc.t
	t.Helper()
	pe, ok := problem.As(o.err)
	if !ok || pe.Kind != kind || pe.Code != code {
		t.Fatalf("got %v (%+v) and %d events, want a %s refusal %q", o.err, pe, len(o.events), kind, code)
	}
	if o.events != nil {
		t.Fatalf("a refusal decided events: %s", js(o.events))
	}
}

func events(after int64, ps []Payload) []Event {
	out := make([]Event, len(ps))
	for i, p := range ps {
		out[i] = Event{Version: after + int64(i) + 1, At: at, Data: p}
	}
	return out
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// amountsOnly drops the explanation of a scored event when want has none.
func amountsOnly(got, want Payload) Payload {
	blank := func(s *Scored, w Scored) {
		if w.Text == "" {
			s.Explanation, s.Text, s.Ruleset = nil, "", ""
		}
	}
	switch g := got.(type) {
	case HandRecorded:
		blank(&g.Scored, want.(HandRecorded).Scored)
		return g
	case HandCorrected:
		blank(&g.Scored, want.(HandCorrected).Scored)
		return g
	case HandRescored:
		blank(&g.Scored, want.(HandRescored).Scored)
		return g
	}
	return got
}

func ip(n int) *int               { return &n }
func sp(s string) *string         { return &s }
func bp(b bool) *bool             { return &b }
func u(n int64) decimal.Decimal   { return decimal.New(n, 0) }
func dp(n int64) *decimal.Decimal { d := u(n); return &d }

// scored is a deal's amounts by player, with the pot's change.
func scored(pot int64, deltas ...any) Scored {
	m := map[string]decimal.Decimal{}
	for i := 0; i < len(deltas); i += 2 {
		m[deltas[i].(string)] = u(int64(deltas[i+1].(int)))
	}
	return Scored{Deltas: m, PotDelta: u(pot)}
}

var (
	four  = []string{"Anna", "Ben", "Cleo", "Dan"}
	three = []string{"Anna", "Ben", "Cleo"}
)

func solo(who string, points, tricks int) payout.Record {
	return payout.Record{Contract: "solo", Declarer: who, Points: ip(points), Tricks: ip(tricks)}
}

func pass() payout.Record { return payout.Record{Contract: "pass"} }
