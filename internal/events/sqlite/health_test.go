package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	if err := s.conn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	quota := func(n int64) {
		t.Helper()
		if _, err := s.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", n)); err != nil {
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

// A database file deleted or replaced while the store runs: a commit then
// goes to a file no restart finds, so it is refused as events.ErrFileGone (every
// append of the batch), the store is degraded, and no connection makes a
// new empty database at the path for the next start to open as if it were
// the one (a tester's server acknowledged 1,994 deals that way, then
// started empty).
func TestFileDeletedOrReplacedWhileRunning(t *testing.T) {
	ctx := context.Background()
	for _, how := range []string{"deleted", "replaced"} {
		t.Run(how, func(t *testing.T) {
			s, path := openTemp(t)
			if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(1)); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
			if how == "replaced" { // by another database, as a backup put back would
				other, otherPath := openTemp(t)
				other.Close()
				if err := os.Rename(otherPath, path); err != nil {
					t.Fatal(err)
				}
			}
			// Appends of several streams at once, so that they share commits.
			errs := make(chan error, 8)
			for i := range 8 {
				go func() {
					_, err := s.Append(ctx, fmt.Sprintf("s%d", i), 0, events.Key{}, ev(i))
					errs <- err
				}()
			}
			for range 8 {
				if err := <-errs; !errors.Is(err, events.ErrFileGone) || !strings.Contains(err.Error(), path) {
					t.Fatalf("append after the file was %s: %v, want events.ErrFileGone naming the path", how, err)
				}
			}
			if _, err := s.Append(ctx, "g", 1, events.Key{}, ev(2)); !errors.Is(err, events.ErrFileGone) {
				t.Fatalf("a second append: %v", err)
			}
			if h := s.Health(); h.OK || h.Summary != events.ErrFileGone.Error() || !strings.Contains(h.Problem, path) {
				t.Fatalf("health: %+v", h)
			}
			// Readers may read what they hold; none makes a new file.
			for range 8 {
				s.StreamVersion(ctx, "g")
				s.ReadStream(ctx, "g")
			}
			if fi, err := os.Stat(path); how == "deleted" && !os.IsNotExist(err) {
				t.Fatalf("a file appeared where the database was deleted: %v %v", fi, err)
			}
		})
	}
}

