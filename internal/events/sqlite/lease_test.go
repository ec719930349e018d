package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if _, err := Open(ctx, path, Options{Serve: true}); err == nil || !strings.Contains(err.Error(), "only one server may serve a database file") {
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
