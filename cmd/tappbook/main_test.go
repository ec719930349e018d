package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

// serve creates the database, answers /healthz, and stops cleanly when its
// context ends (as on SIGTERM), finishing with the database closed.
func TestServe(t *testing.T) {
	for _, viaEnv := range []bool{false, true} {
		db := filepath.Join(t.TempDir(), "sub dir", "t.db")
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			t.Fatal(err)
		}
		addr := clitest.FreeAddr(t)
		args := []string{"serve", "--addr", addr, "--db", db}
		if viaEnv {
			t.Setenv("TAPPBOOK_ADDR", addr)
			t.Setenv("TAPPBOOK_DB", db)
			args = []string{"serve"}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var logs bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- run(ctx, args, &logs, &logs) }()
		var status int
		for range 100 {
			if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
				status = r.StatusCode
				r.Body.Close()
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if status != 200 {
			cancel()
			t.Fatalf("healthz: %d (env %v); logs:\n%s", status, viaEnv, logs.String())
		}
		if _, err := os.Stat(db); err != nil {
			t.Fatalf("database not created: %v", err)
		}
		// A phone following a game live must not hold up the shutdown.
		res, err := http.Post("http://"+addr+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["A","B","C","D"]}`))
		if err != nil {
			t.Fatal(err)
		}
		var g struct{ ID string }
		if err := json.NewDecoder(res.Body).Decode(&g); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		stream, err := http.Get("http://" + addr + "/g/" + g.ID + "/live")
		if err != nil {
			t.Fatal(err)
		}
		defer stream.Body.Close()
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("serve returned %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop")
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("an open live stream held the shutdown for %v", d)
		}
		if !strings.Contains(logs.String(), "stopped") {
			t.Fatalf("no clean stop in the log:\n%s", logs.String())
		}
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"frobnicate"}, &out, &errOut); err == nil || !strings.Contains(errOut.String(), "usage") {
		t.Fatalf("an unknown command: %v, %q", err, errOut.String())
	}
	if err := run(context.Background(), nil, &out, &errOut); err == nil {
		t.Fatal("no command was accepted")
	}
}

// The collector settings apply unless the environment sets its own.
func TestTuneMemory(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	tuneMemory()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Fatalf("GC percent %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != serveMemoryLimit {
		t.Fatalf("memory limit %d, want %d", got, serveMemoryLimit)
	}
	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	tuneMemory()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Fatalf("GOGC=150 in the environment, but the GC percent is %d", got)
	}
	t.Setenv("GOMEMLIMIT", "200MiB")
	debug.SetMemoryLimit(200 << 20)
	tuneMemory()
	if got := debug.SetMemoryLimit(-1); got != 200<<20 {
		t.Fatalf("GOMEMLIMIT=200MiB in the environment, but the limit is %d", got)
	}
}
