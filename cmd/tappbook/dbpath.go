package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkDatabasePath says plainly why serve could not write its database,
// before SQLite says it less clearly: for a directory that exists but is
// not writable it answers "unable to open database file: no such file or
// directory", and a read-only database file opens and fails only at the
// first deal. SQLite keeps its journal (-wal, -shm) beside the database, so
// the directory must be writable as well as the file.
func checkDatabasePath(path string) error {
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("database %s: the directory %s does not exist; create it, or choose another --db", path, dir)
	case err != nil:
		return fmt.Errorf("database %s: %w", path, err)
	case !info.IsDir():
		return fmt.Errorf("database %s: %s is not a directory", path, dir)
	}
	probe, err := os.CreateTemp(dir, ".tappbook-write-check-*")
	if err != nil {
		return fmt.Errorf("database %s: the directory %s is not writable for this user (%v); tappbook keeps the database and its journal files (-wal, -shm) there: make the directory writable, or choose another --db", path, dir, errors.Unwrap(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	if info, err := os.Stat(path); err == nil {
		if info.IsDir() {
			return fmt.Errorf("database %s is a directory, not a database file; choose another --db", path)
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("database %s: the file is not writable for this user (%v); make it writable, or choose another --db", path, errors.Unwrap(err))
		}
		f.Close()
	}
	return nil
}
