package sqlite

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"tappbook/internal/events"
	"time"

	"github.com/mattn/go-sqlite3"
)

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

// fileGoneError says which path, and what is there now.
type fileGoneError struct {
	path string
	now  error // why path is not the file opened: nil when another file is there
}

func (e *fileGoneError) Error() string {
	if strings.HasSuffix(e.path, "-wal") {
		// Nothing to put back: what the log held is copied into the file
		// (keepWhatTheLogHolds), and a restart begins a new one.
		return fmt.Sprintf("%v: %s, the file's write-ahead log, is gone or another file now; restart the server", events.ErrFileGone, e.path)
	}
	if e.now != nil {
		return fmt.Sprintf("%v: %s is gone (%v); put it back (or the copy the server's log names), then restart the server", events.ErrFileGone, e.path, e.now)
	}
	return fmt.Sprintf("%v: %s is another file now; put the one opened back, then restart the server", events.ErrFileGone, e.path)
}

func (e *fileGoneError) Unwrap() error { return events.ErrFileGone }

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
	if fi, err = os.Stat(s.walPath); err != nil && s.logBack() {
		fi, err = os.Stat(s.walPath)
	}
	if err != nil {
		return &fileGoneError{path: s.walPath, now: err}
	}
	if !os.SameFile(fi, s.walFile) {
		return &fileGoneError{path: s.walPath}
	}
	return nil
}

// logBack puts the store's own -wal back at its path when it was moved
// aside for another file that took the path (keepWhatTheLogHolds) and the
// store's file is back: the file and its log are again as a restart reads
// them, and the store writes again. Says whether it did.
func (s *Store) logBack() bool {
	// Not waited for: a rescue under way may wait for the commit that
	// looks here (a FULL checkpoint waits for the writer). The next look
	// puts it back.
	if !s.rescue.TryLock() {
		return false
	}
	defer s.rescue.Unlock()
	if s.setAside == "" {
		return false
	}
	if fi, err := os.Stat(s.setAside); err != nil || !os.SameFile(fi, s.walFile) {
		return false
	}
	if _, err := os.Lstat(s.walPath); err == nil {
		return false // something else is there now
	}
	if err := os.Rename(s.setAside, s.walPath); err != nil {
		return false
	}
	os.Rename(s.setAside+"-shm", s.realPath+"-shm")
	log.Printf("events: %s is back, and its log %s with it, from %s", s.path, s.walPath, s.setAside)
	s.setAside = ""
	return true
}

