package events

import (
	"errors"
	"fmt"
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

// Health is whether the store can write: OK, or why not since when.
type Health struct {
	OK      bool
	Problem string    // what the last write that failed for the disk said
	Summary string    // the same without its details (paths, addresses, users), for anyone who asks
	Since   time.Time // when writes began to fail
}

// Health says whether the store's last write succeeded. A write that fails
// for the disk (ErrDiskFull) makes it degraded, the next write that
// succeeds makes it OK again: the store recovers by itself once there is
// room, with nothing to restart.
func (s *Store) Health() Health {
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
			s.health.Store(&Health{Problem: fmt.Sprintf("the last write failed: %v", err), Summary: "the disk is full or failing", Since: s.now()})
		}
	}
}
