// Command tappbook is the scorekeeper: `tappbook serve` runs the web app and
// JSON API on a local SQLite file; `tappbook version` prints the version.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"tappbook/internal/bench"
	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/web"
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

// version is the release this source is; a build from a VCS checkout adds
// its revision.
const version = "0.1.0"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tappbook:", err)
		os.Exit(1)
	}
}

const usage = `usage: tappbook <command> [flags]

commands:
  serve              run the scorekeeper (--addr, --db; env TAPPBOOK_ADDR, TAPPBOOK_DB)
  verify             check the file, the hash chain, and re-score every deal (--db);
                     --game ID [--fingerprint F]: one game's chain, and that it still ends at F
  backup --out FILE  copy the live database consistently (--db)
  export GAME        write a game's events as JSON lines (--db, --out)
  import FILE        recreate a game from an export (--db)
  bench              measure tappbook beside raw SQLite on this disk (--events, --seconds, --dir)
  version            print the version
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
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "tappbook", versionString())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func versionString() string {
	v := version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}

// envOr gives the environment variable's value, or def when it is unset.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func serve(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("TAPPBOOK_ADDR", ":8080"), "address to listen on, HOST:PORT (env TAPPBOOK_ADDR)")
	dbPath := fs.String("db", envOr("TAPPBOOK_DB", "./tappbook.db"), "SQLite database file, created on first start (env TAPPBOOK_DB)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	tuneMemory()

	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	if err := checkDatabasePath(*dbPath); err != nil {
		return err
	}
	store, err := events.Open(ctx, *dbPath, events.Options{})
	if err != nil {
		return err
	}
	defer store.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	handler, err := web.New(game.New(store), log)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	srv.RegisterOnShutdown(handler.CloseStreams)
	log.Info("tappbook serving", "addr", ln.Addr().String(), "db", *dbPath, "version", versionString())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(web.JSONErrors(ln)) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Stop taking requests, let those in flight finish, then close the
	// database (deferred above).
	log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	log.Info("stopped")
	return nil
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
		Duration: time.Duration(*secs * float64(time.Second)), ReadRounds: *rounds, Server: self})
	if err != nil {
		return err
	}
	rep.Print(stdout)
	return nil
}
