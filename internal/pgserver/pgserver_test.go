package pgserver

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// A server starts as a user PostgreSQL accepts (not root), listens on
// loopback, makes databases, and leaves nothing behind when stopped.
func TestStartNewDatabaseStop(t *testing.T) {
	ctx := context.Background()
	s, err := Start(ctx, Options{NoSync: true})
	if errors.Is(err, ErrNotInstalled) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	url, err := s.NewDatabase(ctx, "Test Name/1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var db, addr string
	if err := c.QueryRow(ctx, `SELECT current_database(), host(inet_server_addr())`).Scan(&db, &addr); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	if db != "test_name_1_1" || addr != "127.0.0.1" {
		t.Fatalf("connected to %q on %q", db, addr)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Fatalf("the server's directory is still there: %v", err)
	}
}
