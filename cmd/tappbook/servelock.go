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
	f, err := os.Open(path)
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

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// orphanLogError refuses to start a new database where a -wal is left
// without its file: the file was moved or deleted while a server ran, and
// the log may hold its last deals, which a new database would throw away.
func orphanLogError(path, wal string) error {
	return fmt.Errorf("there is no database file at %s, but there is its log %s: the file was probably moved or deleted while a server ran, and the log may hold its last deals. Put the file back beside it (or the complete copy a server left, %s.rescued-…, in its place) and start again; to start a new, empty database here instead, move %s aside first", path, wal, path, wal)
}
