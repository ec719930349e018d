package sqlite

import (
	"fmt"

	"tappbook/internal/events"
)

// guard is the database file and its -wal as the store opened them: a
// commit into files that are no longer at their paths (deleted, moved or
// replaced while the server ran) goes where no restart reads it. It is set
// once by Open and only read afterwards, so it needs no lock; check has no
// side effects.
type guard struct {
	path, walPath string // the path as given; the -wal beside the file a link leads to
	file, wal     fileID // as opened; wal zero when there was none to watch
}

// fileID is which file a path names: its device and inode.
type fileID struct{ dev, ino uint64 }

// check looks (two statx, identify) whether the file and the -wal at their paths are
// still the ones opened. A store opened read-only watches nothing.
func (g *guard) check() error {
	if g.file == (fileID{}) {
		return nil
	}
	if id, err := identify(g.path); err != nil || id != g.file {
		return &fileGoneError{path: g.path, err: err}
	}
	if g.wal == (fileID{}) {
		return nil
	}
	if id, err := identify(g.walPath); err != nil || id != g.wal {
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
