package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"

	"tappbook/internal/events"
)

// status is what Health reports: the fail-stop once it happened, and the
// last write's trouble with the disk. It is read without locks (atomics);
// the stop happens once (sync.Once), and a caller that finds it under way
// waits for it.
type status struct {
	stopped atomic.Pointer[events.Health] // set once a copy is written or tried, never cleared: read-only until restart
	once    sync.Once
	disk    atomic.Pointer[events.Health] // nil while writes succeed
	// The rescue copy: copied once it is written; until then another try
	// is due at nextTry (Unix ns), gone is what stopped the store.
	copied  atomic.Bool
	nextTry atomic.Int64
	gone    error // set in once, read after it
}

// copyRetry is how often a stopped store tries again to write its copy
// when it could not (a folder not writable, a full disk): only this
// process still holds what it acknowledged once its -wal is deleted.
const copyRetry = 10 * time.Second

// failStop stops the store for good when the guard finds that the file or
// its -wal is not the one opened: nothing more is committed (the commit
// that found it was rolled back), one complete copy of the database as this
// process still sees it is written beside the file with VACUUM INTO (tried
// again every copyRetry until it is), and one log line says what happened
// and what to do. Nothing at the operator's paths is renamed, moved or
// rewritten. It gives the error every write gets from now on.
func (s *Store) failStop(gone error) error {
	s.state.once.Do(func() {
		s.state.gone = gone
		s.rescue(s.opt.Now())
	})
	if now := s.opt.Now(); !s.state.copied.Load() {
		if due := s.state.nextTry.Load(); now.UnixNano() >= due && s.state.nextTry.CompareAndSwap(due, now.Add(copyRetry).UnixNano()) {
			s.rescue(now)
		}
	}
	return fmt.Errorf("%w (%s)", events.ErrFileGone, s.state.stopped.Load().Problem)
}

// rescue writes the copy, and says in one log line, and in Health, what
// happened and what to do: with the copy, or why there is none yet.
func (s *Store) rescue(now time.Time) {
	real := realPath(s.path)
	copyPath := boundedPrefix(real, ".rescued-") + strconv.FormatInt(now.UnixNano(), 10)
	var what string
	if err := vacuumInto(s.ckpt.db, copyPath); err != nil {
		s.state.nextTry.Store(now.Add(copyRetry).UnixNano())
		if s.state.stopped.Load() != nil {
			return // said already
		}
		what = fmt.Sprintf("and no copy could be written yet (%v): keep the server running, as only it still holds everything it acknowledged; make room or permission beside %s, and it writes the copy within %s and says where", err, real, copyRetry)
	} else {
		s.state.copied.Store(true)
		what = fmt.Sprintf("a complete copy of everything it acknowledged is %s: stop the server, move whatever is at %s (with its -wal and -shm) aside, put the copy there, and start the server", copyPath, real)
	}
	problem := fmt.Sprintf("%v; the server stopped writing until it is restarted, %s", s.state.gone, what)
	s.opt.Log.Error(problem)
	since := now
	if h := s.state.stopped.Load(); h != nil {
		since = h.Since
	}
	s.state.stopped.Store(&events.Health{Problem: problem, Summary: events.ErrFileGone.Error(), Since: since})
}

// checkFiles is the guard's look, and the fail-stop when it fails; once
// stopped, every look fails.
func (s *Store) checkFiles() error {
	if s.state.stopped.Load() != nil {
		return s.failStop(nil)
	}
	if err := s.files.check(); err != nil {
		return s.failStop(err)
	}
	return nil
}

// vacuumInto writes the database as db sees it to path, under another name
// until it is whole: a name ending in .rescued-… is only ever a complete
// copy (a kill or a full disk midway leaves a .part, removed on failure).
func vacuumInto(db *sql.DB, path string) error {
	part := path + ".part"
	// Made empty first, so that the copy is the server user's alone, as
	// the file is (hold): VACUUM INTO writes into an empty file.
	f, err := os.OpenFile(part, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		_, err = db.ExecContext(context.Background(), `VACUUM INTO ?`, part)
	}
	if err == nil {
		err = os.Rename(part, path)
	}
	if err != nil {
		os.Remove(part)
		os.Remove(part + "-journal")
	}
	return err
}

// boundedPrefix is path with a tag after it, its last element cut short
// enough that the time in nanoseconds (19 digits) and the longest suffix
// a copy gets (".part-journal") still fit in 255 bytes.
func boundedPrefix(path, tag string) string {
	base := filepath.Base(path)
	if room := 255 - 19 - len(".part-journal") - len(tag); len(base) > room {
		base = base[:max(0, room)]
	}
	return filepath.Join(filepath.Dir(path), base+tag)
}

// rescuedPrefix is how the names of the copies a stopped store writes
// begin, beside the file the database really is.
func rescuedPrefix(path string) string { return boundedPrefix(realPath(path), ".rescued-") }

// Health says whether the store can write. It only reads what the store
// noted: a fail-stop (until restart), or a write the disk refused
// (events.ErrDiskFull), which the next write that succeeds clears, so the
// store recovers by itself once there is room.
func (s *Store) Health() events.Health {
	if h := s.state.stopped.Load(); h != nil {
		return *h
	}
	if h := s.state.disk.Load(); h != nil {
		return *h
	}
	return events.Health{OK: true}
}

// noteWrite keeps the outcome of a write transaction for Health.
func (s *Store) noteWrite(err error) {
	switch {
	case err == nil:
		if s.state.disk.Load() != nil {
			s.state.disk.Store(nil)
		}
	case errors.Is(err, events.ErrDiskFull):
		if s.state.disk.Load() == nil {
			s.state.disk.Store(&events.Health{Problem: fmt.Sprintf("the last write failed: %v", err), Summary: "the last write failed: the disk is full or failing", Since: s.opt.Now()})
		}
	}
}

// diskError is a write the disk refused, with SQLite's own words; it is
// events.ErrDiskFull for errors.Is.
type diskError struct{ err error }

func (e *diskError) Error() string   { return e.err.Error() + " (the disk is full or failing)" }
func (e *diskError) Unwrap() []error { return []error{events.ErrDiskFull, e.err} }

// diskFailure marks an error of the disk as events.ErrDiskFull; others pass.
func diskFailure(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrFull || se.Code == sqlite3.ErrIoErr) || errors.Is(err, syscall.ENOSPC) {
		return &diskError{err}
	}
	return err
}

// keepLogOnClose tells SQLite not to delete the -wal when conn, the last
// connection, closes: after a fail-stop the -wal at the path may be another
// file's, and SQLite deletes it by name.
func keepLogOnClose(conn *sql.Conn) error {
	return conn.Raw(func(dc any) error {
		return dc.(*sqlite3.SQLiteConn).SetFileControlInt("main", sqlite3.SQLITE_FCNTL_PERSIST_WAL, 1)
	})
}
