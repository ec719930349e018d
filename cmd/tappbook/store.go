package main

// Which engine --db names: a postgres:// (or postgresql://) URL is a
// PostgreSQL database (several servers on one history), anything else a
// SQLite file (one box at home).

import (
	"context"
	"log/slog"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
	"tappbook/internal/events/sqlite"
)

// isPostgres says whether db names a PostgreSQL database.
func isPostgres(db string) bool { return postgres.IsURL(db) }

// openStore opens (creating and migrating it if need be) the store db
// names to write to it. On SQLite it holds the file as a server does
// (sqlite.Options.Serve): one writing process per file, so an import
// waits for no server and no server has rows moved under it.
func openStore(ctx context.Context, db string) (events.Engine, error) {
	if isPostgres(db) {
		return engine(postgres.Open(ctx, db, postgres.Options{}))
	}
	return engine(sqlite.Open(ctx, db, sqlite.Options{Serve: true}))
}

// abandon closes a store whose writing failed: a SQLite file the store
// made itself is removed, under its lock (sqlite.Store.Abandon).
func abandon(store events.Engine) error {
	if s, ok := store.(*sqlite.Store); ok {
		return s.Abandon()
	}
	return store.Close()
}

// openObserved opens the store a server serves, telling obs (nil: nobody)
// of every commit. On SQLite the store runs the start protocol
// (sqlite.Options.Serve): one server per file.
func openObserved(obs events.CommitObserver, log *slog.Logger) func(context.Context, string) (events.Engine, error) {
	return func(ctx context.Context, db string) (events.Engine, error) {
		if isPostgres(db) {
			return engine(postgres.Open(ctx, db, postgres.Options{Observer: obs, Log: log}))
		}
		s, err := sqlite.Open(ctx, db, sqlite.Options{Observer: obs, Serve: true, Log: log})
		if err == nil && s.Fresh() {
			// Said, so that a database moved or deleted is not taken for
			// an empty one without a word.
			log.Info("there was no database file at this path: started a new, empty one", "db", db)
		}
		return engine(s, err)
	}
}

// openReadOnly opens an existing store to read and check it: nothing is
// created or migrated, and every write is refused.
func openReadOnly(ctx context.Context, db string) (events.Engine, error) {
	if isPostgres(db) {
		return engine(postgres.Open(ctx, db, postgres.Options{ReadOnly: true}))
	}
	return engine(sqlite.Open(ctx, db, sqlite.Options{ReadOnly: true}))
}

// engine gives an opened store as the interface, and no store (not a nil
// pointer in an interface) when opening failed.
func engine[S events.Engine](s S, err error) (events.Engine, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

// outOfReach reports whether opening or using a store failed because its
// database server did not answer (PostgreSQL restarting, failing over),
// which passes by itself, unlike a wrong password, path or database.
func outOfReach(err error) bool { return postgres.OutOfReach(err) }

// redact is db as messages and logs show it: a URL's password left out.
func redact(db string) string {
	if isPostgres(db) {
		return postgres.Redact(db)
	}
	return db
}
