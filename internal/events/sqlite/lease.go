package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// lease is the start protocol of a store that serves (Options.Serve): the
// folder checked, no new file made beside what a vanished one left, no
// file served beside a copy a stopped store left (BesideRescued), and
// the file held by flock(2) for this store alone until Close. Immutable
// after Open; Close lets the flock go, last.
type lease struct {
	f     *os.File // the file held; nil when not serving
	fresh bool     // this store made the file: no other process has written it
}

// take runs the start protocol for the database at path.
func take(path string) (lease, error) {
	if err := checkFolder(path); err != nil {
		return lease{}, err
	}
	_, err := os.Stat(path)
	check := BesideRescued
	if errors.Is(err, fs.ErrNotExist) {
		check = leftBehind
	}
	if err := check(path); err != nil {
		return lease{}, err
	}
	return hold(path)
}

// release lets the file go; a lease not taken has nothing to let go.
func (l lease) release() {
	if l.f != nil {
		l.f.Close()
	}
}

// hold makes this store the only writing one on a SQLite file: a second
// server would answer from what it last read (each keeps the games it
// serves in memory) and refuse writes the first made meanwhile, and an
// import beside a server would move the rows under it. The lock is
// flock(2) on the file itself, which SQLite's own locks (fcntl) do not
// meet; read-only opens (verify, backup, export) do not take it and may
// run beside the server. Taken before the store opens the file: a second
// store must not so much as migrate a file another holds.
func hold(path string) (lease, error) {
	// An empty file is an empty database to SQLite: made here, two stores
	// started at once on a new path meet at the lock, not in the migrations.
	// Made exclusively, so that only the one store that made it counts it
	// fresh (and may remove it, see Abandon). Readable by the server's user
	// only (0600, less by the umask): the history of every evening's money
	// is nobody else's to read. SQLite gives its -wal and -shm the file's
	// own mode.
	fresh := true
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		fresh = false
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return lease{}, fmt.Errorf("hold %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return lease{}, fmt.Errorf("another tappbook (a server, or an import) is using %s: one at a time may write a database file (a second server would show what it last read and refuse what the other recorded); stop the other one or let its import end, or give this one a --db of its own (several servers share one history on PostgreSQL)", path)
		}
		return lease{}, fmt.Errorf("hold %s: %w", path, err)
	}
	return lease{f: f, fresh: fresh}, nil
}

// checkFolder says plainly why the database cannot be written, before
// SQLite says it less clearly: for a directory that exists but is not
// writable it answers "unable to open database file: no such file or
// directory", and a read-only database file opens and fails only at the
// first deal. SQLite keeps its journal (-wal, -shm) beside the database, so
// the directory must be writable as well as the file.
func checkFolder(path string) error {
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
