package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
	"tappbook/internal/events/sqlite"
)

// backup copies the database into a new SQLite file that verify, export
// and serve read like any other. A SQLite file is copied page by page as
// it is (read-only: nothing migrated); PostgreSQL's streams are copied from
// one snapshot (for the database itself, pg_dump is the tool).
func backup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	out := fs.String("out", "", "the new file to write the copy to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("backup: say where with --out FILE")
	}
	if err := copyDatabase(ctx, *db, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", redact(*db), *out)
	return nil
}

// copyDatabase writes the consistent copy of db to the new file out that
// tappbook backup and serve's scheduled backups make.
func copyDatabase(ctx context.Context, db, out string) error {
	if isPostgres(db) {
		return backupPostgres(ctx, db, out)
	}
	return sqlite.Backup(ctx, db, out)
}

// backupPostgres writes every stream of the PostgreSQL database url, with
// its aliases, events, times and hashes as they are, into a new SQLite
// file at dest: the whole copy or nothing at dest.
func backupPostgres(ctx context.Context, url, dest string) (err error) {
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", dest)
	}
	tmp := filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".partial")
	if _, err := os.Lstat(tmp); err == nil {
		return fmt.Errorf("backup: %s exists: another backup to %s is under way, or stopped; remove it and try again", tmp, dest)
	}
	src, err := postgres.Open(ctx, url, postgres.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer src.Close()
	copyTo, err := sqlite.Open(ctx, tmp, sqlite.Options{})
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	defer func() {
		if err != nil {
			copyTo.Close()
			removeDatabase(tmp)
		}
	}()
	err = src.EachStream(ctx, func(evs []events.Event, aliases []string) error {
		return copyTo.Import(ctx, evs, aliases)
	})
	if err == nil {
		err = copyTo.Close()
	}
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", dest)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	return syncDir(filepath.Dir(dest))
}
