package postgres_test

import (
	"context"
	"strings"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
)

// grants is what docs/hosting.md ("On PostgreSQL") tells an operator to
// give the role the servers run as, once the owner has created the tables.
const grants = `GRANT SELECT, INSERT ON events, stream_aliases TO %[1]s;
GRANT SELECT, INSERT, UPDATE ON streams TO %[1]s;
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO %[1]s;
GRANT SELECT ON goose_db_version TO %[1]s`

// Servers running as a role that does not own the tables, with only the
// grants above, record and read as usual; that role can neither change an
// event nor turn off the triggers that refuse it.
func TestServersAsARoleThatDoesNotOwnTheTables(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	owner, err := postgres.Open(ctx, url, postgres.Options{}) // creates the tables
	if err != nil {
		t.Fatal(err)
	}
	owner.Close()
	c := conn(t, url)
	role := "app_" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_"))
	if _, err := c.Exec(ctx, "CREATE ROLE "+role+" LOGIN"); err != nil {
		t.Fatal(err)
	}
	for _, q := range strings.Split(strings.ReplaceAll(grants, "%[1]s", role), ";") {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	appURL := strings.Replace(url, "tappbook@", role+"@", 1)
	s, err := postgres.Open(ctx, appURL, postgres.Options{})
	if err != nil {
		t.Fatalf("open as %s: %v", role, err)
	}
	defer s.Close()
	k := events.Key{Scope: "g", Name: "k", Fingerprint: []byte("fp")}
	if _, err := s.AppendAliased(ctx, "g", 0, k, []string{"g-read"}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: map[string]int{"n": 1}}); err != nil {
		t.Fatalf("append as %s: %v", role, err)
	}
	if res, err := s.Append(ctx, "g", 1, k, events.NewEvent{Type: "t", SchemaVersion: 1, Data: map[string]int{"n": 1}}); err != nil || !res.Duplicate {
		t.Fatalf("a repeated key as %s: %+v %v", role, res, err)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 1 {
		t.Fatalf("verify as %s: %+v %v", role, rep, err)
	}
	app := conn(t, appURL)
	for _, q := range []string{`UPDATE events SET data = '{"n":2}'`, `DELETE FROM events`, `TRUNCATE events`,
		`ALTER TABLE events DISABLE TRIGGER USER`, `DROP TRIGGER events_no_update ON events`} {
		if _, err := app.Exec(ctx, q); err == nil || !strings.Contains(err.Error(), "denied") && !strings.Contains(err.Error(), "must be owner") {
			t.Errorf("%s as %s: %v, want it refused", q, role, err)
		}
	}
	if err := s.CheckIntegrity(ctx, true); err != nil {
		t.Fatal(err)
	}
}
