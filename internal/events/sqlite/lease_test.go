package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events"
)

// Given a store serving a file, when a second serving store opens the same
// file, then it is refused with what to do, while a read-only open (verify,
// backup) works beside it; once the first closes, the file can be served
// again.
func TestOneServingStoreAFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	first, err := Open(ctx, path, Options{Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	if !first.Fresh() {
		t.Error("a store made at an empty path does not say it is new")
	}
	if _, err := Open(ctx, path, Options{Serve: true}); err == nil || !strings.Contains(err.Error(), "one at a time may write a database file") {
		t.Fatalf("second serving open: %v", err)
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open beside the server: %v", err)
	}
	ro.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path, Options{Serve: true})
	if err != nil {
		t.Fatalf("serving again after Close: %v", err)
	}
	defer again.Close()
	if again.Fresh() {
		t.Error("a store opened on an existing file says it is new")
	}
}

// Given a -wal left beside a path with no file, when a serving store
// opens there, then it is refused and makes no file.
func TestServingStoreRefusesALeftBehindLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	if err := os.WriteFile(path+"-wal", []byte("log"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), path, Options{Serve: true}); err == nil || !strings.Contains(err.Error(), "there is its log") {
		t.Fatalf("open beside a left-behind -wal: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a file was made at %s: %v", path, err)
	}
}

// Given a store that made its file and one that opened a file already
// there, when each is abandoned (a first import that failed), then the
// file it made is gone with SQLite's files beside it, and the other file
// stays as it was: it is the operator's.
func TestAbandonRemovesOnlyAFileTheStoreMade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	made := filepath.Join(dir, "made.db")
	s, err := Open(ctx, made, Options{Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "g", 0, events.Key{}, bigEvent(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Abandon(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(made + "*"); len(left) > 0 {
		t.Fatalf("an abandoned new file left %v", left)
	}
	kept := filepath.Join(dir, "kept.db")
	s, err = Open(ctx, kept, Options{Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "g", 0, events.Key{}, bigEvent(1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, kept, Options{Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Fresh() {
		t.Error("a store opening a file already there says it made it")
	}
	if err := s.Abandon(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Fatalf("an abandoned store removed a file it did not make: %v", err)
	}
}
