package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The bench, built as it is run, measures the tappbook built beside it:
// the bare handlers in a process of its own (--serve-ceiling), the
// recording server's profiles read from its --metrics-addr, and the
// memory of a fresh server. Its times are printed, never judged.
func TestBenchMeasuresTheBinaryBesideIt(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", dir, "tappbook/cmd/tappbook", "tappbook/cmd/tappbook-bench").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(dir, "tappbook-bench"), "--events", "600", "--per-game", "301", "--seconds", "0.3",
		"--rounds", "5", "--form-path", "off", "--pg", "off", "--dir", t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tappbook-bench: %v\n%s", err, stderr.String())
	}
	t.Log("\n" + string(out))
	if !strings.Contains(stderr.String(), filepath.Join(dir, "tappbook")+",") {
		t.Errorf("it did not say it measured the tappbook beside it:\n%s", stderr.String())
	}
	for _, line := range []string{
		"1. group-committed raw rows behind a bare HTTP handler",
		"2. where the server's CPU per deal goes, 64 tables",
		"2. peak resident memory of the recording tappbook serve",
		"5. resident memory of a fresh tappbook serve",
	} {
		if !strings.Contains(string(out), line) {
			t.Errorf("no %q in its report", line)
		}
	}
}
