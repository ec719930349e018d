package autofailover

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/pgserver"
)

// Given pg_auto_failover, a cluster starts with a primary and a
// synchronous standby; its URL reaches the primary as the application's
// role, which owns the database; a lost primary is replaced by its
// standby, and comes back as the new standby; nothing is left behind.
func TestClusterFailsOver(t *testing.T) {
	ctx := context.Background()
	c, err := Start(ctx)
	if (errors.Is(err, ErrNotInstalled) || errors.Is(err, pgserver.ErrNotInstalled)) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			t.Log(c.Log())
		}
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(c.dir); !os.IsNotExist(err) {
			t.Errorf("the cluster's directory is still there: %v", err)
		}
	}()
	primary, err := c.WaitHealthy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatal(err)
	}
	var port int
	var sync string
	if err := conn.QueryRow(ctx, `SELECT inet_server_port(), current_setting('synchronous_standby_names')`).Scan(&port, &sync); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE t (n int); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if port != primary.Port || sync == "" {
		t.Fatalf("the URL reached port %d (the primary is %s on %d), synchronous_standby_names %q", port, primary.Name, primary.Port, sync)
	}

	if err := primary.Kill(); err != nil {
		t.Fatal(err)
	}
	promoted, err := c.WaitPromoted(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := retry(ctx, func() error {
		conn, err := pgx.Connect(ctx, c.URL())
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		return conn.QueryRow(ctx, `INSERT INTO t VALUES (2) RETURNING (SELECT count(*) FROM t) + 1`).Scan(&n)
	}); err != nil || n != 2 {
		t.Fatalf("after the failover: %d rows, %v", n, err)
	}
	if err := primary.Restart(); err != nil {
		t.Fatal(err)
	}
	if p, err := c.WaitHealthy(ctx); err != nil || p != promoted {
		t.Fatalf("after the old primary came back: primary %v, %v", p, err)
	}
}
