package group

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// Command scenarios in memory, in the style of internal/tapp's: given the
// events of a group (or the commands that made them), when a command comes,
// then these events are decided, or this refusal. No store, no clock.

type scenario struct {
	t       testing.TB
	state   *State
	history []Event // every event folded into state, in order
}

var at = time.Date(2026, 11, 26, 19, 30, 0, 0, time.UTC)

// given folds events into a new group.
func given(t testing.TB, ps ...Payload) *scenario {
	t.Helper()
	sc := &scenario{t: t, state: New("grp1")}
	sc.fold(ps...)
	return sc
}

// thursday is a group of four playing for CHF 0.50 a unit.
func thursday(t testing.TB) *scenario {
	t.Helper()
	return given(t, Started{Name: "Thursday table", Unit: "0.50", Currency: "CHF", ReadID: "rgrp1"},
		MemberAdded{Name: "Anna"}, MemberAdded{Name: "Ben"}, MemberAdded{Name: "Cleo"}, MemberAdded{Name: "Dan"})
}

func (sc *scenario) fold(ps ...Payload) {
	sc.t.Helper()
	evs := events(sc.state.Version, ps)
	next, err := Evolve(sc.state, evs...)
	if err != nil {
		sc.t.Fatalf("given %s: %v", js(ps), err)
	}
	sc.state, sc.history = next, append(sc.history, evs...)
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

// then checks the decided events, field by field as stored, and that they
// fold; it gives the group after them.
func (o outcome) then(want ...Payload) *State {
	t := o.sc.t
	t.Helper()
	if o.err != nil {
		t.Fatalf("refused: %v", o.err)
	}
	if g, w := js(o.events), js(want); g != w {
		t.Fatalf("decided\n got %s\nwant %s", g, w)
	}
	for i := range want {
		if o.events[i].EventType() != want[i].EventType() {
			t.Fatalf("event %d is %s, want %s", i, o.events[i].EventType(), want[i].EventType())
		}
	}
	next, err := Evolve(o.sc.state, events(o.sc.state.Version, o.events)...)
	if err != nil {
		t.Fatalf("the decided events do not fold: %v", err)
	}
	return next
}

// thenErr checks the refusal's kind, code and field, and that nothing was
// decided.
func (o outcome) thenErr(kind problem.Kind, code, field string) {
	t := o.sc.t
	t.Helper()
	pe, ok := problem.As(o.err)
	if !ok || pe.Kind != kind || pe.Code != code || pe.Field != field {
		t.Fatalf("got %v (%+v) and %d events, want a %s refusal %q of field %q", o.err, pe, len(o.events), kind, code, field)
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

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }
