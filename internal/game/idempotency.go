package game

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"

	"tappbook/internal/events"
)

// createScope is where the keys of game creations are unique (a game's own
// commands are scoped to the game).
const createScope = "create"

// idemKey binds a client's idempotency key to the request it came with:
// the store answers a repeat only when the fingerprint, a hash of the
// request's kind, scope and JSON, is the same, so that a key reused for
// another request never hands out the first one's answer.
func idemKey(scope, name, kind string, req any) (events.Key, error) {
	if name == "" {
		return events.Key{}, nil
	}
	b, err := json.Marshal(req)
	if err != nil {
		return events.Key{}, fmt.Errorf("fingerprint of a %s request: %w", kind, err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s;%d:%s;", len(kind), kind, len(scope), scope)
	h.Write(b)
	return events.Key{Scope: scope, Name: name, Fingerprint: h.Sum(nil)}, nil
}

// keyRefusal turns the store's refusal of a key into the service's: a key
// reused for another request, or one that is no key at all.
func keyRefusal(err error) error {
	var reused *events.KeyReusedError
	var bad *events.KeyError
	switch {
	case errors.As(err, &reused):
		return catalogue.Input("Idempotency-Key", "key.reused")
	case errors.As(err, &bad):
		return catalogue.Input("Idempotency-Key", "key.invalid", events.MaxKeyLen)
	}
	return nil
}

// CheckKeys refuses, before anything runs, the Idempotency-Key headers of a
// request that are not one key of 1–255 printable ASCII characters.
func CheckKeys(keys []string) error {
	switch {
	case len(keys) > 1:
		return catalogue.Input("Idempotency-Key", "key.several")
	case len(keys) == 1 && events.CheckKeyName(keys[0]) != nil:
		return catalogue.Input("Idempotency-Key", "key.invalid", events.MaxKeyLen)
	}
	return nil
}

// findKey gives the events the first request with this key appended, if
// the key was used before; a key reused for another request, or one that is
// no key, is the caller's refusal.
func findKey(ctx context.Context, store events.Engine, k events.Key) ([]events.Event, bool, error) {
	if k.Name == "" {
		return nil, false, nil
	}
	evs, ok, err := store.FindKey(ctx, k)
	if kerr := keyRefusal(err); kerr != nil {
		return nil, false, kerr
	}
	return evs, ok, err
}

// appendNew writes the first events of a new stream (a game, a group) with
// its read-only alias, under the request's key.
func appendNew(ctx context.Context, store events.Engine, id, readID string, k events.Key, evs []events.NewEvent) (events.AppendResult, error) {
	res, err := store.AppendAliased(ctx, id, 0, k, []string{readID}, evs...)
	if kerr := keyRefusal(err); kerr != nil {
		return res, kerr
	}
	return res, err
}
