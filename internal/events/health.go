package events

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
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
var ErrFileGone = errors.New("the database file or its -wal was deleted or replaced while the server ran")

// fileGoneError says which path, and what is there now.
type fileGoneError struct {
	path string
	now  error // why path is not the file opened: nil when another file is there
}

func (e *fileGoneError) Error() string {
	if strings.HasSuffix(e.path, "-wal") {
		// Nothing to put back: what the log held is copied into the file
		// (keepWhatTheLogHolds), and a restart begins a new one.
		return fmt.Sprintf("%v: %s, the file's write-ahead log, is gone or another file now; restart the server", ErrFileGone, e.path)
	}
	if e.now != nil {
		return fmt.Sprintf("%v: %s is gone (%v); put it back or restart the server", ErrFileGone, e.path, e.now)
	}
	return fmt.Sprintf("%v: %s is another file now; put the one opened back or restart the server", ErrFileGone, e.path)
}

func (e *fileGoneError) Unwrap() error { return ErrFileGone }

// stillTheFile checks that the file at the store's path is the one it
// opened, and its -wal too; a store opened read-only watches no file.
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
	if s.walFile == nil {
		return nil
	}
	if fi, err = os.Stat(s.walPath); err != nil {
		return &fileGoneError{path: s.walPath, now: err}
	}
	if !os.SameFile(fi, s.walFile) {
		return &fileGoneError{path: s.walPath}
	}
	return nil
}

// keepWhatTheLogHolds copies every commit the -wal holds into the file,
// when the -wal at its path is no longer the one this store writes (deleted
// or replaced) but the file still is: the log open here is then the only
// copy of the commits not yet checkpointed, and a restart, or a kill, would
// read the file without them. Another file at the -wal's path (a copy put
// back) is then moved aside: a restart would read it on top of the file and
// undo what was committed since it was copied. The checkpointer's
// connection does it, so that any caller may, except a commit under way
// (a FULL checkpoint waits for it).
func (s *Store) keepWhatTheLogHolds(err error) {
	var gone *fileGoneError
	if s.ckpt == nil || !errors.As(err, &gone) || gone.path != s.walPath {
		return
	}
	s.rescue.Lock()
	defer s.rescue.Unlock()
	var busy, frames, copied int
	if err := s.ckpt.db.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(FULL)`).Scan(&busy, &frames, &copied); err != nil || busy != 0 {
		log.Printf("events: %s is gone and what it held could not all be copied into %s (busy %d, %d of %d pages): %v", s.walPath, s.path, busy, copied, frames, err)
	}
	if fi, err := os.Stat(s.walPath); err == nil && !os.SameFile(fi, s.walFile) {
		aside := fmt.Sprintf("%s.not-this-servers-%d", s.walPath, s.now().Unix())
		if err := os.Rename(s.walPath, aside); err != nil {
			log.Printf("events: %s is not the log this server writes, and a restart would read it over %s: move it aside before restarting (%v)", s.walPath, s.path, err)
		} else {
			log.Printf("events: %s was not the log this server writes: moved to %s, so that a restart does not read it over %s", s.walPath, aside, s.path)
		}
	}
}

// watchFile looks at the file and its -wal every watchEvery, so that a log
// deleted or replaced while nothing is written is copied into the file
// before a kill can lose it, not only at the next write (Health does the
// rest: it is the same look).
func (s *Store) watchFile(quit <-chan struct{}) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
			s.Health()
		}
	}
}

// watchEvery is how often watchFile looks.
const watchEvery = time.Second

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
		s.keepWhatTheLogHolds(err) // again while it is gone: what was committed meanwhile
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
