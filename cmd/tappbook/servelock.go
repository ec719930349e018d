package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// holdDatabase makes this server the only `tappbook serve` on a SQLite
// file, until release: a second one would answer from what it last read
// (each keeps the games it serves in memory) and refuse writes the first
// made meanwhile. The lock is flock(2) on the file itself, which SQLite's
// own locks (fcntl) do not meet; `verify`, `backup` and `export` do not
// take it and may run beside the server.
func holdDatabase(path string) (release func(), err error) {
	// An empty file is an empty database to SQLite: made here, two servers
	// started at once on a new path meet at the lock, not in the migrations.
	// Readable by the server's user only (0600, less by the umask): the
	// history of every evening's money is nobody else's to read. SQLite
	// gives its -wal and -shm the file's own mode.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("hold %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another tappbook serve is using %s: only one server may serve a database file (a second would show what it last read and refuse what the other recorded); stop the other one, or give this one a --db of its own (several servers share one history on PostgreSQL)", path)
		}
		return nil, fmt.Errorf("hold %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
