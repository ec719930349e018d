package bench

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// A sample is placed by the function it fell in: tappbook's own, or what
// tappbook runs on.
func TestPlace(t *testing.T) {
	for fn, want := range map[string]string{
		"tappbook/internal/tapp.(*Folder).Apply":         "tappbook's own code",
		"tappbook/internal/web.api.recordHand":           "tappbook's own code",
		"main.serve":                                     "tappbook's own code",
		"runtime.cgocall":                                sqliteC,
		"sqlite3VdbeExec":                                sqliteC,
		"github.com/mattn/go-sqlite3.(*SQLiteStmt).exec": "database/sql and driver",
		"database/sql.(*Stmt).ExecContext":               "database/sql and driver",
		"syscall.Syscall6":                               "system calls",
		"internal/runtime/syscall/linux.Syscall6":        "system calls",
		"indexbytebody":                                  "Go runtime",
		"runtime.mallocgc":                               "Go runtime",
		"runtime.futex":                                  "Go runtime",
		"sync.(*Mutex).Lock":                             "Go runtime",
		"net/http.(*conn).serve":                         "HTTP (net/http, echo)",
		"github.com/labstack/echo/v4.(*Echo).ServeHTTP":  "HTTP (net/http, echo)",
		"encoding/json.(*decodeState).object":            "JSON and reflection",
		"reflect.Value.Field":                            "JSON and reflection",
		"github.com/shopspring/decimal.Decimal.Add":      "decimals",
		"math/big.nat.add":                               "decimals",
		"strconv.AppendInt":                              "other Go library",
		"crypto/internal/fips140/sha256.blockAMD64":      "other Go library",
	} {
		if got := place(fn); got != want {
			t.Errorf("place(%q) = %q, want %q", fn, got, want)
		}
	}
}

// The bench profiles a real `tappbook serve` (net/http/pprof on its
// --metrics-addr, a profile for each measure) while 1, 4 and 64 tables
// record, and reads each profile into the server's CPU per deal by place.
func TestProfilingAServer(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tappbook")
	if out, err := exec.Command("go", "build", "-o", bin, "tappbook/cmd/tappbook").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var r Report
	if err := profiling(context.Background(), bin, t.TempDir(), 700*time.Millisecond, &r); err != nil {
		t.Fatal(err)
	}
	// A profile samples every 10 ms: only what is certain to fill many
	// samples is asserted (a place of a few µs a deal may have none).
	for what, c := range map[string]CPUPlaces{"1 table": r.Profile1, "4 tables": r.Profile4, "64 tables": r.Profile64} {
		if c.Total() <= 0 || c.Total() > time.Second || c["Go runtime"] <= 0 || c[sqliteC] <= 0 {
			t.Errorf("%s: %v per deal in all: %s", what, c.Total(), c)
		}
	}
}

// At 64 tables a deal may cost what the cores kept busy allow at 0.70× the
// ceiling: the more of tappbook's cores and the bare handler's.
func TestRecord64Missing(t *testing.T) {
	r := Report{
		Record64PerSec: 10_000, Record64CPU: 100 * time.Microsecond, Record64ClientCPU: 30 * time.Microsecond, // 1.3 cores
		CeilingPerSec: 20_000, CeilingCPU: 40 * time.Microsecond, CeilingClientCPU: 30 * time.Microsecond, // 1.4 cores
	}
	// 1.4 cores over 14,000 deals a second: 100 µs a deal, 30 less than spent.
	if got := r.record64Missing(); got < 29*time.Microsecond || got > 31*time.Microsecond {
		t.Errorf("missing %v, want 30µs", got)
	}
	r.CeilingCPU = 10 * time.Microsecond // 0.8 cores: tappbook's 1.3 count
	// 1.3 cores over 14,000 deals a second: 92.9 µs a deal.
	if got := r.record64Missing(); got < 36*time.Microsecond || got > 38*time.Microsecond {
		t.Errorf("missing %v, want 37µs", got)
	}
	if got := (Report{}).record64Missing(); got != 0 {
		t.Errorf("not measured: missing %v, want 0", got)
	}
}
