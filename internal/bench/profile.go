package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Where a server's CPU goes, by the function each profile sample fell in:
// tappbook's own code, or what it runs on. The order is the report's.
var places = []string{"tappbook's own code", sqliteC, "database/sql and driver", "Go runtime", "system calls", "HTTP (net/http, echo)", "JSON and reflection", "decimals", "other Go library"}

// sqliteC is the place of every sample taken in C. The only C is SQLite,
// and the profiler counts the kernel's work in the system calls SQLite
// makes (writing the WAL, its fsync, its locks) as the C that made them:
// perf shows most of this place in the kernel, under fsync.
const sqliteC = "SQLite (C) and the kernel under it (WAL writes, fsync, locks)"

// place is where a sample whose innermost function is fn ran.
func place(fn string) string {
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(fn, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("tappbook/", "main."): // main is cmd/tappbook
		return "tappbook's own code"
	case has("aeshash", "memeqbody", "indexbytebody", "cmpbody", "countbody"):
		return "Go runtime" // its assembly, named without a package
	case has("runtime.cgocall", "runtime.asmcgocall", "runtime._ExternalCode", "_cgo_") || !strings.Contains(fn, "."):
		// A sample in C shows the Go frame that called it (the only C
		// here is SQLite), or a C symbol with no package.
		return sqliteC
	case has("database/sql", "github.com/mattn/go-sqlite3"):
		return "database/sql and driver"
	case has("syscall.", "internal/runtime/syscall", "internal/syscall/", "internal/poll."):
		return "system calls"
	case has("runtime.", "internal/runtime/", "sync.", "internal/sync.", "sync/atomic.", "internal/abi.", "internal/bytealg."):
		return "Go runtime"
	case has("net/http.", "net/textproto.", "github.com/labstack/", "net.", "bufio.", "crypto/tls."):
		return "HTTP (net/http, echo)"
	case has("encoding/json.", "github.com/go-json-experiment/", "reflect.", "internal/reflectlite."):
		return "JSON and reflection"
	case has("github.com/shopspring/decimal", "math/big."):
		return "decimals"
	}
	return "other Go library"
}

// CPUPlaces is a server's CPU per deal by place: the function each
// profile sample fell in.
type CPUPlaces map[string]time.Duration

// cpuPlaces gives a CPU profile's CPU per deal by place.
func cpuPlaces(p *profile.Profile, deals int) (CPUPlaces, error) {
	cpu := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			cpu = i
		}
	}
	if cpu < 0 || deals == 0 {
		return nil, errors.New("a profile with no CPU time, or no deals")
	}
	out := CPUPlaces{}
	for _, s := range p.Sample {
		// The stack, innermost first (an inlined callee before its caller).
		var stack []string
		for _, l := range s.Location {
			for _, ln := range l.Line {
				stack = append(stack, ln.Function.Name)
			}
		}
		out[place(first(stack))] += time.Duration(s.Value[cpu])
	}
	for k, v := range out {
		out[k] = v / time.Duration(deals)
	}
	return out, nil
}

func first(stack []string) string {
	if len(stack) == 0 {
		return ""
	}
	return stack[0]
}

// Total is the CPU per deal of all places.
func (c CPUPlaces) Total() time.Duration {
	var t time.Duration
	for _, v := range c {
		t += v
	}
	return t
}

// String lists the places, each in µs per deal.
func (c CPUPlaces) String() string {
	var parts []string
	for _, p := range places {
		if d, ok := c[p]; ok {
			parts = append(parts, fmt.Sprintf("%s %.0f", p, float64(d.Nanoseconds())/1000))
		}
	}
	return strings.Join(parts, " · ") + " µs"
}

// profiling records with 1, 4 and ManyTables tables in a `tappbook serve`
// of its own, profiling its CPU through each (profiled), and gives the
// server's CPU per deal by where it ran.
func profiling(ctx context.Context, bin, dir string, d time.Duration, r *Report) error {
	srv, err := startProfiled(ctx, bin, filepath.Join(dir, "profiled.db"))
	if err != nil {
		return err
	}
	defer srv.stop()
	for _, m := range []struct {
		tables []*table
		out    *CPUPlaces
	}{
		{newTables(srv.base, 2000, 1), &r.Profile1},
		{newTables(srv.base, 2001, 4), &r.Profile4},
		{newTables(srv.base, 2005, ManyTables), &r.Profile64},
	} {
		var dr drives
		p, err := profiled(ctx, srv, &dr, posters(m.tables), d)
		if err != nil {
			return err
		}
		if *m.out, err = cpuPlaces(p, dr.n); err != nil {
			return err
		}
	}
	return nil
}

// profiled drives the posters while the server profiles its CPU, for d
// rounded up to whole seconds (net/http/pprof's unit, on the server's
// --metrics-addr), and gives the profile. The posters begin as the
// profile is asked for and stop once it is in: the deals are those of
// the profile's time, give or take a round trip. A server with no metrics
// address is driven for d, and gives no profile.
func profiled(ctx context.Context, srv *server, dr *drives, ps []poster, d time.Duration) (*profile.Profile, error) {
	if srv.metrics == "" {
		return nil, dr.drive(ctx, ps, d, srv)
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	driven := make(chan error, 1)
	go func() { driven <- dr.drive(ctx, ps, time.Hour, srv) }() // until stopped
	p, err := cpuProfile(ctx, srv.metrics, max(1, int(math.Ceil(d.Seconds()))))
	stop()
	return p, errors.Join(err, <-driven)
}

// cpuProfile asks the server at base (its metrics address) for a CPU
// profile of the next seconds.
func cpuProfile(ctx context.Context, base string, seconds int) (*profile.Profile, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", base, seconds), nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return nil, fmt.Errorf("CPU profile: %s answered %d: %s", base, res.StatusCode, b)
	}
	p, err := profile.Parse(res.Body)
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	return p, nil
}
