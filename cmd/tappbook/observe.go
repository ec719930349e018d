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
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tappbook/internal/events"
	"tappbook/internal/web"
)

// observeFlags say how serve reports on itself: its log's format and the
// address of /metrics and /debug/pprof.
type observeFlags struct {
	logFormat   string
	metricsAddr string
}

func (o *observeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.logFormat, "log-format", envOr("TAPPBOOK_LOG_FORMAT", "text"), "the log's lines: text (key=value) or json, one object a line (env TAPPBOOK_LOG_FORMAT)")
	fs.StringVar(&o.metricsAddr, "metrics-addr", envOr("TAPPBOOK_METRICS_ADDR", ""), "serve /metrics (Prometheus) and Go's profiles (/debug/pprof/) on this address of its own, e.g. 127.0.0.1:9090; keep it off the network (env TAPPBOOK_METRICS_ADDR; default: none)")
}

// logger is the log in the format asked for.
func (o observeFlags) logger(w io.Writer) (*slog.Logger, error) {
	switch o.logFormat {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("--log-format %q: text or json", o.logFormat)
}

// metrics are what /metrics counts: the web server's and the store's
// (both nil without --metrics-addr).
type metrics struct {
	web   *web.Metrics
	store events.CommitObserver
}

// metrics starts /metrics on its own listener when an address is given,
// with Go's profiles beside it (net/http/pprof: what tappbook-bench reads
// a server's CPU from), and gives what it counts and how to stop it.
func (o observeFlags) metrics(log *slog.Logger) (metrics, func(), error) {
	if o.metricsAddr == "" {
		return metrics{}, func() {}, nil
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := metrics{web: web.NewMetrics(reg), store: newStoreMetrics(reg)}
	ln, err := net.Listen("tcp", o.metricsAddr)
	if err != nil {
		return metrics{}, nil, fmt.Errorf("listen on %s for /metrics: %w", o.metricsAddr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /debug/pprof/", pprof.Index) // the named profiles: heap, goroutine, …
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	// No write timeout: a CPU profile or a trace answers after the
	// seconds it was asked to run.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("/metrics stopped", "err", err)
		}
	}()
	log.Info("metrics at", "url", "http://"+ln.Addr().String()+"/metrics")
	return m, func() { _ = srv.Close() }, nil
}

// healthcheck asks a server's /readyz and exits 0 when it is ready, 1 when
// not or unreachable: a container's HEALTHCHECK, a monitor's probe.
func healthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := "http://127.0.0.1:8080/readyz"
	if addr := envOr("TAPPBOOK_ADDR", ""); addr != "" {
		host, port, err := net.SplitHostPort(addr)
		if err == nil {
			if host == "" || host == "0.0.0.0" || host == "::" {
				host = "127.0.0.1"
			}
			def = "http://" + net.JoinHostPort(host, port) + "/readyz"
		}
	}
	u := fs.String("url", def, "the address to ask (default http://127.0.0.1:8080/readyz, or TAPPBOOK_ADDR's port)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *u, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d: %s", *u, res.StatusCode, body)
	}
	fmt.Fprintf(stdout, "%s", body)
	return nil
}
