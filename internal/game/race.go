package game

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// raceRetries is how often a command is decided again after another
// server sharing the database appended to its stream between the decision
// and the append. Decided again on the stream as it now stands, it is
// refused only where it would be on one server (a stale expected_hand, a
// deal already voided); a phone that sent no such check is not told to try
// again because two servers took turns.
const raceRetries = 20

// errRaced is an append that lost such a race: the stream was read
// afresh, and the command can be decided again.
var errRaced = errors.New("another server appended to the stream first")

// retryRaced runs try until it does not lose a race, waiting a little,
// at random, before each new try (two servers each with requests queued
// for the stream would otherwise keep meeting); after raceRetries lost
// races, the answer is conflict.
func retryRaced[T any](ctx context.Context, conflict error, try func() (T, error)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := try()
		if !errors.Is(err, errRaced) {
			return v, err
		}
		if attempt == raceRetries {
			var zero T
			return zero, conflict
		}
		select {
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		case <-time.After(rand.N(time.Duration(attempt) * time.Millisecond)):
		}
	}
}
