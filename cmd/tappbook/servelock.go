package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"tappbook/internal/events"
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
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
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

// nothingLeftBehind refuses to start a new database where a file of the
// one that was there is left: its -wal (the file moved or deleted while a
// server ran; the log may hold its last deals) or a complete copy a server
// wrote when that happened (.rescued-…). A new database would throw the one
// away and leave the other unserved. The names are looked up where SQLite
// keeps them, beside the file a link leads to, even one that is gone.
func nothingLeftBehind(path string) error {
	real := followLinks(path)
	if wal := real + "-wal"; fileExists(wal) {
		return fmt.Errorf("there is no database file at %s, but there is its log %s: the file was probably moved or deleted while a server ran, and the log may hold its last deals. Put the file back beside it and start again; or, to start from a complete copy a server may have left (%s.rescued-…), move %s and %s-shm aside first, then put the copy at %s; to start a new, empty database here instead, move %s and %s-shm aside", path, wal, real, wal, real, real, wal, real)
	}
	var copies []string // complete ones: a .part is what a kill left midway
	// Listed, not globbed: a folder may be named "Karten [2024]".
	entries, _ := os.ReadDir(filepath.Dir(real))
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, filepath.Base(events.RescuedPrefix(real))) && !strings.HasSuffix(name, ".part") && !strings.HasSuffix(name, "-journal") {
			copies = append(copies, filepath.Join(filepath.Dir(real), name))
		}
	}
	if len(copies) > 0 {
		slices.Sort(copies) // by the time in their names: the newest last
		return fmt.Errorf("there is no database file at %s, but a server left a complete copy of it at %s (the file was deleted or moved while it ran): put the copy at %s and start again; to start a new, empty database here instead, move the copies aside", path, copies[len(copies)-1], real)
	}
	return nil
}

// followLinks is the path a chain of symbolic links leads to, whether or
// not the last one's target exists (filepath.EvalSymlinks fails then): its
// folder resolved as it is (a link's ".." is taken from where the link
// really lies), then its last name followed, again.
func followLinks(path string) string {
	for range 40 {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			path = filepath.Join(dir, filepath.Base(path))
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path
		}
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return path
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
