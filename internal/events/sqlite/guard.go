package sqlite

import (
	"fmt"
	"os"

	"tappbook/internal/events"
)

// guard is the database file and its -wal as the store opened them: a
// commit into files that are no longer at their paths (deleted, moved or
// replaced while the server ran) goes where no restart reads it. It is set
// once by Open and only read afterwards, so it needs no lock; check has no
// side effects.
type guard struct {
	path, walPath string      // the path as given; the -wal beside the file a link leads to
	file, wal     os.FileInfo // as opened; wal nil when there was none to watch
}

// check looks (two stats) whether the file and the -wal at their paths are
// still the ones opened. A store opened read-only watches nothing.
func (g *guard) check() error {
	if g.file == nil {
		return nil
	}
	fi, err := os.Stat(g.path)
	if err != nil || !os.SameFile(fi, g.file) {
		return &fileGoneError{path: g.path, err: err}
	}
	if g.wal == nil {
		return nil
	}
	if fi, err = os.Stat(g.walPath); err != nil || !os.SameFile(fi, g.wal) {
		return &fileGoneError{path: g.walPath, err: err}
	}
	return nil
}

// fileGoneError says which path is not the file opened, and why.
type fileGoneError struct {
	path string
	err  error // why it could not be looked at: nil when another file is there
}

func (e *fileGoneError) Error() string {
	if e.err != nil {
		return fmt.Sprintf("%v: %s is gone (%v)", events.ErrFileGone, e.path, e.err)
	}
	return fmt.Sprintf("%v: %s is another file now", events.ErrFileGone, e.path)
}

func (e *fileGoneError) Unwrap() error { return events.ErrFileGone }
