// Package storetest is the one test suite every event store engine runs
// (the repository-test pattern): the same behaviour, asserted the same
// way, on SQLite, PostgreSQL and in memory (internal/events/...). An
// engine's package runs it with a Harness that makes its stores.
package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tappbook/internal/events"
)

// Options are the store options the suite sets.
type Options struct {
	Now    func() time.Time
	KeyTTL time.Duration
}

// Harness makes and opens one engine's stores for the suite.
type Harness interface {
	// Fresh gives the location (a file path, a URL, a name) of a new,
	// empty store.
	Fresh(t *testing.T) string
	// Open opens the store at loc, creating it if need be.
	Open(ctx context.Context, loc string, opt Options) (events.Engine, error)
}

// Database is the harness of an engine on a database that people can
// reach beside the store: the suite then also checks that the database
// itself guards the history, and that the chain exposes an owner's edits.
type Database interface {
	Harness
	// Exec runs one SQL statement on the database directly, as a person
	// with access to it would, the append-only guards in place.
	Exec(t *testing.T, loc, query string) error
	// Tamper turns the append-only guards off, as the database's owner
	// can, and runs the statements: the edits the chain must expose.
	Tamper(t *testing.T, loc string, queries ...string)
	// Count runs a query that gives one number.
	Count(t *testing.T, loc, query string) int64
}

// Run runs the whole suite on one engine.
func Run(t *testing.T, h Harness) {
	for _, c := range []struct {
		name string
		fn   func(*testing.T, Harness)
	}{
		{"AppendReadAndReopen", appendReadAndReopen},
		{"RacingAppendsOneWins", racingAppendsOneWins},
		{"ManyWriters", manyWriters},
		{"AppendAfterClose", appendAfterClose},
		{"CloseWhileAppending", closeWhileAppending},
		{"FailureFailsAlone", failureFailsAlone},
		{"VerifyWhileAppending", verifyWhileAppending},
		{"IdempotencyKey", idempotencyKey},
		{"KeyBoundToRequest", keyBoundToRequest},
		{"KeyExpires", keyExpires},
		{"KeyNameRules", keyNameRules},
		{"ReplayAndReplayAll", replayAndReplayAll},
		{"ImportBesideAppends", importBesideAppends},
		{"ImportRequiresEveryHash", importRequiresEveryHash},
		{"TimesNeverGoBack", timesNeverGoBack},
		{"HealthAndIntegrity", healthAndIntegrity},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, h) })
	}
	db, ok := h.(Database)
	if !ok {
		return
	}
	for _, c := range []struct {
		name string
		fn   func(*testing.T, Database)
	}{
		{"EventsCannotBeChangedOrDeleted", eventsCannotBeChangedOrDeleted},
		{"VerifyCatchesTampering", verifyCatchesTampering},
		{"ChainCheckedOnRead", chainCheckedOnRead},
		{"CutTailNeedsAFingerprint", cutTailNeedsAFingerprint},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, db) })
	}
}

// open makes a fresh database and opens it, closed when the test ends.
func open(t *testing.T, h Harness) (events.Engine, string) {
	t.Helper()
	loc := h.Fresh(t)
	s := reopen(t, h, loc, Options{})
	return s, loc
}

func reopen(t *testing.T, h Harness, loc string, opt Options) events.Engine {
	t.Helper()
	s, err := h.Open(context.Background(), loc, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type payload struct {
	N      int    `json:"n"`
	Amount string `json:"amount"`
}

func ev(n int) events.NewEvent {
	return events.NewEvent{Type: "test.happened", SchemaVersion: 1, Data: payload{N: n, Amount: fmt.Sprintf("%d.50", n)}}
}

func key(scope, name, fingerprint string) events.Key {
	return events.Key{Scope: scope, Name: name, Fingerprint: []byte(fingerprint)}
}

// appendN appends n events to a new stream, one append each.
func appendN(t *testing.T, s events.Engine, stream string, n int) {
	t.Helper()
	for i := range n {
		if _, err := s.Append(context.Background(), stream, int64(i), events.Key{}, ev(i+1)); err != nil {
			t.Fatal(err)
		}
	}
}
