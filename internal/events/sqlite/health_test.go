package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"tappbook/internal/events"
	"testing"
	"time"
)

// big is an event larger than a page, so that appending it needs new pages.
func big(n int) events.NewEvent {
	return events.NewEvent{Type: "test.big", SchemaVersion: 1, Data: map[string]any{"n": n, "pad": strings.Repeat("x", 20000)}}
}

// A write the disk refuses is events.ErrDiskFull, writes nothing, and makes the
// store degraded; the next write that succeeds makes it healthy again.
// The "full disk" is SQLite's page quota on the write connection, which
// fails exactly as a full disk does (SQLITE_FULL), without root.
func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(1)); err != nil {
		t.Fatal(err)
	}
	if h := s.Health(); !h.OK || h.Problem != "" {
		t.Fatalf("a fresh store: %+v", h)
	}
	var pages int64
	if err := s.w.conn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	quota := func(n int64) {
		t.Helper()
		if _, err := s.w.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", n)); err != nil {
			t.Fatal(err)
		}
	}
	quota(pages)
	_, err := s.Append(ctx, "g", 1, key("g", "k", "fp"), big(2))
	if !errors.Is(err, events.ErrDiskFull) || !strings.Contains(err.Error(), "append") {
		t.Fatalf("append to a full disk: %v, want events.ErrDiskFull with its context", err)
	}
	h := s.Health()
	if h.OK || !strings.Contains(h.Problem, "full") || h.Since.IsZero() {
		t.Fatalf("health after a failed write: %+v", h)
	}
	// Nothing of it was written, the key included; reading goes on.
	if v, _ := s.StreamVersion(ctx, "g"); v != 1 {
		t.Fatalf("the stream is at version %d after a refused write", v)
	}
	if _, ok, err := s.FindKey(ctx, key("g", "k", "fp")); ok || err != nil {
		t.Fatalf("the key of a refused write was kept: %v %v", ok, err)
	}
	if _, err := s.Append(ctx, "g", 1, events.Key{}, big(3)); !errors.Is(err, events.ErrDiskFull) || s.Health().OK {
		t.Fatalf("a second write: %v, health %+v", err, s.Health())
	}
	quota(1 << 30) // room again
	res, err := s.Append(ctx, "g", 1, key("g", "k", "fp"), big(2))
	if err != nil || res.Duplicate {
		t.Fatalf("append once there is room: %+v %v", res, err)
	}
	if h := s.Health(); !h.OK || h.Problem != "" {
		t.Fatalf("health after a write succeeded again: %+v", h)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 2 {
		t.Fatalf("after a full disk: %+v %v", rep, err)
	}
}

