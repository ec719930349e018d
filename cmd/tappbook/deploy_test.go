package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

const unitFile = "../../deploy/tappbook.service"

// execStart is the unit's ExecStart command line, split into words.
func execStart(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "ExecStart="); ok {
			return strings.Fields(line)
		}
	}
	t.Fatal("the unit has no ExecStart")
	return nil
}

// The README's systemd unit starts what it says: its ExecStart, with the
// address and the database moved to where a test may write, serves.
func TestSystemdUnitCommandServes(t *testing.T) {
	args := execStart(t)
	if args[0] != "/usr/local/bin/tappbook" || args[1] != "serve" {
		t.Fatalf("ExecStart runs %v, want /usr/local/bin/tappbook serve", args[:2])
	}
	args = args[1:]
	addr, db := clitest.FreeAddr(t), filepath.Join(t.TempDir(), "tappbook.db")
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--addr":
			args[i+1] = addr
		case "--db":
			if args[i+1] != "/var/lib/tappbook/tappbook.db" {
				t.Fatalf("the unit keeps its database at %s, not in its StateDirectory", args[i+1])
			}
			args[i+1] = db
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var logs strings.Builder
	go func() { done <- run(ctx, args, &logs, &logs) }()
	up := false
	for range 200 {
		if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
			r.Body.Close()
			up = r.StatusCode == 200
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil || !up {
		t.Fatalf("the unit's command: up %v, %v\n%s", up, err, logs.String())
	}
}

// systemd-analyze verify finds nothing to say about the unit (a warning
// fails too: it exits 0 on unknown keys). It checks that ExecStart's
// binary exists, so the copy checked runs the binary the test builds;
// everything else is the file as shipped.
//
// Where systemd-analyze is not installed the test is skipped, except under
// CI=true, where .ci/run installs Debian's systemd package for it.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil && os.Getenv("CI") == "true" {
		t.Fatal("systemd-analyze is not installed (apt-get install systemd): the unit file cannot be checked")
	}
	if err != nil {
		t.Skip("systemd-analyze is not installed: nothing to check the unit with (TestSystemdUnitCommandServes runs its command)")
	}
	unit, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	bin := clitest.Build(t)
	copyPath := filepath.Join(t.TempDir(), "tappbook.service")
	if err := os.WriteFile(copyPath, []byte(strings.ReplaceAll(string(unit), "/usr/local/bin/tappbook", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", copyPath).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}
