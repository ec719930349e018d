// Command tappbook is the scorekeeper: `tappbook serve` runs the web app and
// JSON API on a local SQLite file; `tappbook version` says which build it is.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"tappbook/internal/bench"
)

// The collector's settings for the commands that fold a lot (serve,
// verify, bench); GOMEMLIMIT and GOGC in the environment win.
const (
	serveMemoryLimit = 64 << 20 // the Go heap's soft limit
	gcPercent        = 400      // collect when the heap has grown 4×, not 2×
)

// tuneMemory sets the collector for tappbook's work on a small home
// machine. A soft heap limit keeps resident memory small: a larger live heap
// slows the collector down, never the server. Under it, collecting at 4×
// growth rather than 2×: folding history keeps a live heap of a few games,
// so at the default the collector ran every few thousand events and took a
// third of a replay's time (200,000 events: 230k → 346k events/s).
func tuneMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}

func main() {
	os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}

// exitCode is the process's status for run's error, which it says: -h
// asked for the help it printed, which is no failure.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintln(stderr, "tappbook:", err)
	return 1
}

const usage = `usage: tappbook <command> [flags]

commands:
  serve              run the scorekeeper (--addr, --db FILE or postgres://URL, --tls-cert/--tls-key, --domain, --mdns; see serve -h)
  verify             check the file, the hash chain, and re-score every deal (--db);
                     --game ID [--fingerprint F]: one game's chain, and that it still ends at F
                     --receipt FILE [--key K]: a signed receipt, offline and against the database
  backup --out FILE  copy the live database consistently (--db)
  export ID          write a game's events as JSON lines; a group's with its evenings (--db, --out)
  import FILE        recreate a game, or a group with its evenings, from an export (--db)
  bench              measure tappbook beside raw SQLite on this disk (--events, --seconds, --dir),
                     and recording on PostgreSQL beside it (--pg URL, or a throwaway server; --pg off),
                     and the phone's form path on a server holding 45,500 deals (--form-path on|only|off)
  healthcheck        ask a server's /readyz (--url): exit 0 when ready, 1 when not (a container's HEALTHCHECK)
  version            print the release, the commit it was built from, and the schema it writes
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stderr)
	case "verify":
		return verify(ctx, args[1:], stdout, stderr)
	case "backup":
		return backup(ctx, args[1:], stdout, stderr)
	case "export":
		return export(ctx, args[1:], stdout, stderr)
	case "import":
		return importGame(ctx, args[1:], stdout, stderr)
	case "bench":
		return benchmark(ctx, args[1:], stdout, stderr)
	case "healthcheck":
		return healthcheck(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-v":
		return printVersion(stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// envOr gives the environment variable's value, or def when it is unset.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func benchmark(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("events", 1_000_000, "events in the replay database")
	perGame := fs.Int("per-game", 1001, "events per game (a game of this many deals, less one)")
	secs := fs.Float64("seconds", 3, "seconds each throughput measurement runs")
	rounds := fs.Int("rounds", 2000, "requests per reading measurement")
	dir := fs.String("dir", ".", "where the temporary databases go: the disk measured")
	ceiling := fs.Bool("serve-ceiling", false, "serve only the bare HTTP handlers bench compares with, on --addr (bench starts this itself)")
	addr := fs.String("addr", "127.0.0.1:0", "with --serve-ceiling: the address to listen on")
	forms := fs.String("form-path", "on", "the phone's form path on a server preloaded with many deals: on, only (it alone), off")
	pg := fs.String("pg", "", "PostgreSQL to measure recording on beside SQLite: an empty database's postgres:// URL; empty: a throwaway server from the installed postgresql package, in --dir; off: none")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *ceiling {
		return serveCeiling(ctx, *addr, *dir)
	}
	tuneMemory() // measure with serve's settings
	fmt.Fprintf(stderr, "bench: %d events, %.1f s per throughput measure, in %s\n", *n, *secs, *dir)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	rep, err := bench.Run(ctx, bench.Options{Dir: *dir, Events: *n, PerGame: *perGame,
		Duration: time.Duration(*secs * float64(time.Second)), ReadRounds: *rounds, Server: self, FormPath: *forms})
	if err != nil {
		return err
	}
	rep.Print(stdout)
	if *forms == "only" {
		return nil
	}
	return benchPostgres(ctx, *pg, *dir, time.Duration(*secs*float64(time.Second)), rep, stdout)
}