// The file moved away and back while the store runs: a commit while it is
// away is rolled back, not written to a file that may never come back, and
// not acknowledged; a request repeated with its key while the file is away
// is not answered from it either (it would acknowledge what a restart then
// may not find). events.Health looks at the file as it is asked, both ways.
func TestFileMovedAwayAndBack(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, key("g", "k1", "fp1"), ev(1)); err != nil {
		t.Fatal(err)
	}
	away := path + ".away"
	if err := os.Rename(path, away); err != nil {
		t.Fatal(err)
	}
	if h := s.Health(); h.OK || h.Summary != events.ErrFileGone.Error() {
		t.Fatalf("health with the file away, before any write: %+v", h)
	}
	if _, err := s.Append(ctx, "g", 1, key("g", "k2", "fp2"), ev(2)); !errors.Is(err, events.ErrFileGone) {
		t.Fatalf("append with the file away: %v", err)
	}
	for _, k := range []events.Key{key("g", "k1", "fp1"), key("g", "k2", "fp2")} {
		if _, _, err := s.FindKey(ctx, k); !errors.Is(err, events.ErrFileGone) {
			t.Fatalf("key %s looked up with the file away: %v, want events.ErrFileGone", k.Name, err)
		}
	}
	if err := os.Rename(away, path); err != nil {
		t.Fatal(err)
	}
	if h := s.Health(); !h.OK {
		t.Fatalf("health with the file back: %+v", h)
	}
	// The append refused while away is not in the file: its key finds
	// nothing, and the same append with it goes in now, once.
	if evs, ok, err := s.FindKey(ctx, key("g", "k2", "fp2")); err != nil || ok {
		t.Fatalf("the key of the append refused while away, with the file back: %v %v %v", evs, ok, err)
	}
	if _, err := s.Append(ctx, "g", 1, key("g", "k2", "fp2"), ev(2)); err != nil {
		t.Fatalf("append with the file back: %v", err)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 2 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

// The -wal deleted or replaced while the store runs: the commits not yet
// copied into the file are then only in the log this process still has
// open, and a restart (or a kill) would lose them. Whatever notices it
// first — a commit, a request's key looked up, events.Health, or the store's own
// look every second with nothing asked — copies the log into the file, so
// that the file as a kill leaves it has every acknowledged append; the
// next commit is refused, naming the log. A copy put back in its place is
// moved aside, since a restart would read it over the file.
func TestWALDeletedWhileRunning(t *testing.T) {
	for _, noticed := range []string{"by a commit", "by events.Health", "by a key", "by itself", "replaced by a copy"} {
		t.Run(noticed, func(t *testing.T) { walGone(t, noticed) })
	}
}

func walGone(t *testing.T, noticed string) {
	ctx := context.Background()
	s, path := openTemp(t)
	wal := path + "-wal"
	k := key("g", "k", "fp")
	var copied []byte
	for v := range 3 {
		if _, err := s.Append(ctx, "g", int64(v), events.Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
		if v == 0 {
			var err error
			if copied, err = os.ReadFile(wal); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Remove(wal); err != nil {
		t.Fatal(err)
	}
	switch noticed {
	case "by events.Health":
		if h := s.Health(); h.OK || h.Summary != events.ErrFileGone.Error() || !strings.Contains(h.Problem, wal) {
			t.Fatalf("health with the -wal deleted: %+v", h)
		}
	case "by a key":
		if _, _, err := s.FindKey(ctx, k); !errors.Is(err, events.ErrFileGone) {
			t.Fatalf("a key looked up with the -wal deleted: %v", err)
		}
	case "by itself":
		time.Sleep(3 * watchEvery)
	case "replaced by a copy":
		if err := os.WriteFile(wal, copied, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The file and what is at its -wal's path, as a kill -9 now leaves them.
	crashed := filepath.Join(t.TempDir(), "crashed.db")
	if err := copyFile(path, crashed); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(wal, crashed+"-wal"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if noticed == "by a commit" || noticed == "replaced by a copy" {
		// Nothing has looked yet: the kill would lose them. Now a commit.
		_, err := s.Append(ctx, "g", 3, k, ev(3))
		if !errors.Is(err, events.ErrFileGone) || !strings.Contains(err.Error(), wal) || !strings.Contains(err.Error(), "restart the server") {
			t.Fatalf("append with the -wal %s: %v, want events.ErrFileGone naming %s", noticed, err, wal)
		}
		if err := copyFile(path, crashed); err != nil {
			t.Fatal(err)
		}
		os.Remove(crashed + "-wal")
		if err := copyFile(wal, crashed+"-wal"); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if noticed == "replaced by a copy" {
		if _, err := os.Stat(wal); !os.IsNotExist(err) {
			t.Fatalf("the copy is still where a restart reads it: %v", err)
		}
		if aside, _ := filepath.Glob(wal + ".not-this-servers-*"); len(aside) != 1 {
			t.Fatalf("the copy was not moved aside: %v", aside)
		}
	}
	if h := s.Health(); h.OK || !strings.Contains(h.Problem, wal) {
		t.Fatalf("health with the -wal %s: %+v", noticed, h)
	}
	r, err := OpenReadOnly(ctx, crashed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs, err := r.ReadStream(ctx, "g")
	if err != nil || len(evs) != 3 {
		t.Fatalf("after a kill, the file holds %d of the 3 acknowledged appends (%v)", len(evs), err)
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

// The file itself deleted or moved away while the store runs: what it held
// is only in the files this process has open. The store writes the
// database as it holds it to a whole copy beside the path, says where and
// what to do with it, and the copy has every acknowledged append.
func TestFileGoneWhileRunningIsCopiedWhole(t *testing.T) {
	for _, how := range []string{"deleted", "moved"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			s, path := openTemp(t)
			appendEvents(t, s, "g", 3)
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				var err error
				if how == "deleted" {
					err = os.Remove(f)
				} else {
					err = os.Rename(f, f+".away")
				}
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
			if _, err := s.Append(ctx, "g", 3, events.Key{}, ev(3)); !errors.Is(err, events.ErrFileGone) {
				t.Fatalf("append with the file %s: %v", how, err)
			}
			copies, _ := filepath.Glob(path + ".rescued-*")
			if len(copies) != 1 {
				t.Fatalf("whole copies beside the path: %v", copies)
			}
			if h := s.Health(); !strings.Contains(h.Problem, "a complete copy of the database as this server holds it is at "+copies[0]) {
				t.Fatalf("health does not say where the copy is: %+v", h)
			}
			s.Health() // nothing committed since: no second copy
			if again, _ := filepath.Glob(path + ".rescued-*"); len(again) != 1 {
				t.Fatalf("a copy at every look: %v", again)
			}
			assertHolds(t, copies[0], 3)
		})
	}
}

// The -wal deleted while another process reads (a backup, a sqlite3
// shell): the checkpoint cannot finish, so the store writes a whole copy,
// which readers do not hinder.
func TestWALGoneBesideAReaderIsCopiedWhole(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(ctx, path, Options{BusyTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(0)); err != nil {
		t.Fatal(err)
	}
	reader, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_txlock=deferred")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	tx, err := reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the reader reads %d: %v", n, err)
	}
	for v := 1; v < 3; v++ { // past what the reader sees, so the checkpoint must wait for it
		if _, err := s.Append(ctx, "g", int64(v), events.Key{}, ev(v)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(path + "-wal"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "g", 3, events.Key{}, ev(3)); !errors.Is(err, events.ErrFileGone) {
		t.Fatalf("append with the -wal deleted: %v", err)
	}
	copies, _ := filepath.Glob(path + ".rescued-*")
	if len(copies) != 1 {
		t.Fatalf("whole copies beside the path: %v", copies)
	}
	assertHolds(t, copies[0], 3)
}

// assertHolds opens a database file alone, as a restart would, and finds
// n appends to stream g.
func assertHolds(t *testing.T, path string, n int) {
	t.Helper()
	r, err := OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs, err := r.ReadStream(context.Background(), "g")
	if err != nil || len(evs) != n {
		t.Fatalf("%s holds %d of the %d acknowledged appends (%v)", path, len(evs), n, err)
	}
}

// The database's whole folder removed while the store runs: the copy goes
// to the temp folder, and what to do says to copy it out before stopping
// (a service's private temp folder goes when it stops).
func TestFolderGoneWhileRunningIsCopiedToTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "state")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "test.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Append(ctx, "g", 0, events.Key{}, ev(0)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "g", 1, events.Key{}, ev(1)); !errors.Is(err, events.ErrFileGone) {
		t.Fatalf("append with the folder gone: %v", err)
	}
	copies, _ := filepath.Glob(filepath.Join(tmp, "test.db.rescued-*"))
	if len(copies) != 1 {
		t.Fatalf("copies in the temp folder: %v", copies)
	}
	if h := s.Health(); !strings.Contains(h.Problem, copies[0]+", in the temp folder, which may be the server's own and go when it stops: copy it elsewhere before stopping") {
		t.Fatalf("health: %+v", h)
	}
	assertHolds(t, copies[0], 1)
}

// Stopped within a look of the file going, before any request: the store
// keeps what the file held before its connections close. And through a
// --db link, the copy lies beside the file the link led to, where SQLite
// keeps the -wal and serve looks for both.
func TestFileGoneJustBeforeCloseIsCopiedWhole(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "real"), 0o755)
	real := filepath.Join(dir, "real", "test.db")
	link := filepath.Join(dir, "test.db")
	if err := os.Symlink(filepath.Join("real", "test.db"), link); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	appendEvents(t, s, "g", 2)
	if err := os.Remove(real); err != nil {
		t.Fatal(err)
	}
	s.Close()
	copies, _ := filepath.Glob(real + ".rescued-*")
	if len(copies) != 1 {
		others, _ := filepath.Glob(filepath.Join(dir, "*"))
		t.Fatalf("copies beside the real file: %v (in the folder: %v)", copies, others)
	}
	assertHolds(t, copies[0], 2)
}

// The file replaced by another database (a backup put back by rename)
// while the store runs: the store's own -wal beside it would be read over
// that file at the next start, so it is moved aside (with its -shm) once
// the store's own data is copied whole; the file put back then opens as it
// is. Its own file put back in turn, the log comes back with it.
func TestFileReplacedWhileRunningLeavesNoLogOverIt(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	appendEvents(t, s, "g", 20)
	// The backup: another database with one stream of its own.
	other, otherPath := openTemp(t)
	if _, err := other.Append(ctx, "b", 0, events.Key{}, ev(0)); err != nil {
		t.Fatal(err)
	}
	other.Close()
	away := path + ".away"
	if err := os.Rename(path, away); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(otherPath, path); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "g", 20, events.Key{}, ev(20)); !errors.Is(err, events.ErrFileGone) {
		t.Fatalf("append with the file replaced: %v", err)
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("the store's own log is still beside the file put back: %v", err)
	}
	if aside, _ := filepath.Glob(path + "-wal.of-the-file-replaced-*"); len(aside) != 2 { // the log and its -shm
		t.Fatalf("the log moved aside: %v", aside)
	}
	copies, _ := filepath.Glob(path + ".rescued-*")
	if len(copies) != 1 {
		t.Fatalf("whole copies: %v", copies)
	}
	assertHolds(t, copies[0], 20)
	// The file put back opens as it is: the backup's one stream.
	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if evs, err := r.ReadStream(ctx, "b"); err != nil || len(evs) != 1 {
		t.Fatalf("the file put back reads %d events of its own (%v)", len(evs), err)
	}
	r.Close()
	// Its own file put back, as the refusal says: its log comes back with
	// it, the store writes again, and the file with its log, as a kill
	// leaves them, has every acknowledged append.
	os.Rename(path, otherPath)
	os.Rename(away, path)
	if _, err := s.Append(ctx, "g", 20, events.Key{}, ev(20)); err != nil {
		t.Fatalf("append with its own file back: %v", err)
	}
	if h := s.Health(); !h.OK {
		t.Fatalf("health with its own file back: %+v", h)
	}
	crashed := filepath.Join(t.TempDir(), "crashed.db")
	for _, side := range []string{"", "-wal"} {
		if err := copyFile(path+side, crashed+side); err != nil {
			t.Fatal(err)
		}
	}
	assertHolds(t, crashed, 21)
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

// A rescued copy's name stays within a file system's 255 bytes however
// long the database's name, and begins as serve looks for it.
func TestRescuedPrefix(t *testing.T) {
	long := "/data/" + strings.Repeat("k", 240) + ".db"
	for _, path := range []string{"/data/tappbook.db", long} {
		p := RescuedPrefix(path)
		if name := filepath.Base(p) + "1795795330968415080.part"; len(name) > 255 || !strings.HasPrefix(name, filepath.Base(path)[:min(200, len(filepath.Base(path)))]) || filepath.Dir(p) != "/data" {
			t.Errorf("%s: a copy named %s (%d bytes)", path, name, len(name))
		}
	}
	if got := RescuedPrefix("/data/tappbook.db"); got != "/data/tappbook.db.rescued-" {
		t.Errorf("prefix %s", got)
	}
	// And the names a -wal is moved aside to.
	for _, wal := range []string{"/data/tappbook.db-wal", long + "-wal"} {
		for _, tag := range []string{".of-the-file-replaced-", ".not-this-servers-"} {
			if name := filepath.Base(boundedName(wal, tag)) + "-shm"; len(name) > 255 || !strings.Contains(name, tag) {
				t.Errorf("%s moved aside as %s (%d bytes)", wal, name, len(name))
			}
		}
	}
	if got := boundedName("/data/tappbook.db-wal", ".x-"); !strings.HasPrefix(got, "/data/tappbook.db-wal.x-") {
		t.Errorf("short names are whole: %s", got)
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
