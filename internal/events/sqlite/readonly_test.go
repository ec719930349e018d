package sqlite

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"tappbook/internal/events"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// A store opened read-only reads a database another store is writing (its
// WAL included) and one at rest, refuses every write, and makes no file.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(1), ev(2)); err != nil {
		t.Fatal(err)
	}
	for _, live := range []bool{true, false} {
		if !live {
			s.Close()
		}
		before := names(t, filepath.Dir(path))
		ro, err := Open(ctx, path, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if evs, err := ro.ReadStream(ctx, "g"); err != nil || len(evs) != 2 {
			t.Fatalf("live %v: read %d events, %v", live, len(evs), err)
		}
		if err := ro.CheckIntegrity(ctx, true); err != nil {
			t.Fatal(err)
		}
		if _, err := ro.Append(ctx, "g", 2, events.Key{}, ev(3)); !errors.Is(err, events.ErrReadOnly) {
			t.Fatalf("append: %v", err)
		}
		evs, _ := ro.ReadStream(ctx, "g")
		evs[0].Stream, evs[1].Stream = "h", "h"
		if err := ro.Import(ctx, evs, nil); !errors.Is(err, events.ErrReadOnly) {
			t.Fatalf("import: %v", err)
		}
		if err := ro.Close(); err != nil {
			t.Fatal(err)
		}
		if after := names(t, filepath.Dir(path)); !slices.Equal(before, after) {
			t.Fatalf("live %v: files %v became %v", live, before, after)
		}
	}
	if _, err := Open(ctx, filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true}); err == nil {
		t.Fatal("a missing file opened")
	}
}

// Through a symbolic link to a file a server writes, a reader (verify)
// reads through the WAL beside the file the link leads to, which SQLite
// names after that file: a tester's verify through a link read the main
// file alone, while a checkpoint ran, and called it damaged.
func TestOpenReadOnlyThroughALink(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	appendEvents(t, s, "g", 5)
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("the events are not in a WAL to read through: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, link, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if evs, err := r.ReadStream(ctx, "g"); err != nil || len(evs) != 5 {
		t.Fatalf("read through the link: %d events, %v; want the 5 the server wrote", len(evs), err)
	}
}

// Reading a database left with its -wal and -shm (a server killed, or
// running) changes no file beside it: the -shm is read, never written
// (readonly_shm). A -wal without a -shm is refused, as reading it would
// make one.
func TestReadOnlyChangesNoFileBesideIt(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	appendEvents(t, s, "g", 5)
	left := filepath.Join(t.TempDir(), "left.db")
	for _, side := range []string{"", "-wal", "-shm"} { // as a kill leaves them
		if err := copyFile(path+side, left+side); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	read := func() map[string]string {
		out := map[string]string{}
		for _, side := range []string{"", "-wal", "-shm"} {
			b, _ := os.ReadFile(left + side)
			out[side] = string(b)
		}
		return out
	}
	before := read()
	r, err := Open(ctx, left, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := r.Verify(ctx); err != nil || rep.Events != 5 {
		t.Fatalf("verify through the -wal: %+v %v", rep, err)
	}
	r.Close()
	if !maps.Equal(before, read()) {
		t.Fatal("reading changed the file, its -wal or its -shm")
	}
	os.Remove(left + "-shm")
	if _, err := Open(ctx, left, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "no "+left+"-shm") {
		t.Fatalf("a -wal without its -shm: %v", err)
	}
	if exists(left + "-shm") {
		t.Fatal("a -shm was made")
	}
}
