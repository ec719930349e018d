package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
)

// longEvening is evening with many more deals, so that the events span
// many pages of the file.
func longEvening(t *testing.T, path string, deals int) string {
	t.Helper()
	id := evening(t, path)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st)
	for range deals {
		if _, err := svc.Record(ctx, id, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(70)}, game.Checks{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// dirState is every file in a directory with a hash of its content.
func dirState(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][32]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = sha256.Sum256(b)
	}
	return out
}

// verify refuses whatever is not a whole tappbook database with events,
// says what it found, and never creates or changes a file doing so.
func TestVerifyRefusesWhatIsNotAWholeDatabase(t *testing.T) {
	ctx := context.Background()
	good := filepath.Join(t.TempDir(), "good.db")
	longEvening(t, good, 300)
	copyOf := filepath.Join(t.TempDir(), "copy.db")
	var so, se bytes.Buffer
	if err := run(ctx, []string{"backup", "--db", good, "--out", copyOf}, &so, &se); err != nil {
		t.Fatalf("backup: %v %s", err, se.String())
	}
	whole, err := os.ReadFile(copyOf)
	if err != nil {
		t.Fatal(err)
	}
	const pageSize = 4096
	if len(whole) < 20*pageSize {
		t.Fatalf("the copy has %d bytes: too few pages to damage one in the middle", len(whole))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	otherSchema := filepath.Join(t.TempDir(), "other.db")
	db, err := sql.Open("sqlite3", otherSchema)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	otherBytes, _ := os.ReadFile(otherSchema)
	emptyStore := filepath.Join(t.TempDir(), "empty.db")
	st, err := sqlite.Open(ctx, emptyStore, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	// A store that was used is a WAL file; closing it checkpointed and
	// removed the WAL, so the bytes are the whole database.
	emptyBytes, _ := os.ReadFile(emptyStore)

	damaged := slices.Clone(whole)
	mid := len(whole) / pageSize / 2
	copy(damaged[mid*pageSize:(mid+1)*pageSize], garbage(pageSize))

	cases := []struct {
		name string
		file []byte // nil: no file at all
		says []string
	}{
		{"half-written copy", whole[:len(whole)/2], []string{"damaged"}},
		{"a page overwritten with garbage", damaged, []string{"damaged", fmt.Sprintf("(table events) page %d:", mid+1)}},
		{"random bytes", garbage(64 << 10), []string{"not a SQLite database"}},
		{"an empty file", []byte{}, []string{"not a tappbook database", "no events table"}},
		{"another program's database", otherBytes, []string{"not a tappbook database", "no events table"}},
		{"a tappbook database with no events", emptyBytes, []string{"holds no events"}},
		{"no file", nil, []string{"no database at"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t.db")
			if c.file != nil {
				if err := os.WriteFile(path, c.file, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := dirState(t, dir)
			out, err := verifyOut(t, path)
			if err == nil {
				t.Fatalf("verify passed: %q", out)
			}
			t.Log(err)
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Fatalf("verify: %v, want it to say %q", err, s)
				}
			}
			if after := dirState(t, dir); !maps2Equal(before, after) {
				t.Fatalf("verify changed the directory: %v, then %v", keysOf(before), keysOf(after))
			}
		})
	}
}

func maps2Equal(a, b map[string][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keysOf(m map[string][32]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A backup is written beside its target and renamed into place: the
// target is the whole copy or absent, never a part; an existing file is
// never overwritten; nothing else is left in the directory.
func TestBackupIsWholeOrAbsent(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "live.db")
	longEvening(t, src, 50)
	dir := t.TempDir()
	out := filepath.Join(dir, "copy.db")
	var so, se bytes.Buffer
	if err := run(ctx, []string{"backup", "--db", src, "--out", out}, &so, &se); err != nil {
		t.Fatalf("backup: %v %s", err, se.String())
	}
	if names := keysOf(dirState(t, dir)); len(names) != 1 || names[0] != "copy.db" {
		t.Fatalf("the backup left %v in its directory", names)
	}
	if v, err := verifyOut(t, out); err != nil || !strings.Contains(v, "everything matches") {
		t.Fatalf("the backup does not verify: %q %v", v, err)
	}
	before := dirState(t, dir)
	if err := run(ctx, []string{"backup", "--db", src, "--out", out}, &so, &se); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("a backup onto an existing file: %v", err)
	}
	if !maps2Equal(before, dirState(t, dir)) {
		t.Fatal("a refused backup changed the directory")
	}
	// A backup that fails leaves nothing behind.
	st, err := sqlite.Open(ctx, src, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := sqlite.Backup(cancelled, src, filepath.Join(dir, "never.db")); err == nil {
		t.Fatal("a cancelled backup succeeded")
	}
	if !maps2Equal(before, dirState(t, dir)) {
		t.Fatalf("a failed backup left %v", keysOf(dirState(t, dir)))
	}
}

// A backup killed at any moment (SIGKILL, as a power cut or an impatient
// operator would) leaves either no file at its target or a whole copy
// that verifies: never a part that looks like a database.
func TestKilledBackup(t *testing.T) {
	bin := clitest.Build(t)
	src := filepath.Join(t.TempDir(), "live.db")
	longEvening(t, src, 3000)
	// How long a whole backup command takes here, only to spread the kills
	// over it.
	start := time.Now()
	if out, err := exec.Command(bin, "backup", "--db", src, "--out", filepath.Join(t.TempDir(), "timed.db")).CombinedOutput(); err != nil {
		t.Fatalf("backup: %v %s", err, out)
	}
	took := time.Since(start)
	rng := rand.New(rand.NewPCG(7, 11))
	absent, whole := 0, 0
	for round := range 12 {
		dir := t.TempDir()
		out := filepath.Join(dir, "copy.db")
		cmd := exec.Command(bin, "backup", "--db", src, "--out", out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(took * 3 / 2))))
		cmd.Process.Kill()
		cmd.Wait()
		if _, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
			absent++
			continue
		}
		if v, err := verifyOut(t, out); err != nil {
			t.Fatalf("round %d: a killed backup left a file that does not verify: %v %q", round, err, v)
		}
		whole++
	}
	t.Logf("a backup takes %v here; of 12 kills, %d left no file and %d a whole copy", took, absent, whole)
}

// An evening whose every event was deleted by hand, its head row left, is
// named by its id in one plain sentence: not as "event 0, version 0".
func TestVerifyNamesAnEveningRemovedWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	id := evening(t, path)
	raw(t, path, `DELETE FROM events WHERE stream_id = (SELECT id FROM streams WHERE stream = '`+id+`')`)
	_, err := verifyOut(t, path)
	want := "stream " + id + ": its head is at version 9, but none of its events is left: all of them were removed"
	if err == nil || !strings.HasSuffix(err.Error(), ": "+want) || strings.Contains(err.Error(), "event 0") {
		t.Fatalf("verify: %v, want it to end %q", err, want)
	}
}
