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
)

// The collector's settings for the commands that fold a lot (serve,
// verify); GOMEMLIMIT and GOGC in the environment win. C's allocations
// keep one heap (oneMallocArena).
const (
	serveMemoryLimit = 64 << 20 // the Go heap's soft limit
	gcPercent        = 400      // collect when the heap has grown 4×, not 2×
)

// tuneMemory sets the collector for tappbook's work on a small home
// machine. A soft heap limit keeps resident memory small: a larger live heap
// slows the collector down, never the server. Under load Go's memory sits
// at the limit, so it sets most of the server's peak RSS (~91 MB with 32
// tables on the form path). The limit's room above what the server keeps
// live sets how often the collector runs: at 56 MiB it took
// 7–10.5% of the CPU with 32 tables on the form path (the goal is under a
// tenth), at 64 MiB 6–7%. Under it, collecting at 4×
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
	oneMallocArena()
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
  verify             check the file, the hash chain, and decide every command again as import does (--db);
                     --game ID [--fingerprint F]: one game's chain, and that it still ends at F
                     --receipt FILE [--key K]: a signed receipt, offline and against the database
  backup --out FILE  copy the live database consistently (--db)
  export ID          write a game's events as JSON lines; a group's with its evenings (--db, --out)
  import FILE        recreate a game, or a group with its evenings, from an export (--db)
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
