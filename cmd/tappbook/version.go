package main

import (
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"tappbook/internal/version"
	"tappbook/migrations"
	pgmigrations "tappbook/migrations/postgres"
)

// printVersion says which build this is and the schema it writes:
//
//	tappbook 1.2.0 (commit 0123456789ab, 2026-11-28T04:00:00Z)
//	schema 3 (SQLite), 1 (PostgreSQL)
func printVersion(w io.Writer) error {
	sqlite, err := schemaVersion(migrations.FS)
	if err != nil {
		return err
	}
	pg, err := schemaVersion(pgmigrations.FS)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "tappbook %s\nschema %d (SQLite), %d (PostgreSQL)\n", versionString(), sqlite, pg)
	return err
}

// versionString is the build in one line, for the log.
func versionString() string { return version.Current().String() }

// schemaVersion is the version a database is at once every migration of
// fsys ran: the number of the last file (goose's NNNNN_name.sql), which
// goose records in the database.
func schemaVersion(fsys fs.FS) (int64, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return 0, fmt.Errorf("read the migrations: %w", err)
	}
	var last int64
	for _, name := range names {
		n, err := strconv.ParseInt(name[:strings.IndexByte(name+"_", '_')], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("migration %s: its name does not begin with its number: %w", name, err)
		}
		last = max(last, n)
	}
	return last, nil
}
