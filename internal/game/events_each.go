package game

import (
	"context"
	"errors"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// EachEvent calls fn with a game's events in order, read one at a time, so
// that a long evening's history is never held whole: a page of it, or a
// download written as it is read. fn may keep nothing of an event's Data
// past its call (the store lends it). ErrStop from fn ends the reading
// without an error.
func (s *Service) EachEvent(ctx context.Context, id string, fn func(events.Event) error) error {
	err := s.store.Replay(ctx, id, func(ev events.Event) error {
		if ev.Version == 1 && ev.Type != tapp.TypeGameStarted {
			return errNotGame
		}
		return fn(ev)
	})
	switch {
	case errors.Is(err, errNotGame):
		return tapp.Messages().NotFound("notfound.game")
	case errors.Is(err, ErrStop):
		return nil
	}
	return err
}

// ErrStop ends EachEvent early, as asked.
var ErrStop = errors.New("stop reading events")
