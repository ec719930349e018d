package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A second `tappbook serve` on a SQLite file one already serves refuses to
// start, saying why, and leaves the first serving; once the first stops,
// another may start. Tools that read beside a server are not refused.
func TestOneServerADatabaseFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tappbook.db")
	addr := freeAddr(t)
	logs, stop := startServe(t, "--db", db, "--addr", addr, "--mdns", "off")
	waitLogged(t, logs, "tappbook serving")
	res, err := http.Post("http://"+addr+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("a game: %v %v", res, err)
	}
	res.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var second syncBuffer
	err = run(ctx, []string{"serve", "--db", db, "--addr", freeAddr(t), "--mdns", "off"}, &second, &second)
	if err == nil || !strings.Contains(err.Error(), "another tappbook serve is using "+db) {
		t.Fatalf("a second server on the same file: %v\n%s", err, second.String())
	}
	var out syncBuffer
	if err := run(ctx, []string{"verify", "--db", db}, &out, &out); err != nil {
		t.Fatalf("verify beside the server: %v\n%s", err, out.String())
	}
	stop()
	logs2, _ := startServe(t, "--db", db, "--addr", freeAddr(t), "--mdns", "off")
	waitLogged(t, logs2, "tappbook serving")
}

// waitLogged waits until a server's logs say what.
func waitLogged(t *testing.T, logs *syncBuffer, what string) {
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
	var out syncBuffer
	err := run(ctx, []string{"serve", "--db", db, "--addr", freeAddr(t), "--mdns", "off"}, &out, &out)
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
