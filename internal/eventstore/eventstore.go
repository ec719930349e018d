// Package eventstore opens the event store that --db names: a postgres://
// (or postgresql://) URL is a PostgreSQL database (internal/events/postgres,
// for several servers on one history), anything else a SQLite file
// (internal/events, for one box at home).
package eventstore

import (
	"context"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
)

// IsPostgres says whether db names a PostgreSQL database.
func IsPostgres(db string) bool { return postgres.IsURL(db) }

// Open opens (creating and migrating it if need be) the store db names.
func Open(ctx context.Context, db string) (events.Engine, error) {
	if IsPostgres(db) {
		return engine(postgres.Open(ctx, db, postgres.Options{}))
	}
	return engine(events.Open(ctx, db, events.Options{}))
}

// OpenReadOnly opens an existing store to read and check it: nothing is
// created or migrated, and every write is refused.
func OpenReadOnly(ctx context.Context, db string) (events.Engine, error) {
	if IsPostgres(db) {
		return engine(postgres.Open(ctx, db, postgres.Options{ReadOnly: true}))
	}
	return engine(events.OpenReadOnly(ctx, db))
}

// engine gives an opened store as the interface, and no store (not a nil
// pointer in an interface) when opening failed.
func engine[S events.Engine](s S, err error) (events.Engine, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

// OutOfReach reports whether opening or using a store failed because its
// database server did not answer (PostgreSQL restarting, failing over),
// which passes by itself, unlike a wrong password, path or database.
func OutOfReach(err error) bool { return postgres.OutOfReach(err) }

// Redact is db as messages and logs show it: a URL's password left out.
func Redact(db string) string {
	if IsPostgres(db) {
		return postgres.Redact(db)
	}
	return db
}
