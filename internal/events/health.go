package events

import (
	"errors"
	"time"
)

// ErrDiskFull is a write the disk refused: full (SQLITE_FULL, ENOSPC, a
// quota such as Options.MaxPages) or failing (an I/O error). The
// transaction was rolled back: nothing of it was written.
var ErrDiskFull = errors.New("the disk is full or failing: nothing was written")

// ErrFileGone is a commit refused because the database file is no longer
// at the store's path (deleted, moved or replaced while the server ran),
// or a repeated request not answered from such a file: it is rolled back
// rather than written to a file no restart may find (only a file moved in
// the instant of its commit can hold it), and not acknowledged. Sending it
// again with the same idempotency key is safe.
var ErrFileGone = errors.New("the database file or its -wal was deleted or replaced while the server ran")

// ErrReadOnly is a write to a store opened read-only.
var ErrReadOnly = errors.New("the event store is open read-only")

// Health is whether the store can write: OK, or why not since when.
type Health struct {
	OK      bool
	Problem string    // what the last write that failed for the disk said
	Summary string    // what is wrong without its details (paths, addresses, users), for anyone who asks
	Since   time.Time // when writes began to fail
}
