package game

import (
	"context"
	"errors"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// EachEventChanged is EachEvent with, for each correction or void, what it
// changed downstream (nil for every other event): the game is folded as its
// events are read, and taken before the change and after it and the
// re-scorings decided with it. A correction's event is handed over once its
// re-scorings have been read, still in order. The fold stops at g's last
// change: a game never corrected is only read. g is the game as the caller
// holds it (Snapshot).
func (s *Service) EachEventChanged(ctx context.Context, g *tapp.State, fn func(events.Event, *tapp.Downstream) error) error {
	last := g.LastChange()
	if last == 0 {
		return s.EachEvent(ctx, g.ID, func(e events.Event) error { return fn(e, nil) })
	}
	d := &downstreamFold{f: tapp.NewFolder(g.ID), fn: fn}
	err := s.EachEvent(ctx, g.ID, func(e events.Event) error {
		if e.Version > last && len(d.held) == 0 {
			return fn(e, nil) // nothing after it changes anything downstream
		}
		return d.take(e)
	})
	if err == nil {
		err = d.flush()
	}
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// downstreamFold folds a game's events as they are read and holds back a
// correction, with the re-scorings after it, until what it changed is known.
type downstreamFold struct {
	f       *tapp.Folder
	players []string
	kept    arena
	fn      func(events.Event, *tapp.Downstream) error
	held    []events.Event // a correction and its re-scorings so far
	hand    int            // the deal the held correction changed
	before  tapp.Standing  // the table just before it
}

func (d *downstreamFold) take(e events.Event) error {
	e.Data = d.kept.Copy(e.Data) // lent by the store; the fold keeps it
	p, err := tapp.DecodeForFold(e.Type, e.Data, d.players)
	if err != nil {
		return fmt.Errorf("event %d: %w", e.Version, err)
	}
	if len(d.held) > 0 && !tapp.RescoredFor(p, d.hand) {
		if err := d.flush(); err != nil {
			return err
		}
	}
	if hand, ok := tapp.Changes(p); ok {
		d.hand, d.before = hand, d.f.Peek().StandingFrom(hand)
	}
	if err := d.f.Apply(Stored(e, p)); err != nil {
		return fmt.Errorf("changed downstream: %w", err)
	}
	if started, ok := p.(tapp.GameStarted); ok {
		d.players = started.Players
	}
	if _, ok := tapp.Changes(p); ok || len(d.held) > 0 {
		d.held = append(d.held, e)
		return nil
	}
	return d.fn(e, nil)
}

// flush hands over the held correction, with what it changed, and its
// re-scorings.
func (d *downstreamFold) flush() error {
	if len(d.held) == 0 {
		return nil
	}
	changed := d.f.Peek().StandingFrom(d.hand).Since(d.before)
	held := d.held
	d.held = nil
	for i, e := range held {
		var c *tapp.Downstream
		if i == 0 {
			c = &changed
		}
		if err := d.fn(e, c); err != nil {
			return err
		}
	}
	return nil
}

// arena copies the payloads a replay lends into chunks of 16 KiB, shared by
// the events copied, for downstreamFold, which holds a correction's events
// past the replay's call: an allocation per few dozen events costs the
// collector less than one per event. A chunk is never written again once
// a copy in it is handed out.
type arena struct{ chunk []byte }

// Copy gives b's bytes in the arena.
func (a *arena) Copy(b []byte) []byte {
	if len(b) > cap(a.chunk)-len(a.chunk) {
		a.chunk = make([]byte, 0, max(16<<10, len(b)))
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}