// Options.MaxPages is such a quota from the start.
func TestMaxPages(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir()+"/q.db", Options{MaxPages: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 100 {
		if _, err := s.Append(ctx, "g", int64(i), events.Key{}, big(i)); err != nil {
			if !errors.Is(err, events.ErrDiskFull) || i == 0 {
				t.Fatalf("append %d: %v", i, err)
			}
			return
		}
	}
	t.Fatal("100 events of 20 KB fit in 40 pages")
}

// The file or its -wal deleted, moved or replaced while the store runs: a
// commit then goes where no restart reads it. The store stops: every
// append of the commit that found it is refused (ErrFileGone), and every
// later one too, even with the file back, until a restart; a repeated key
// is not answered from it; one complete copy of everything acknowledged is
// written beside the file; nothing at the operator's paths is renamed or
// made (a tester's server once acknowledged 1,994 deals into a deleted file,
// then started empty).
func TestFileGoneStopsTheStore(t *testing.T) {
	ctx := context.Background()
	for _, how := range []string{"deleted", "replaced", "moved away and back", "-wal deleted", "-wal replaced"} {
		t.Run(how, func(t *testing.T) {
			s, path := openTemp(t)
			if _, err := s.Append(ctx, "g", 0, key("g", "k1", "fp1"), ev(1)); err != nil {
				t.Fatal(err)
			}
			appendEvents(t, s, "h", 4)
			var replacement []byte
			switch how {
			case "deleted":
				os.Remove(path)
			case "replaced": // by another database, as a backup put back would be
				other, otherPath := openTemp(t)
				other.Close()
				mustRename(t, otherPath, path)
			case "moved away and back":
				mustRename(t, path, path+".away")
			case "-wal deleted":
				os.Remove(path + "-wal")
			case "-wal replaced":
				if err := copyFile(path+"-wal", path+".old-wal"); err != nil {
					t.Fatal(err)
				}
				replacement, _ = os.ReadFile(path + ".old-wal")
				mustRename(t, path+".old-wal", path+"-wal")
			}
			before := names(t, filepath.Dir(path))
			errs := make(chan error, 8)
			for i := range 8 { // appends of several streams at once, sharing commits
				go func() {
					_, err := s.Append(ctx, fmt.Sprintf("s%d", i), 0, events.Key{}, ev(i))
					errs <- err
				}()
			}
			for range 8 {
				if err := <-errs; !errors.Is(err, events.ErrFileGone) {
					t.Fatalf("append after the file was %s: %v, want events.ErrFileGone", how, err)
				}
			}
			if how == "moved away and back" {
				mustRename(t, path+".away", path)
			}
			if _, err := s.Append(ctx, "g", 1, events.Key{}, ev(2)); !errors.Is(err, events.ErrFileGone) {
				t.Fatalf("an append later: %v, want the store stopped", err)
			}
			if _, _, err := s.FindKey(ctx, key("g", "k1", "fp1")); !errors.Is(err, events.ErrFileGone) {
				t.Fatalf("a repeated key: %v, want events.ErrFileGone", err)
			}
			copies, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.rescued-*"))
			if len(copies) != 1 {
				t.Fatalf("%d copies, want 1: %v", len(copies), copies)
			}
			if h := s.Health(); h.OK || h.Summary != events.ErrFileGone.Error() || !strings.Contains(h.Problem, copies[0]) {
				t.Fatalf("health: %+v", h)
			}
			if after := names(t, filepath.Dir(path)); len(after) != len(before)+1 && !(len(after) == len(before) && slices.Contains(before, filepath.Base(copies[0]))) {
				t.Fatalf("the folder held %v, and %v after the stop: only the copy may be new", before, after)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("close: %v", err)
			}
			assertHolds(t, copies[0], 5)
			if fi, err := os.Stat(copies[0]); err != nil || fi.Mode().Perm()&0o077 != 0 {
				t.Fatalf("the copy is readable by others: %v %v", fi.Mode(), err)
			}
			if how == "deleted" && exists(path) {
				t.Fatal("a file appeared where the database was deleted")
			}
			// Started again beside the copy, on whatever is at the path now,
			// a server could serve fewer deals than were acknowledged.
			if how != "deleted" {
				beside := names(t, filepath.Dir(path))
				if _, err := Open(ctx, path, Options{Serve: true}); err == nil || !strings.Contains(err.Error(), "a server left a complete copy") {
					t.Fatalf("served beside the copy %s: %v", copies[0], err)
				}
				if now := names(t, filepath.Dir(path)); !slices.Equal(now, beside) {
					t.Fatalf("the refused start changed the folder: %v, then %v", beside, now)
				}
			}
			if replacement != nil {
				if got, _ := os.ReadFile(path + "-wal"); !bytes.Equal(got, replacement) {
					t.Fatal("the -wal put in place of the store's was changed or removed")
				}
			}
		})
	}
}

// Health only reads: asked 1,000 times of a store whose file was deleted,
// it writes no copy of its own and renames nothing; the fail-stop (here the
// checkpointer's look, once a second) writes at most the one copy.
func TestHealthOnADeletedFileOnlyReads(t *testing.T) {
	s, path := openTemp(t)
	appendEvents(t, s, "g", 3)
	wal, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	before := names(t, filepath.Dir(path))
	for range 1000 {
		s.Health()
	}
	time.Sleep(2 * watchEvery) // the look stops the store meanwhile
	for range 1000 {
		if s.Health().OK {
			t.Fatal("health OK after the file was deleted and looked at")
		}
	}
	after := names(t, filepath.Dir(path))
	copies, _ := filepath.Glob(path + ".rescued-*")
	if len(copies) != 1 || len(after) != len(before)+1 {
		t.Fatalf("%d copies; the folder held %v, then %v", len(copies), before, after)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || !os.SameFile(fi, wal) {
		t.Fatalf("the -wal was renamed or replaced: %v", err)
	}
	assertHolds(t, copies[0], 3)
}

// assertHolds opens a copy read-only and checks that it holds stream g (or
// g and h) with n events in all, its chain whole.
func assertHolds(t *testing.T, path string, n int) {
	t.Helper()
	c, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if rep, err := c.Verify(context.Background()); err != nil || rep.Problem != nil || rep.Events != n {
		t.Fatalf("the copy %s: %+v %v, want %d events", path, rep, err, n)
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// A file opened with another file's -wal beside it (a backup put back by a
// hand that left the old log): SQLite reads that log over the file, and a
// write connection closing on the damage it sees would copy the log into
// the file for good. The file is checked on a read-only connection first:
// refused, it is left byte for byte as it was, its log beside it.
func TestOpenWithAnotherFilesLogChangesNothing(t *testing.T) {
	ctx := context.Background()
	a, aPath := openTemp(t)
	// Enough that A's log was copied into A's file and begun again: it
	// holds only A's latest pages, which lean on pages B has not.
	for v := range 800 {
		if _, err := a.Append(ctx, fmt.Sprintf("a%d", v%7), int64(v/7), events.Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
	}
	b, bPath := openTemp(t)
	appendEvents(t, b, "b", 3)
	b.Close()
	// A's log, as it is while A runs, beside B.
	for _, side := range []string{"-wal", "-shm"} {
		if err := copyFile(aPath+side, bPath+side); err != nil {
			t.Fatal(err)
		}
	}
	before, err := os.ReadFile(bPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, bPath, Options{})
	if err == nil {
		s.Close()
		t.Fatal("a file read through another file's log opened as sound")
	}
	after, _ := os.ReadFile(bPath)
	if !bytes.Equal(before, after) {
		t.Fatalf("the refused file was changed: %d bytes before, %d after (%v)", len(before), len(after), err)
	}
	if _, err := os.Stat(bPath + "-wal"); err != nil {
		t.Fatalf("the log beside it is gone: %v", err)
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

// A copy's name stays within a file system's 255 bytes however long the
// database's name, and begins as serve looks for it.
func TestRescuedPrefix(t *testing.T) {
	long := "/data/" + strings.Repeat("k", 240) + ".db"
	for _, path := range []string{"/data/tappbook.db", long} {
		p := rescuedPrefix(path)
		if name := filepath.Base(p) + "1795795330968415080.part-journal"; len(name) > 255 || !strings.HasPrefix(name, filepath.Base(path)[:min(200, len(filepath.Base(path)))]) || filepath.Dir(p) != "/data" {
			t.Errorf("%s: a copy named %s (%d bytes)", path, name, len(name))
		}
	}
	if got := rescuedPrefix("/data/tappbook.db"); got != "/data/tappbook.db.rescued-" {
		t.Errorf("prefix %s", got)
	}
}

// appendEvents appends n events to a new stream, one at a time, as n
// requests would.
func appendEvents(t *testing.T, s *Store, stream string, n int) {
	t.Helper()
	for v := range n {
		if _, err := s.Append(context.Background(), stream, int64(v), events.Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
	}
}

// Given a store whose -wal was deleted where no copy can be written (here
// a name in the way), when it stops, then it says none could be written
// yet and to keep it running; once a try is due again and succeeds, the
// copy holds everything acknowledged and Health says where it is. A tester
// lost 117 acknowledged deals to a server stopped before any copy existed.
func TestARescueCopyIsTriedAgainUntilWritten(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	var clock atomic.Int64
	clock.Store(now.UnixNano())
	path := filepath.Join(t.TempDir(), "t.db")
	var logged bytes.Buffer
	s, err := Open(ctx, path, Options{Now: func() time.Time { return time.Unix(0, clock.Load()).UTC() }, Log: slog.New(slog.NewJSONHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	appendEvents(t, s, "g", 3)
	blocker := rescuedPrefix(path) + strconv.FormatInt(now.UnixNano(), 10) + ".part"
	if err := os.Mkdir(blocker, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + "-wal")
	if _, err := s.Append(ctx, "g", 3, events.Key{}, ev(4)); !errors.Is(err, events.ErrFileGone) {
		t.Fatalf("append with the -wal deleted: %v", err)
	}
	copies := func() []string {
		c, _ := filepath.Glob(rescuedPrefix(path) + "*[0-9]")
		return c
	}
	if h := s.Health(); len(copies()) != 0 || !strings.Contains(h.Problem, "no copy could be written yet") || !strings.Contains(h.Problem, "keep the server running") {
		t.Fatalf("health with no copy: %+v %v", h, copies())
	}
	clock.Add(int64(5 * time.Second))
	s.Append(ctx, "g", 3, events.Key{}, ev(4))
	if len(copies()) != 0 {
		t.Fatalf("tried again before it was due: %v", copies())
	}
	clock.Add(int64(6 * time.Second))
	s.Append(ctx, "g", 3, events.Key{}, ev(4))
	got := copies()
	if len(got) != 1 || !strings.Contains(s.Health().Problem, "a complete copy of everything it acknowledged is "+got[0]) {
		t.Fatalf("after the try was due: %v, health %+v", got, s.Health())
	}
	clock.Add(int64(time.Minute))
	s.Append(ctx, "g", 3, events.Key{}, ev(4))
	if len(copies()) != 1 {
		t.Fatalf("a second copy: %v", copies())
	}
	s.Close()
	assertHolds(t, got[0], 3)
	// Said in the server's log, as errors: first why there is no copy,
	// then where it is.
	if l := logged.String(); strings.Count(l, `"level":"ERROR"`) != 2 || !strings.Contains(l, "no copy could be written yet") || !strings.Contains(l, got[0]) {
		t.Fatalf("the log: %s", l)
	}
}
