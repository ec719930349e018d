package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

// A second `tappbook serve` on a SQLite file one already serves refuses to
// start, saying why, and leaves the first serving; once the first stops,
// another may start. Tools that read beside a server are not refused.
func TestOneServerADatabaseFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tappbook.db")
	addr := clitest.FreeAddr(t)
	logs, stop := startServe(t, "--db", db, "--addr", addr, "--mdns", "off")
	waitLogged(t, logs, "tappbook serving")
	res, err := http.Post("http://"+addr+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("a game: %v %v", res, err)
	}
	res.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var second clitest.Buffer
	err = run(ctx, []string{"serve", "--db", db, "--addr", clitest.FreeAddr(t), "--mdns", "off"}, &second, &second)
	if err == nil || !strings.Contains(err.Error(), "another tappbook (a server, or an import) is using "+db) {
		t.Fatalf("a second server on the same file: %v\n%s", err, second.String())
	}
	var out clitest.Buffer
	if err := run(ctx, []string{"verify", "--db", db}, &out, &out); err != nil {
		t.Fatalf("verify beside the server: %v\n%s", err, out.String())
	}
	stop()
	logs2, _ := startServe(t, "--db", db, "--addr", clitest.FreeAddr(t), "--mdns", "off")
	waitLogged(t, logs2, "tappbook serving")
}

// waitLogged waits until a server's logs say what.
func waitLogged(t *testing.T, logs *clitest.Buffer, what string) {
	t.Helper()
	for range 500 {
		if strings.Contains(logs.String(), what) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the server never logged %q:\n%s", what, logs.String())
}

// A -wal left without its file (the file moved or deleted while a server
// ran) may hold the last deals: serve does not start a new, empty database
// over it, and says what to do.
func TestServeRefusesALogWithoutItsFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tappbook.db")
	if err := os.WriteFile(db+"-wal", []byte("the last deals"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out clitest.Buffer
	err := run(ctx, []string{"serve", "--db", db, "--addr", clitest.FreeAddr(t), "--mdns", "off"}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "there is no database file at "+db+", but there is its log "+db+"-wal") {
		t.Fatalf("serve beside a log without its file: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("a new database was made over the log: %v", err)
	}
	if b, err := os.ReadFile(db + "-wal"); err != nil || string(b) != "the last deals" {
		t.Fatalf("the log: %q %v", b, err)
	}
}

// Where the file is gone but a link to it is not, the log lies beside the
// file the link led to, where SQLite keeps it; and a complete copy a server
// left is not passed over for a new, empty database either (a copy cut
// short, .part, is no copy).
func TestServeRefusesWhatIsLeftBehind(t *testing.T) {
	run1 := func(t *testing.T, db string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out clitest.Buffer
		return run(ctx, []string{"serve", "--db", db, "--addr", clitest.FreeAddr(t), "--mdns", "off"}, &out, &out)
	}
	t.Run("a link to a file gone, its log left", func(t *testing.T) {
		dir := t.TempDir()
		real := filepath.Join(dir, "real", "tappbook.db")
		os.MkdirAll(filepath.Dir(real), 0o755)
		os.WriteFile(real+"-wal", []byte("the last deals"), 0o600)
		link := filepath.Join(dir, "tappbook.db")
		if err := os.Symlink(filepath.Join("real", "tappbook.db"), link); err != nil {
			t.Fatal(err)
		}
		if err := run1(t, link); err == nil || !strings.Contains(err.Error(), "but there is its log "+real+"-wal") {
			t.Fatalf("serve through a link to a gone file with its log left: %v", err)
		}
		if _, err := os.Stat(real); !os.IsNotExist(err) {
			t.Fatalf("a new database was made over the log: %v", err)
		}
	})
	t.Run("a link in a linked folder, its target given with ..", func(t *testing.T) {
		// ln/a → deep/x/y; deep/x/y/tappbook.db → ../real/tappbook.db, which
		// is deep/x/real/tappbook.db (taken from where the link lies).
		dir := t.TempDir()
		for _, d := range []string{"deep/x/y", "deep/x/real", "ln"} {
			os.MkdirAll(filepath.Join(dir, d), 0o755)
		}
		os.Symlink("../deep/x/y", filepath.Join(dir, "ln", "a"))
		os.Symlink("../real/tappbook.db", filepath.Join(dir, "deep/x/y/tappbook.db"))
		real := filepath.Join(dir, "deep/x/real/tappbook.db")
		os.WriteFile(real+"-wal", []byte("the last deals"), 0o600)
		if err := run1(t, filepath.Join(dir, "ln/a/tappbook.db")); err == nil || !strings.Contains(err.Error(), "but there is its log "+real+"-wal") {
			t.Fatalf("serve through links with ..: %v", err)
		}
	})
	t.Run("a complete copy left, in a folder named with brackets", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "Karten [2024]")
		os.MkdirAll(dir, 0o755)
		db := filepath.Join(dir, "tappbook.db")
		os.WriteFile(db+".rescued-1795795330968415080.part", nil, 0o600)
		os.WriteFile(db+".rescued-1795795330968415079", []byte("whole"), 0o600)
		err := run1(t, db)
		if err == nil || !strings.Contains(err.Error(), "a server left a complete copy of it at "+db+".rescued-1795795330968415079 (") {
			t.Fatalf("serve beside a rescued copy: %v", err)
		}
	})
}

// Two servers started at once on a path where there is no file yet: one
// serves, the other refuses at the lock, before either migrates anything.
func TestTwoServersStartedAtOnceOnANewFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tappbook.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 2)
	var logs [2]clitest.Buffer
	addrs := [2]string{clitest.FreeAddr(t), clitest.FreeAddr(t)}
	for i := range 2 {
		go func() {
			errs <- run(ctx, []string{"serve", "--db", db, "--addr", addrs[i], "--mdns", "off"}, &logs[i], &logs[i])
		}()
	}
	select {
	case err := <-errs:
		if err == nil || !strings.Contains(err.Error(), "another tappbook (a server, or an import) is using") {
			t.Fatalf("the second server: %v\n%s\n%s", err, logs[0].String(), logs[1].String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("neither refused:\n%s\n%s", logs[0].String(), logs[1].String())
	}
	// The other serves.
	serving := false
	for range 500 {
		for _, a := range addrs {
			if r, err := http.Get("http://" + a + "/healthz"); err == nil {
				r.Body.Close()
				serving = serving || r.StatusCode == http.StatusOK
			}
		}
		if serving {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-errs; err != nil || !serving {
		t.Fatalf("the first server: serving %v, %v\n%s\n%s", serving, err, logs[0].String(), logs[1].String())
	}
}

// import makes no new database where a log or a copy of the one that was
// is left (it would throw the log away, as a new server would).
func TestImportRefusesWhatIsLeftBehind(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tappbook.db")
	os.WriteFile(db+"-wal", []byte("the last deals"), 0o600)
	_, _, file := exportedEvening(t)
	var out clitest.Buffer
	err := run(context.Background(), []string{"import", file, "--db", db}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "but there is its log "+db+"-wal") {
		t.Fatalf("import beside a log without its file: %v\n%s", err, out.String())
	}
	if b, err := os.ReadFile(db + "-wal"); err != nil || string(b) != "the last deals" {
		t.Fatalf("the log: %q %v", b, err)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("a database was made: %v", err)
	}
}
