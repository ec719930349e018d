package game

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"tappbook/internal/events"
)

// Ran is what a command wrote: the stored events, the payloads they hold
// (decoded again for a repeated idempotency key), and the stream after
// them.
type Ran[S, P any] struct {
	Events   []events.Event
	Payloads []P
	State    *S
	Repeated bool // the idempotency key was seen before: nothing new was written
}

// command is what the runner asks of a command: its Kind, the type of its
// own event among those it appends (a correction is followed by rescores,
// an evening joined by the members it adds first).
type command interface{ Kind() string }

// payload is a decided event's data.
type payload interface{ EventType() string }

// runner is the one way a command on a stream (a game, a group) is run:
// decided on the stream as it stands, appended against the version it was
// decided on, decided again after losing a race to another server, and
// answered from the first request's events for a repeated idempotency key.
// Each stream type gives it its rules and its memory.
type runner[S any, C command, P payload] struct {
	noun     string // "game", "group": for errors
	schema   int
	conflict error // the answer after raceRetries lost races
	store    events.Engine

	decide  func(*S, C) ([]P, error)
	evolve  func(*S, []events.Event, []P) (*S, error) // the stored events and their payloads
	decode  func(*S, events.Event) (P, error)
	version func(*S) int64

	hold    func(context.Context, string) (*slot[S], error)
	release func(*slot[S])
	catchUp func(context.Context, string, *slot[S]) error // with e.mu held; brings the stream up to its stored version
	refold  func(context.Context, string, *slot[S]) error // fold afresh from the store and publish
	publish func(string, *slot[S], *S)                    // what was appended, with e.mu held
}

// run decides cmd on stream id and appends what it decides, once, under
// the idempotency key (none: "").
func (r *runner[S, C, P]) run(ctx context.Context, id, key string, cmd C) (Ran[S, P], error) {
	e, err := r.hold(ctx, id)
	if err != nil {
		return Ran[S, P]{}, err
	}
	defer r.release(e)
	k, err := idemKey(id, key, cmd.Kind(), cmd)
	if err != nil {
		return Ran[S, P]{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	// Decided again, still holding the stream, after losing a race: this
	// server's next request does not go first.
	return retryRaced(ctx, r.conflict, func() (Ran[S, P], error) { return r.try(ctx, e, id, k, cmd) })
}

// try decides cmd on the stream as e holds it and appends what it
// decides; errRaced when another server appended first (e then holds the
// stream as stored). e.mu is held.
func (r *runner[S, C, P]) try(ctx context.Context, e *slot[S], id string, k events.Key, cmd C) (Ran[S, P], error) {
	st := e.state.Load()
	payloads, err := r.decide(st, cmd)
	if err != nil || len(payloads) == 0 {
		return r.unwritten(ctx, e, id, k, cmd, err)
	}
	res, err := r.store.Append(ctx, id, r.version(st), k, toAppend(r.schema, payloads)...)
	if err != nil {
		if kerr := keyRefusal(err); kerr != nil {
			return Ran[S, P]{}, kerr
		}
		if events.IsConflict(err) {
			// Another process wrote to this stream: fold it afresh. If that
			// fails, say so: the state kept would conflict again.
			if rerr := r.refold(ctx, id, e); rerr != nil {
				return Ran[S, P]{}, fmt.Errorf("%s %s %s: read it again after a conflict: %w", cmd.Kind(), r.noun, id, rerr)
			}
			return Ran[S, P]{}, errRaced
		}
		return Ran[S, P]{}, fmt.Errorf("%s %s %s: %w", cmd.Kind(), r.noun, id, err)
	}
	if res.Duplicate {
		return r.repeated(res.Events, cmd, st)
	}
	next, err := r.evolve(st, res.Events, payloads)
	if err != nil {
		// What was stored does not fold: a bug. Serve what the store holds.
		return Ran[S, P]{}, errors.Join(fmt.Errorf("%s %s %s: fold what was appended: %w", cmd.Kind(), r.noun, id, err), r.refold(ctx, id, e))
	}
	r.publish(id, e, next)
	return Ran[S, P]{Events: res.Events, Payloads: payloads, State: next}, nil
}

// unwritten answers a command that decided to write nothing (refused, or
// nothing to do), once the stream as stored agrees. What is appended needs
// no such look: the append itself answers a used key with its first answer
// and a stream moved by another server with a conflict. A refusal does: a
// retried request may be refused now because its first try was stored (it
// gets the first answer again), and on a store other servers share the
// stream may have moved under the refusal (it is decided again).
func (r *runner[S, C, P]) unwritten(ctx context.Context, e *slot[S], id string, k events.Key, cmd C, refusal error) (Ran[S, P], error) {
	st := e.state.Load()
	if evs, ok, err := findKey(ctx, r.store, k); err != nil {
		return Ran[S, P]{}, err
	} else if ok {
		return r.repeated(evs, cmd, st)
	}
	if r.catchUp != nil {
		if err := r.catchUp(ctx, id, e); err != nil {
			return Ran[S, P]{}, err
		}
		if r.version(e.state.Load()) != r.version(st) {
			return Ran[S, P]{}, errRaced
		}
	}
	if refusal != nil {
		return Ran[S, P]{}, refusal
	}
	return Ran[S, P]{State: st}, nil
}

// repeated answers a request whose idempotency key was already used, with
// what the first request appended, if that was the same kind of command
// (a key stored before keys had fingerprints may have been used for
// another kind).
func (r *runner[S, C, P]) repeated(evs []events.Event, cmd C, st *S) (Ran[S, P], error) {
	if !slices.ContainsFunc(evs, func(ev events.Event) bool { return ev.Type == cmd.Kind() }) {
		return Ran[S, P]{}, catalogue.Input("Idempotency-Key", "key.reused")
	}
	done := Ran[S, P]{Events: evs, State: st, Repeated: true}
	for _, ev := range evs {
		p, err := r.decode(st, ev)
		if err != nil {
			return Ran[S, P]{}, err
		}
		done.Payloads = append(done.Payloads, p)
	}
	return done, nil
}

// toAppend is what the store appends for the decided payloads.
func toAppend[P payload](schema int, ps []P) []events.NewEvent {
	out := make([]events.NewEvent, len(ps))
	for i, p := range ps {
		out[i] = events.NewEvent{Type: p.EventType(), SchemaVersion: schema, Data: p}
	}
	return out
}
