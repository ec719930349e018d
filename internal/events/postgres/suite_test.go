package postgres_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
	"tappbook/internal/events/storetest"
	"tappbook/internal/pgserver/pgtest"
)

// pg is this test binary's PostgreSQL server.
var pg pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// The store suite on PostgreSQL: the same tests SQLite passes.
func TestStoreSuite(t *testing.T) { storetest.Run(t, pgHarness{}) }

type pgHarness struct{}

func (pgHarness) Fresh(t *testing.T) string { return pg.Database(t) }

func (pgHarness) Open(ctx context.Context, loc string, opt storetest.Options) (events.Engine, error) {
	return postgres.Open(ctx, loc, postgres.Options{Now: opt.Now, KeyTTL: opt.KeyTTL})
}

// conn connects as the database's owner, beside the store.
func conn(t *testing.T, loc string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func (pgHarness) Exec(t *testing.T, loc, query string) error {
	_, err := conn(t, loc).Exec(context.Background(), query)
	return err
}

// Tamper turns the guarding triggers off, as the tables' owner can.
func (pgHarness) Tamper(t *testing.T, loc string, queries ...string) {
	t.Helper()
	c := conn(t, loc)
	for _, q := range append([]string{`ALTER TABLE events DISABLE TRIGGER USER`, `ALTER TABLE stream_aliases DISABLE TRIGGER USER`}, queries...) {
		if _, err := c.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func (pgHarness) Count(t *testing.T, loc, query string) int64 {
	t.Helper()
	var n int64
	if err := conn(t, loc).QueryRow(context.Background(), query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
