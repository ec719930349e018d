package events

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"
)

// ErrDiskFull is a write the disk refused: full (SQLITE_FULL, ENOSPC, a
// quota such as Options.MaxPages) or failing (an I/O error). The
// transaction was rolled back: nothing of it was written.
var ErrDiskFull = errors.New("the disk is full or failing: nothing was written")

// diskError is a write the disk refused, with SQLite's own words; it is
// ErrDiskFull for errors.Is.
type diskError struct{ err error }

func (e *diskError) Error() string   { return e.err.Error() + " (the disk is full or failing)" }
func (e *diskError) Unwrap() []error { return []error{ErrDiskFull, e.err} }

// diskFailure marks an error of the disk as ErrDiskFull; others pass.
func diskFailure(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrFull || se.Code == sqlite3.ErrIoErr) || errors.Is(err, syscall.ENOSPC) {
		return &diskError{err}
	}
	return err
}

// ErrFileGone is a commit refused because the database file is no longer
// at the store's path (deleted, moved or replaced while the server ran),
// or a repeated request not answered from such a file: it is rolled back
// rather than written to a file no restart may find (only a file moved in
// the instant of its commit can hold it), and not acknowledged. Sending it
// again with the same idempotency key is safe.
var ErrFileGone = errors.New("the database file was deleted or replaced while the server ran")

// fileGoneError says which path, and what is there now.
type fileGoneError struct {
	path string
	now  error // why path is not the file opened: nil when another file is there
}

func (e *fileGoneError) Error() string {
	if e.now != nil {
		return fmt.Sprintf("%v: %s is gone (%v); put it back or restart the server", ErrFileGone, e.path, e.now)
	}
	return fmt.Sprintf("%v: %s is another file now; put the one opened back or restart the server", ErrFileGone, e.path)
}

func (e *fileGoneError) Unwrap() error { return ErrFileGone }

// stillTheFile checks that the file at the store's path is the one it
// opened; a store opened read-only watches no file.
func (s *Store) stillTheFile() error {
	if s.file == nil {
		return nil
	}
	fi, err := os.Stat(s.path)
	if err != nil {
		return &fileGoneError{path: s.path, now: err}
	}
	if !os.SameFile(fi, s.file) {
		return &fileGoneError{path: s.path}
	}
	return nil
}

// Health is whether the store can write: OK, or why not since when.
type Health struct {
	OK      bool
	Problem string    // what the last write that failed for the disk said
	Summary string    // what is wrong without its details (paths, addresses, users), for anyone who asks
	Since   time.Time // when writes began to fail
}

// Health says whether the store's last write succeeded. A write that fails
// for the disk (ErrDiskFull) makes it degraded, the next write that
// succeeds makes it OK again: the store recovers by itself once there is
// room, with nothing to restart.
//
// The database file is looked at as Health is asked: a file deleted or
// replaced while the store runs makes it degraded at once, not only after
// a write failed, and the file put back makes it OK again.
func (s *Store) Health() Health {
	if err := s.stillTheFile(); err != nil {
		since := s.now()
		if !s.gone.CompareAndSwap(nil, &since) {
			since = *s.gone.Load()
		}
		return Health{Problem: err.Error(), Summary: ErrFileGone.Error(), Since: since}
	}
	s.gone.Store(nil)
	if h := s.health.Load(); h != nil {
		return *h
	}
	return Health{OK: true}
}

// noteWrite keeps the outcome of a write transaction for Health.
func (s *Store) noteWrite(err error) {
	switch {
	case err == nil:
		if s.health.Load() != nil {
			s.health.Store(nil)
		}
	case errors.Is(err, ErrDiskFull):
		if h := s.health.Load(); h == nil {
			s.health.Store(&Health{Problem: fmt.Sprintf("the last write failed: %v", err), Summary: "the last write failed: the disk is full or failing", Since: s.now()})
		}
	}
}
