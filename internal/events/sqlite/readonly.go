package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"tappbook/internal/events"
	"time"
)

// openReadOnly (Options.ReadOnly) opens an existing database to read and check it (verify),
// never creating, migrating or changing a file: a missing path is an error
// that says so, a file that is not the event store's a *NotStoreError, a
// damaged one a *CorruptError. Appends to it are refused with events.ErrReadOnly.
//
// A file in an older release's layout is refused unless anyLayout: a
// backup copies its pages as they are, which needs no layout.
func openReadOnly(ctx context.Context, path string, anyLayout bool) (*Store, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no database at %s: there is no such file", path)
	}
	if err != nil {
		return nil, fmt.Errorf("no database at %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("no database at %s: it is not a file", path)
	}
	// A rollback journal beside the file is a write its writer never
	// finished; reading past it would see half of it, and only a writer may
	// roll it back.
	if j := besideFile(path, "-journal"); exists(j) {
		return nil, &events.CorruptError{Path: path, Problems: []string{"a write was left unfinished (" + j + " exists): the file was being written when its writer stopped"}}
	}
	params := readOnlyParams()
	// Without a WAL file there is nothing beyond the file itself to read,
	// and SQLite reads it as it is, without making -wal and -shm files
	// beside it. With one, a server may be writing: read through it and its
	// -shm, which readonly_shm keeps SQLite from writing. A -wal without a
	// -shm has no server; reading it would make a -shm.
	switch wal, shm := besideFile(path, "-wal"), besideFile(path, "-shm"); {
	case !exists(wal):
		params.Set("immutable", "1")
	case !exists(shm):
		return nil, fmt.Errorf("%s has a write-ahead log (%s) but no %s beside it, which reading the log would create: copy the file and its -wal elsewhere and use the copy, or start the server on it once", path, wal, shm)
	}
	read, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	read.SetMaxOpenConns(4)
	read.SetMaxIdleConns(4)
	if err := read.PingContext(ctx); err != nil {
		read.Close()
		return nil, withPath("open", path, classify(path, err))
	}
	if err := checkSchema(ctx, read, path); err != nil {
		read.Close()
		return nil, err
	}
	// Not migrated here: a file of an older release is read by that release,
	// or by this one once a server has started on it.
	var layout int
	if err := read.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'stream_events'`).Scan(&layout); !anyLayout && (err != nil || layout == 0) {
		read.Close()
		return nil, errors.Join(fmt.Errorf("%s is in the layout of an older release: start the server on it once (it moves the events to this release's layout), then try again", path), err)
	}
	return &Store{read: read, path: path, opt: Options{ReadOnly: true}.withDefaults()}, nil
}

// readOnlyParams are the settings of a connection that only reads: it
// never writes a log into the file nor deletes it, nor writes the -shm.
func readOnlyParams() url.Values {
	params := url.Values{}
	params.Set("mode", "ro")
	params.Set("readonly_shm", "1")
	params.Set("_busy_timeout", strconv.FormatInt((5*time.Second).Milliseconds(), 10))
	params.Set("_query_only", "1")
	params.Set("_txlock", "deferred")
	return params
}

// exists reports whether there is a file at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
