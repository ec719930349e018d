package game

import (
	"context"
	"errors"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// Why a witnessed event is no longer in a game's stored history.
const (
	WitnessCut     = "cut"     // the store's history ends before the version the phone saw
	WitnessChanged = "changed" // the event at that version has another hash now
)

// Witness is the answer to a phone that kept the last (version, head hash)
// it saw of a game: whether the stored history still holds that event, and
// where the history ends now.
type Witness struct {
	Holds   bool
	Why     string // WitnessCut or WitnessChanged when it does not hold
	Version int64  // the last version the store holds (as far as its chain holds)
	Head    string // its hash
}

// Witness tells whether the stored history of game id still has the event
// with hash at version. It reads the store, not the game in memory: a
// history cut or changed behind the server's back, and mended so that the
// chain is whole, shows only against a witness kept from before.
func (s *Service) Witness(ctx context.Context, id string, version int64, hash string) (Witness, error) {
	evs, err := s.store.ReadStream(ctx, id)
	var broken *events.ChainError
	if errors.As(err, &broken) {
		// What holds is the history up to the first event at fault.
		err = nil
	}
	if err != nil {
		return Witness{}, fmt.Errorf("witness game %s: %w", id, err)
	}
	if len(evs) == 0 {
		return Witness{}, tapp.Messages().NotFound("notfound.game")
	}
	last := evs[len(evs)-1]
	w := Witness{Version: last.Version, Head: last.Hash}
	switch {
	case version > last.Version:
		w.Why = WitnessCut
	case version >= 1 && evs[version-1].Version == version && evs[version-1].Hash == hash:
		w.Holds = true
	default:
		w.Why = WitnessChanged
	}
	return w, nil
}
