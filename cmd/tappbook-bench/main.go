// Command tappbook-bench measures a tappbook binary beside the limits this
// machine sets (raw SQLite on this disk, bare HTTP handlers, PostgreSQL) and
// prints one table: docs/performance.md says how to read it. It runs
// `tappbook serve` as a process of its own and reads its CPU profiles from
// --metrics-addr (net/http/pprof), so the production binary carries no code
// for it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"tappbook/internal/bench"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return
	}
	fmt.Fprintln(os.Stderr, "tappbook-bench:", err)
	os.Exit(1)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tappbook-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("events", 1_000_000, "events in the replay database")
	perGame := fs.Int("per-game", 1001, "events per game (a game of this many deals, less one)")
	secs := fs.Float64("seconds", 3, "seconds each throughput measurement runs (a profiled one: rounded up to whole seconds)")
	rounds := fs.Int("rounds", 2000, "requests per reading measurement")
	dir := fs.String("dir", ".", "where the temporary databases go: the disk measured")
	server := fs.String("tappbook", "", "the tappbook binary measured (default: tappbook beside this program, else built from the source with go build)")
	ceiling := fs.Bool("serve-ceiling", false, "serve only the bare HTTP handlers tappbook is compared with, on --addr (the bench starts this itself)")
	addr := fs.String("addr", "127.0.0.1:0", "with --serve-ceiling: the address to listen on")
	forms := fs.String("form-path", "on", "the phone's form path on a server preloaded with many deals: on, only (it alone), off")
	formTrace := fs.String("form-trace", "", "a file for the server's runtime trace (go tool trace) through the form path's measure of the most tables")
	pg := fs.String("pg", "", "PostgreSQL to measure recording on beside SQLite: an empty database's postgres:// URL; empty: a throwaway server from the installed postgresql package, in --dir; off: none")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *ceiling {
		return serveCeiling(ctx, *addr, *dir)
	}
	// serve's collector settings (cmd/tappbook, tuneMemory): the replay
	// and reading measures run in this process.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(56 << 20)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bin, done, err := tappbook(ctx, *server, self, *dir)
	if err != nil {
		return err
	}
	defer done()
	d := time.Duration(*secs * float64(time.Second))
	fmt.Fprintf(stderr, "tappbook-bench: %s, %d events, %.1f s per throughput measure, in %s\n", bin, *n, *secs, *dir)
	rep, err := bench.Run(ctx, bench.Options{Dir: *dir, Events: *n, PerGame: *perGame,
		Duration: d, ReadRounds: *rounds, Server: bin, Bench: self, FormPath: *forms, FormTrace: *formTrace})
	if err != nil {
		return err
	}
	rep.Print(stdout)
	if *forms == "only" {
		return nil
	}
	return benchPostgres(ctx, *pg, *dir, d, rep, stdout)
}

// tappbook is the binary to measure: the one given, the one beside this
// program, or one built from the source into a folder of its own in dir,
// which done removes.
func tappbook(ctx context.Context, given, self, dir string) (bin string, done func(), err error) {
	if given != "" {
		return given, func() {}, nil
	}
	beside := filepath.Join(filepath.Dir(self), "tappbook")
	if _, err := os.Stat(beside); err == nil {
		return beside, func() {}, nil
	}
	tmp, err := os.MkdirTemp(dir, "tappbook-bench-bin-")
	if err != nil {
		return "", nil, err
	}
	done = func() { os.RemoveAll(tmp) }
	bin = filepath.Join(tmp, "tappbook")
	if msg, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "tappbook/cmd/tappbook").CombinedOutput(); err != nil {
		done()
		return "", nil, fmt.Errorf("no tappbook beside %s and go build failed (give --tappbook PATH): %w\n%s", self, err, msg)
	}
	return bin, done, nil
}

// serveCeiling runs the bare HTTP handlers tappbook is measured against,
// as a process of their own, as tappbook serve is, until it is told to
// stop.
func serveCeiling(ctx context.Context, addr, dir string) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("ceiling: listen on %s: %w", addr, err)
	}
	return bench.ServeCeiling(ctx, ln, dir)
}
