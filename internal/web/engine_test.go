package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/pgserver/pgtest"
)

// pg is this test binary's PostgreSQL server, started only when the tests
// run on PostgreSQL.
var pg pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// engineEnv chooses the engine of the servers the API tests make:
// unset or "sqlite", a SQLite file; "postgres", a database on a PostgreSQL
// server the tests start. .ci/run runs the API tests both ways.
const engineEnv = "TAPPBOOK_TEST_ENGINE"

// testStore is a fresh, empty store on the engine the tests run on.
func testStore(t testing.TB) events.Engine {
	t.Helper()
	ctx := context.Background()
	var st events.Engine
	var err error
	switch engine := os.Getenv(engineEnv); engine {
	case "", "sqlite":
		st, err = sqlite.Open(ctx, filepath.Join(t.TempDir(), "api.db"), sqlite.Options{})
	case "postgres":
		var s *postgres.Store
		s, err = postgres.Open(ctx, pg.Database(t), postgres.Options{})
		st = s
	default:
		t.Fatalf("%s=%q: want sqlite or postgres", engineEnv, engine)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
