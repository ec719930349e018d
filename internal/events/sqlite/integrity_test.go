package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"tappbook/internal/events"
	"testing"
)

// Open checks the file with SQLite's quick check: a damaged page or a file
// that is not SQLite is refused, and the file is left as it was.
func TestOpenRefusesDamagedFile(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	many := slices.Repeat([]events.NewEvent{{Type: "t", SchemaVersion: 1, Data: map[string]string{"pad": strings.Repeat("x", 500)}}}, 10)
	for i := range 40 {
		if _, err := s.Append(ctx, fmt.Sprintf("g%d", i%7), int64(i/7*10), events.Key{}, many...); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	mid := len(data) / page / 2
	for i := mid * page; i < (mid+1)*page; i++ {
		data[i] = byte(i * 7919)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *events.CorruptError
	if _, err := Open(ctx, path, Options{}); !errors.As(err, &ce) || !strings.Contains(err.Error(), fmt.Sprintf("page %d", mid+1)) {
		t.Fatalf("open a file with a damaged page: %v, want a *events.CorruptError naming page %d", err, mid+1)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Fatal("opening a damaged file changed it")
	}
	if strings.Contains(err0(Open(ctx, path, Options{})), "-wal") {
		t.Fatal("with no -wal beside it, the damage is said to be one's")
	}
	// A -wal beside a damaged file when it is opened may be another
	// file's (a file replaced while a server ran leaves the old one's,
	// which SQLite reads on top of the new): the refusal says what to do.
	if err := os.WriteFile(path+"-wal", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg := err0(Open(ctx, path, Options{})); !strings.Contains(msg, "if the file was replaced while a server had it open, "+path+"-wal is the old file's") || !strings.Contains(msg, "move it and "+path+"-shm aside (keep them) and start again") {
		t.Fatalf("a damaged file with a -wal beside it: %s", msg)
	}
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	junk := filepath.Join(t.TempDir(), "junk.db")
	os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 1000), 0o644)
	var ns *events.NotStoreError
	if _, err := Open(ctx, junk, Options{}); !errors.As(err, &ns) {
		t.Fatalf("open a file that is not SQLite: %v, want a *events.NotStoreError", err)
	}
}

// err0 is the error's text of an open, "" for none.
func err0(s *Store, err error) string {
	if err == nil {
		s.Close()
		return ""
	}
	return err.Error()
}
