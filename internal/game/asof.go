package game

import (
	"context"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// FoldEvents folds a game from events read from the store (ReadStream's,
// in order): for the game as it stood after some of them.
func FoldEvents(id string, evs []events.Event) (*tapp.State, error) {
	f := tapp.NewFolder(id)
	var players []string
	for _, ev := range evs {
		p, err := tapp.Decode(ev.Type, ev.Data, players)
		if err != nil {
			return nil, fmt.Errorf("fold game %s: event %d: %w", id, ev.Version, err)
		}
		if err := f.Apply(Stored(ev, p)); err != nil {
			return nil, fmt.Errorf("fold game %s: %w", id, err)
		}
		if started, ok := p.(tapp.GameStarted); ok {
			players = started.Players
		}
	}
	if !f.Peek().Started() {
		return nil, tapp.Messages().NotFound("notfound.game")
	}
	return f.State(), nil
}

// AsOf gives the game as it stood after event version (its first version
// events, as the store holds them).
func (s *Service) AsOf(ctx context.Context, id string, version int64) (*tapp.State, error) {
	evs, err := s.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	if version < 1 || version > int64(len(evs)) {
		return nil, catalogue.NotFound("notfound.event", version, len(evs))
	}
	return FoldEvents(id, evs[:version])
}

// AfterHand gives the game as it stood once deal n had been recorded (its
// last recording, where it was taken back and recorded again): the
// corrections made since are left out.
func (s *Service) AfterHand(ctx context.Context, id string, n int) (*tapp.State, error) {
	evs, err := s.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	at := -1
	for i, ev := range evs {
		if ev.Type != tapp.TypeHandRecorded {
			continue
		}
		p, err := tapp.Decode(ev.Type, ev.Data, nil)
		if err != nil {
			return nil, fmt.Errorf("after hand %d: event %d: %w", n, ev.Version, err)
		}
		if p.(tapp.HandRecorded).Hand == n {
			at = i
		}
	}
	if at < 0 {
		return nil, tapp.Messages().NotFound("notfound.hand", n)
	}
	return FoldEvents(id, evs[:at+1])
}
