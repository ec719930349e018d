package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"tappbook/internal/bench"
	"tappbook/internal/events/postgres"
	"tappbook/internal/pgserver"
)

// benchPostgres measures recording on PostgreSQL and prints it beside
// SQLite's numbers: on the empty database pg names, or (pg empty) on a
// throwaway server started from the installed postgresql package with its
// data in dir, the disk SQLite was measured on; "off" measures nothing.
func benchPostgres(ctx context.Context, pg, dir string, d time.Duration, sqlite bench.Report, stdout io.Writer) error {
	var url, where string
	switch {
	case pg == "off":
		return nil
	case pg == "":
		srv, err := pgserver.Start(ctx, pgserver.Options{Dir: dir})
		if errors.Is(err, pgserver.ErrNotInstalled) {
			fmt.Fprintf(stdout, "6. PostgreSQL not measured: %v; or give --pg postgres://…\n", err)
			return nil
		}
		if err != nil {
			return fmt.Errorf("a throwaway PostgreSQL: %w", err)
		}
		defer srv.Stop()
		if url, err = srv.NewDatabase(ctx, "bench"); err != nil {
			return fmt.Errorf("a throwaway PostgreSQL: %w", err)
		}
		where = "a throwaway server, data in " + dir
	case postgres.IsURL(pg):
		url, where = pg, postgres.Redact(pg)
	default:
		return fmt.Errorf("--pg %q: give a postgres:// URL, nothing (a throwaway server) or off", pg)
	}
	r, err := bench.Postgres(ctx, url, where, d)
	if err != nil {
		return err
	}
	r.Print(stdout, sqlite)
	return nil
}
