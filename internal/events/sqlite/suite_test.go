package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/events/storetest"
)

// The store suite on SQLite (internal/events/postgres and
// internal/events/memory run it too).
func TestStoreSuite(t *testing.T) { storetest.Run(t, sqliteHarness{}) }

type sqliteHarness struct{}

func (sqliteHarness) Fresh(t *testing.T) string { return filepath.Join(t.TempDir(), "store.db") }

func (sqliteHarness) Open(ctx context.Context, loc string, opt storetest.Options) (events.Engine, error) {
	return sqlite.Open(ctx, loc, sqlite.Options{Now: opt.Now, KeyTTL: opt.KeyTTL})
}

// raw opens the file as another program would, beside the store.
func raw(t *testing.T, loc string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+loc+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func (sqliteHarness) Exec(t *testing.T, loc, query string) error {
	_, err := raw(t, loc).Exec(query)
	return err
}

// Tamper drops the guarding triggers, as someone editing the file would.
func (sqliteHarness) Tamper(t *testing.T, loc string, queries ...string) {
	t.Helper()
	db := raw(t, loc)
	for _, q := range append([]string{`DROP TRIGGER IF EXISTS events_no_update`, `DROP TRIGGER IF EXISTS events_no_delete`}, queries...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func (sqliteHarness) Count(t *testing.T, loc, query string) int64 {
	t.Helper()
	var n int64
	if err := raw(t, loc).QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
