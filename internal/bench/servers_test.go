package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A server's CPU comes from its /proc stat line: user and system time in
// clock ticks, after a command name that may hold spaces and parentheses.
func TestStatCPU(t *testing.T) {
	stat := filepath.Join(t.TempDir(), "stat")
	line := "4242 (tapp (book) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 50 0 0 20 0 9 0 100 0 0\n"
	if err := os.WriteFile(stat, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, want := statCPU(stat), 2*time.Second; got != want {
		t.Errorf("statCPU = %v, want %v (150 user + 50 system ticks)", got, want)
	}
	if got := statCPU(filepath.Join(t.TempDir(), "gone")); got != 0 {
		t.Errorf("statCPU of a missing file = %v, want 0", got)
	}

	// This process's own time grows with the work it does (on a busy
	// machine a spin may wait for a clock tick: up to 2 s of it).
	before := processCPU()
	for start := time.Now(); processCPU() <= before; {
		if time.Since(start) > 2*time.Second {
			t.Fatalf("processCPU stayed at %v over 2 s of spinning", before)
		}
	}
}

// CPU per deal is each side's time over the deals of all slices.
func TestDrivesCPUPerDeal(t *testing.T) {
	var d drives
	if s, c := d.cpuPerDeal(); s != 0 || c != 0 {
		t.Fatalf("no deals: %v, %v", s, c)
	}
	d.n, d.server, d.client = 4000, 520*time.Millisecond, 200*time.Millisecond
	if s, c := d.cpuPerDeal(); s != 130*time.Microsecond || c != 50*time.Microsecond {
		t.Errorf("cpuPerDeal = %v, %v; want 130µs, 50µs", s, c)
	}
}
