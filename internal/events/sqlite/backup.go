package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/mattn/go-sqlite3"
)

// Backup copies the database at path to dest with SQLite's online backup
// API: a consistent snapshot, while a server keeps reading and writing. The
// database is opened read-only (Options.ReadOnly): nothing is migrated or
// changed, so a backup taken by a newer binary beside an older server is a
// copy of the file as that server keeps it.
//
// The copy is written to a temporary file beside dest, synced, and renamed
// into place (and the directory synced): dest is the whole copy or absent,
// never a part of one, whenever the backup stops. dest must not exist. The
// copy is a single file in rollback-journal mode, so that it can be read
// (verify) without making -wal and -shm files beside it.
func Backup(ctx context.Context, path, dest string) (err error) {
	// Any layout: a file an older release still runs is copied as it is,
	// so that it can be backed up before the binary is replaced.
	s, err := openReadOnly(ctx, path, true)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer s.Close()
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", dest)
	}
	dir := filepath.Dir(dest)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".*.partial")
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	defer func() {
		if err != nil {
			removeDatabase(tmpPath)
		}
	}()
	if err := s.copyTo(ctx, tmpPath); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := syncFile(tmpPath); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if _, err := os.Lstat(dest); err == nil { // made meanwhile: not ours to replace
		return fmt.Errorf("backup: %s exists; choose a new file", dest)
	}
	if err := os.Rename(tmpPath, dest); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := syncFile(dir); err != nil {
		return fmt.Errorf("backup to %s: the copy is in place, but syncing its directory failed: %w", dest, err)
	}
	return nil
}

// copyTo copies every page of the database into the (empty) file at path
// and leaves it in rollback-journal mode.
func (s *Store) copyTo(ctx context.Context, path string) error {
	destDB, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath())
	if err != nil {
		return err
	}
	defer destDB.Close()
	dc, err := destDB.Conn(ctx)
	if err != nil {
		return err
	}
	defer dc.Close()
	sc, err := s.read.Conn(ctx)
	if err != nil {
		return err
	}
	defer sc.Close()
	err = dc.Raw(func(d any) error {
		return sc.Raw(func(src any) error {
			b, err := d.(*sqlite3.SQLiteConn).Backup("main", src.(*sqlite3.SQLiteConn), "main")
			if err != nil {
				return err
			}
			// One step copies every page under one read transaction: a
			// consistent snapshot; WAL lets writers go on meanwhile.
			if _, err := b.Step(-1); err != nil {
				b.Finish()
				return err
			}
			return b.Finish()
		})
	})
	if err != nil {
		return err
	}
	// The pages copied say WAL, as the live database does; the copy is one
	// file at rest.
	var mode string
	if err := dc.QueryRowContext(ctx, `PRAGMA journal_mode = DELETE`).Scan(&mode); err != nil {
		return fmt.Errorf("journal mode: %w", err)
	}
	if mode != "delete" {
		return errors.New("journal mode: the copy stayed in " + mode + " mode")
	}
	return nil
}

// syncFile flushes a file, or a directory's entries, to the disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// removeDatabase removes a database file and SQLite's files beside it.
func removeDatabase(path string) {
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
}