// keepWhatTheLogHolds keeps what the store has committed when the file or
// its -wal at their paths are no longer the ones it writes (deleted, moved
// or replaced): the files this process still has open are then the only
// copy of it, and a restart, or a kill, would lose it.
//
// A -wal gone while the file is still there is copied into the file (a
// FULL checkpoint), and a restart needs nothing more. Otherwise — the file
// itself gone, or the checkpoint kept from finishing by another process's
// read — the database as this store sees it is written whole to a copy
// beside the path (VACUUM INTO, which readers do not hinder), which events.Health
// names with what to do with it. Another file at the -wal's path (a copy
// put back) is moved aside: a restart would read it over the file and undo
// what was committed since it was copied.
//
// Nothing is committed while the files are gone, so one rescue holds until
// a commit slips in; wait says to wait for a rescue under way (a commit
// refused), else one is left to it (events.Health, which must answer).
func (s *Store) keepWhatTheLogHolds(err error, wait bool) {
	var gone *fileGoneError
	if s.ckpt == nil || !errors.As(err, &gone) {
		return
	}
	if wait {
		s.rescue.Lock()
	} else if !s.rescue.TryLock() {
		return
	}
	defer s.rescue.Unlock()
	ctx := context.Background()
	n := s.commits.Load()
	failedLately := !s.rescued.failed.IsZero() && time.Since(s.rescued.failed) < rescueRetry && n == s.rescued.commits
	if (n != s.rescued.commits || s.rescued.at.IsZero()) && !failedLately {
		done := false
		if gone.path == s.walPath {
			var busy, frames, copied int
			err := s.ckpt.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(FULL)`).Scan(&busy, &frames, &copied)
			done = err == nil && busy == 0
			if !done {
				log.Printf("events: %s is gone and what it held could not all be copied into %s (busy %d, %d of %d pages): %v; writing a whole copy instead", s.walPath, s.path, busy, copied, frames, err)
			}
		}
		copyPath := ""
		if !done {
			copyPath = boundedName(s.realPath, ".rescued-")
			if err := s.copyWhole(ctx, copyPath); err != nil {
				// The folder may be gone too.
				alt := filepath.Join(os.TempDir(), filepath.Base(copyPath))
				if err2 := s.copyWhole(ctx, alt); err2 != nil {
					log.Printf("events: no copy of what this server holds could be written, to %s (%v) or %s (%v): do not stop the server before the file is back", copyPath, err, alt, err2)
					copyPath = ""
				} else {
					copyPath = alt
				}
			}
			done = copyPath != ""
			if done {
				log.Printf("events: %s", rescueAdvice(copyPath, s.realPath))
			}
		}
		if done {
			s.rescued = rescue{commits: n, at: time.Now(), copy: copyPath}
		} else {
			s.rescued.commits, s.rescued.failed = n, time.Now() // not tried again at every look
		}
	}
	fi, err := os.Stat(s.walPath)
	switch {
	case err != nil:
	case gone.path == s.walPath && !os.SameFile(fi, s.walFile):
		// The file is this store's, the log at its path another's.
		aside := boundedName(s.walPath, ".not-this-servers-")
		if err := os.Rename(s.walPath, aside); err != nil {
			if !s.asideFailed {
				log.Printf("events: %s is not the log this server writes, and a restart would read it over %s: move it aside before restarting (%v)", s.walPath, s.path, err)
			}
			s.asideFailed = true // said once, not at every request
		} else {
			log.Printf("events: %s was not the log this server writes: moved to %s, so that a restart does not read it over %s", s.walPath, aside, s.path)
		}
	case gone.path == s.path && gone.now == nil && os.SameFile(fi, s.walFile):
		// Another file at the path (a backup put back): the log beside it
		// is this store's, which a restart would read over that file. Moved
		// aside with its -shm: the store finds its log gone at every commit
		// until its own file is back, and the log with it (logBack).
		aside := boundedName(s.walPath, ".of-the-file-replaced-")
		if err := os.Rename(s.walPath, aside); err != nil {
			if !s.asideFailed {
				log.Printf("events: %s is this server's log, not the log of the file now at %s, and a restart would read it over that file: move it and %s-shm aside before restarting (%v)", s.walPath, s.path, s.realPath, err)
			}
			s.asideFailed = true // said once, not at every request
			return
		}
		s.setAside = aside
		shm := s.realPath + "-shm"
		if _, err := os.Stat(shm); err == nil {
			os.Rename(shm, aside+"-shm")
		}
		log.Printf("events: %s was this server's log, not the log of the file now at %s: moved to %s (with its -shm), so that a restart reads that file as it is", s.walPath, s.path, aside)
	}
}

// copyWhole writes the database as the store holds it to path, under
// another name until it is whole: a name ending in .rescued-… is only
// ever a complete copy (a kill or a full disk midway leaves a .part, which
// a failure removes).
func (s *Store) copyWhole(ctx context.Context, path string) error {
	part := path + ".part"
	_, err := s.ckpt.db.ExecContext(ctx, `VACUUM INTO ?`, part)
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
// SQLite or a copy adds (".part-journal") still fit in 255 bytes.
func boundedPrefix(path, tag string) string {
	base := filepath.Base(path)
	if room := 255 - 19 - len(".part-journal") - len(tag); len(base) > room {
		base = base[:max(0, room)]
	}
	return filepath.Join(filepath.Dir(path), base+tag)
}

// boundedName is boundedPrefix with the time in nanoseconds after it.
func boundedName(path, tag string) string {
	return boundedPrefix(path, tag) + strconv.FormatInt(time.Now().UnixNano(), 10)
}

// RescuedPrefix is how the names of a database's rescued copies begin,
// beside the file it really is.
func RescuedPrefix(path string) string { return boundedPrefix(realPath(path), ".rescued-") }

// rescue is what keepWhatTheLogHolds last kept: after how many commits,
// when, and where its whole copy is ("" when the file holds it all).
type rescue struct {
	commits int64
	at      time.Time
	copy    string
	failed  time.Time // when a copy last could not be written
}

// rescueRetry is how soon a copy that could not be written is tried again
// with nothing committed since.
const rescueRetry = 30 * time.Second

// rescueAdvice says what to do with a whole copy written by a rescue.
func rescueAdvice(copyPath, path string) string {
	if filepath.Dir(copyPath) == filepath.Clean(os.TempDir()) {
		// The file's folder was gone: a service's private temp folder is
		// removed when it stops (systemd's PrivateTmp).
		return fmt.Sprintf("a complete copy of the database as this server holds it is at %s, in the temp folder, which may be the server's own and go when it stops: copy it elsewhere before stopping the server, then put that copy at %s (moving whatever is there, and its -wal and -shm, aside) and start the server again", copyPath, path)
	}
	return fmt.Sprintf("a complete copy of the database as this server holds it is at %s: stop the server, move whatever is at %s (and its -wal and -shm) aside, put the copy there, and start the server again", copyPath, path)
}

// watchFile looks at the file and its -wal every watchEvery, so that a log
// deleted or replaced while nothing is written is copied into the file
// before a kill can lose it, not only at the next write (events.Health does the
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

// events.Health says whether the store's last write succeeded. A write that fails
// for the disk (events.ErrDiskFull) makes it degraded, the next write that
// succeeds makes it OK again: the store recovers by itself once there is
// room, with nothing to restart.
//
// The database file is looked at as events.Health is asked: a file deleted or
// replaced while the store runs makes it degraded at once, not only after
// a write failed, and the file put back makes it OK again.
func (s *Store) Health() events.Health {
	if err := s.stillTheFile(); err != nil {
		since := s.now()
		if !s.gone.CompareAndSwap(nil, &since) {
			since = *s.gone.Load()
		}
		s.keepWhatTheLogHolds(err, false) // again while it is gone: what was committed meanwhile
		problem := err.Error()
		if s.rescue.TryLock() {
			if c := s.rescued.copy; c != "" {
				problem += "; " + rescueAdvice(c, s.realPath)
			}
			s.rescue.Unlock()
		}
		return events.Health{Problem: problem, Summary: events.ErrFileGone.Error(), Since: since}
	}
	s.gone.Store(nil)
	if h := s.health.Load(); h != nil {
		return *h
	}
	return events.Health{OK: true}
}

// noteWrite keeps the outcome of a write transaction for events.Health.
func (s *Store) noteWrite(err error) {
	switch {
	case err == nil:
		if s.health.Load() != nil {
			s.health.Store(nil)
		}
	case errors.Is(err, events.ErrDiskFull):
		if h := s.health.Load(); h == nil {
			s.health.Store(&events.Health{Problem: fmt.Sprintf("the last write failed: %v", err), Summary: "the last write failed: the disk is full or failing", Since: s.now()})
		}
	}
}
