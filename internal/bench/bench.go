// Package bench measures tappbook beside the limit the machine sets, in one
// run on one disk: raw SQLite durable transactions and row scans with the
// store's own settings, recording through the whole HTTP path, replaying a
// million events, reading a big game, memory and disk. It is what
// `tappbook bench` runs; the numbers are reported, never asserted.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/internal/web"
)

// Options size a run.
type Options struct {
	Dir        string        // where the temporary databases go (the disk measured)
	Events     int           // events in the replay database
	PerGame    int           // events per game in it (a game of PerGame−1 deals)
	Duration   time.Duration // how long each throughput measurement runs
	ReadRounds int           // requests per reading measurement
	// Server is the tappbook binary: memory is measured in a fresh
	// `tappbook serve` on the big database. Empty: in this process, which
	// also generated and replayed the events, and so holds more.
	Server string
}

// Report is one run's numbers.
type Report struct {
	RawTxPerSec         float64
	RawHTTPPerSec       float64 // the raw transaction behind a bare HTTP handler, 1 client
	RawScanRowsPerSec   float64
	Record1PerSec       float64
	Record4PerSec       float64
	Record1P50, P99     time.Duration
	Record4P50, R4P99   time.Duration
	ReplayEventsPerSec  float64 // folded on ReplayWorkers workers
	ReplayWorkers       int
	Replay1EventsPerSec float64 // read and folded on one goroutine
	ReplayEvents        int
	TableP50, TableP99  time.Duration
	FreshP50, FreshP99  time.Duration // the table rendered afresh, as after each change
	LedgerP50, LedgP99  time.Duration
	RSSBytes            int64
	RSSFreshServer      bool // measured in a fresh server process
	BytesPerEvent       float64
	DealsInBigGame      int
}

// Run measures everything and returns the report.
func Run(ctx context.Context, opt Options) (Report, error) {
	var r Report
	dir, err := os.MkdirTemp(opt.Dir, "tappbook-bench-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)

	if err := writing(ctx, dir, opt.Duration, &r); err != nil {
		return r, err
	}
	big := filepath.Join(dir, "replay.db")
	ids, err := fill(ctx, big, opt.Events, opt.PerGame)
	if err != nil {
		return r, fmt.Errorf("fill: %w", err)
	}
	r.ReplayEvents, r.DealsInBigGame = opt.Events, opt.PerGame-1
	if r.RawScanRowsPerSec, err = RawScan(big); err != nil {
		return r, fmt.Errorf("raw scan: %w", err)
	}
	if r.Replay1EventsPerSec, err = replay(ctx, big, 1); err != nil {
		return r, fmt.Errorf("replay: %w", err)
	}
	r.ReplayWorkers = runtime.GOMAXPROCS(0)
	if r.ReplayEventsPerSec, err = replay(ctx, big, r.ReplayWorkers); err != nil {
		return r, fmt.Errorf("replay: %w", err)
	}
	if err := reading(ctx, big, ids, opt.ReadRounds, &r); err != nil {
		return r, fmt.Errorf("reading: %w", err)
	}
	if opt.Server != "" {
		if r.RSSBytes, err = serverMemory(opt.Server, big, ids); err != nil {
			return r, fmt.Errorf("server memory: %w", err)
		}
		r.RSSFreshServer = true
	}
	size := int64(0)
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(big + suffix); err == nil {
			size += fi.Size()
		}
	}
	r.BytesPerEvent = float64(size) / float64(opt.Events)
	return r, nil
}

// serve runs the real server on a loopback port.
func serve(ctx context.Context, path string) (*events.Store, string, func(), error) {
	st, err := events.Open(ctx, path, events.Options{})
	if err != nil {
		return nil, "", nil, err
	}
	h, err := web.New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return st, "http://" + ln.Addr().String(), func() { srv.Close(); st.Close() }, nil
}

// writeRounds is how many slices each write measurement is cut into. The
// disk's speed drifts by tens of percent within a minute here (other
// machines share it), so the limit and the measures take turns, slice by
// slice, and each sees the same disk.
const writeRounds = 5

// writing measures (1) the raw durable transaction, by itself and behind a
// bare HTTP handler, and (2) deals recorded through the whole HTTP path
// (loopback, JSON, validation, payout, append, projection) with 1 and 4
// clients, each on its own game, in turns of d/writeRounds each.
func writing(ctx context.Context, dir string, d time.Duration, r *Report) error {
	ins, err := NewRawInserter(filepath.Join(dir, "raw.db"))
	if err != nil {
		return fmt.Errorf("raw transactions: %w", err)
	}
	defer ins.Close()
	bare, stopBare, err := bareServer(filepath.Join(dir, "rawhttp.db"))
	if err != nil {
		return fmt.Errorf("raw transactions over HTTP: %w", err)
	}
	defer stopBare()
	_, base, stop, err := serve(ctx, filepath.Join(dir, "record.db"))
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	defer stop()
	client := newClient()
	games := make([]string, 5)
	for i := range games {
		id, err := newGame(client, base)
		if err != nil {
			return fmt.Errorf("recording: %w", err)
		}
		games[i] = base + "/api/games/" + id + "/hands"
	}
	var raw, overHTTP, one, four drives
	slice := d / writeRounds
	for range writeRounds {
		n, start := 0, time.Now()
		for time.Since(start) < slice {
			if err := ins.Insert(); err != nil {
				return fmt.Errorf("raw transactions: %w", err)
			}
			n++
		}
		raw.add(n, time.Since(start), nil)
		if err := overHTTP.drive(client, []string{bare}, slice); err != nil {
			return fmt.Errorf("raw transactions over HTTP: %w", err)
		}
		if err := one.drive(client, games[:1], slice); err != nil {
			return fmt.Errorf("recording, 1 client: %w", err)
		}
		if err := four.drive(client, games[1:], slice); err != nil {
			return fmt.Errorf("recording, 4 clients: %w", err)
		}
	}
	r.RawTxPerSec, r.RawHTTPPerSec, r.Record1PerSec, r.Record4PerSec = raw.rate(), overHTTP.rate(), one.rate(), four.rate()
	r.Record1P50, r.P99 = percentiles(one.lat)
	r.Record4P50, r.R4P99 = percentiles(four.lat)
	return nil
}

// dealBody is the deal every recording client posts.
const dealBody = `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`

func newClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
}

func newGame(client *http.Client, base string) (string, error) {
	res, err := client.Post(base+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var g struct{ ID string }
	return g.ID, json.NewDecoder(res.Body).Decode(&g)
}

// drives adds up measurement slices: deals, time and each deal's latency.
type drives struct {
	n       int
	elapsed time.Duration
	lat     []time.Duration
}

func (s *drives) add(n int, elapsed time.Duration, lat []time.Duration) {
	s.n, s.elapsed, s.lat = s.n+n, s.elapsed+elapsed, append(s.lat, lat...)
}

func (s *drives) rate() float64 { return float64(s.n) / s.elapsed.Seconds() }

// drive posts dealBody for d, one client per address, each waiting for its
// answer (201) before the next.
func (s *drives) drive(client *http.Client, urls []string, d time.Duration) error {
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for _, url := range urls {
		wg.Go(func() {
			body := []byte(dealBody)
			var mine []time.Duration
			for time.Since(start) < d {
				t0 := time.Now()
				res, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusCreated {
						err = fmt.Errorf("status %d", res.StatusCode)
					}
				}
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	s.add(len(lat), time.Since(start), lat)
	return firstErr
}

// bareServer is the limit for recording over HTTP with one client: the raw
// durable transaction of (1) behind a bare net/http handler on loopback,
// which reads the deal's body and answers 201, nothing else. No server
// that answers after a durable commit can do better on this machine. It
// gives the handler's address.
func bareServer(path string) (string, func(), error) {
	ins, err := NewRawInserter(path)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ins.Close()
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if err := ins.Insert(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"ok":true}`))
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close(); ins.Close() }, nil
}

func percentiles(d []time.Duration) (time.Duration, time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]
}

// fill writes n events: games of perGame events (a game.started and
// perGame−1 zuger deals scored by the payout engine), each game in one
// transaction.
func fill(ctx context.Context, path string, n, perGame int) ([]string, error) {
	st, err := events.Open(ctx, path, events.Options{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	setup := payout.Setup{Variant: payout.Zuger, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Zuger)}
	rules := map[string]json.RawMessage{"tapp_threshold": json.RawMessage("61")}
	contracts := []string{"tapp", "solo", "super", "vice"}
	var ids []string
	for g := 0; len(ids)*perGame < n; g++ {
		id := fmt.Sprintf("bench%08d", g)
		count := min(perGame, n-len(ids)*perGame)
		evs := []events.NewEvent{{Type: tapp.TypeGameStarted, SchemaVersion: 1,
			Data: tapp.GameStarted{Variant: payout.Zuger, Players: setup.Players, Unit: "0.50", Currency: "CHF", Rules: rules}}}
		for hand := 1; hand < count; hand++ {
			points, tricks := 40+(hand*7)%60, 3+(hand%4)
			rec := payout.Record{Contract: contracts[hand%4], Declarer: setup.Players[(hand*3)%4], Points: &points, Tricks: &tricks}
			res, err := payout.Score(setup, payout.Table{Dealer: (hand - 1) % 4}, rec)
			if err != nil {
				return nil, fmt.Errorf("deal %d: %w", hand, err)
			}
			scored, err := tapp.NewScored(setup, res)
			if err != nil {
				return nil, err
			}
			evs = append(evs, events.NewEvent{Type: tapp.TypeHandRecorded, SchemaVersion: 1,
				Data: tapp.HandRecorded{Hand: hand, Dealer: setup.Players[(hand-1)%4], Record: rec, Scored: scored}})
		}
		if _, err := st.Append(ctx, id, 0, events.Key{}, evs...); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// replay rebuilds every game's projection from its stored events in one
// pass, as a rebuild from scratch does (RebuildAll; more than one
// worker folds beside the reader), keeping each game's ledger (balances and
// pot) and letting the rest of its fold go.
func replay(ctx context.Context, path string, workers int) (float64, error) {
	st, err := events.Open(ctx, path, events.Options{ReadConns: workers})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	type ledger struct{ balances, pot string }
	var mu sync.Mutex
	ledgers := map[string]ledger{}
	n := 0
	start := time.Now()
	err = RebuildAll(ctx, st, workers, func(g *tapp.State) error {
		l := ledger{fmt.Sprint(g.Balances()), g.Pot().String()}
		mu.Lock()
		defer mu.Unlock()
		ledgers[g.ID] = l
		n += int(g.Version)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// reading measures the server time of the table page and the ledger of a
// game of PerGame−1 deals, then the memory of a server that opened the big
// database and read 100 games.
func reading(ctx context.Context, path string, ids []string, rounds int, r *Report) error {
	st, err := events.Open(ctx, path, events.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	svc := game.New(st)
	h, err := web.New(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	id := ids[0]
	measure := func(path string) (time.Duration, time.Duration, error) {
		var lat []time.Duration
		for i := -3; i < rounds; i++ { // the first requests fold the game
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", strings.ReplaceAll(path, "{i}", strconv.Itoa(i)), nil)
			t0 := time.Now()
			h.ServeHTTP(rec, req)
			if i >= 0 {
				lat = append(lat, time.Since(t0))
			}
			if rec.Code != 200 {
				return 0, 0, fmt.Errorf("%s: %d", path, rec.Code)
			}
		}
		p50, p99 := percentiles(lat)
		return p50, p99, nil
	}
	if r.TableP50, r.TableP99, err = measure("/g/" + id); err != nil {
		return err
	}
	// A new address each time misses the page cache: the render a change costs.
	if r.FreshP50, r.FreshP99, err = measure("/g/" + id + "?fresh={i}"); err != nil {
		return err
	}
	if r.LedgerP50, r.LedgP99, err = measure("/api/games/" + id + "/ledger"); err != nil {
		return err
	}
	for _, g := range ids[:min(100, len(ids))] {
		if err := svc.View(ctx, g, func(*tapp.State) error { return nil }); err != nil {
			return err
		}
	}
	runtime.GC()
	debug.FreeOSMemory()
	r.RSSBytes = rss()
	return nil
}

// rss is this process's resident memory, from /proc (0 where there is none).
func rss() int64 { return rssOf("/proc/self/status") }

func rssOf(status string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// Print writes the report as one table.
func (r Report) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintln(tw, "measure\tvalue\tratio\ttarget\t")
	fmt.Fprintf(tw, "1. raw SQLite durable 1-row transactions (WAL, synchronous=FULL), in turns with 2.\t%.0f /s\t\t\t\n", r.RawTxPerSec)
	fmt.Fprintf(tw, "1. the same transaction behind a bare HTTP handler, 1 client\t%.0f /s\t%.2f× raw tx\t\t\n", r.RawHTTPPerSec, r.RawHTTPPerSec/r.RawTxPerSec)
	fmt.Fprintf(tw, "1. raw SQLite scan of the events table\t%.0f rows/s\t\t\t\n", r.RawScanRowsPerSec)
	fmt.Fprintf(tw, "2. deals recorded over HTTP, 1 client\t%.0f /s\t%.2f× raw tx\t≥ 0.70×\t\n", r.Record1PerSec, r.Record1PerSec/r.RawTxPerSec)
	fmt.Fprintf(tw, "2. deals recorded over HTTP, 4 clients\t%.0f /s\t%.2f× raw tx\t≥ 1×\t\n", r.Record4PerSec, r.Record4PerSec/r.RawTxPerSec)
	fmt.Fprintf(tw, "2. one deal, 1 client: p50 / p99\t%s / %s\t\t\t\n", ms(r.Record1P50), ms(r.P99))
	fmt.Fprintf(tw, "2. one deal, 4 clients: p50 / p99\t%s / %s\t\t\t\n", ms(r.Record4P50), ms(r.R4P99))
	fmt.Fprintf(tw, "3. replay of %d events, read and folded on one goroutine\t%.0f events/s\t%.2f× raw scan\t≥ 1,000,000/s, ≥ 0.50×\t\n", r.ReplayEvents, r.Replay1EventsPerSec, r.Replay1EventsPerSec/r.RawScanRowsPerSec)
	fmt.Fprintf(tw, "3. replay of %d events, folded on %d workers beside the reader\t%.0f events/s\t%.2f× raw scan\t≥ 1,000,000/s, ≥ 0.50×\t\n", r.ReplayEvents, r.ReplayWorkers, r.ReplayEventsPerSec, r.ReplayEventsPerSec/r.RawScanRowsPerSec)
	fmt.Fprintf(tw, "4. table page, game of %d deals: p50 / p99\t%s / %s\t\t≤ 2 ms p99\t\n", r.DealsInBigGame, ms(r.TableP50), ms(r.TableP99))
	fmt.Fprintf(tw, "4. table page rendered afresh (first view after a deal): p50 / p99\t%s / %s\t\t\t\n", ms(r.FreshP50), ms(r.FreshP99))
	fmt.Fprintf(tw, "4. ledger JSON, same game: p50 / p99\t%s / %s\t\t≤ 2 ms p99\t\n", ms(r.LedgerP50), ms(r.LedgP99))
	where := "this process"
	if r.RSSFreshServer {
		where = "a fresh tappbook serve"
	}
	fmt.Fprintf(tw, "5. resident memory of %s, %d events, 100 games read\t%.1f MB\t\t< 100 MB\t\n", where, r.ReplayEvents, float64(r.RSSBytes)/1e6)
	fmt.Fprintf(tw, "5. disk per event\t%.0f bytes\t\t\t\n", r.BytesPerEvent)
	tw.Flush()
}

// serverMemory starts `tappbook serve` on the database, reads 100 games
// through its API, and gives its resident memory.
func serverMemory(bin, db string, ids []string) (int64, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--db", db)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	base := "http://" + addr
	up := false
	for range 500 {
		if res, err := http.Get(base + "/healthz"); err == nil {
			res.Body.Close()
			up = true
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !up {
		return 0, fmt.Errorf("%s serve did not come up", bin)
	}
	for _, id := range ids[:min(100, len(ids))] {
		res, err := http.Get(base + "/api/games/" + id + "/ledger")
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			return 0, fmt.Errorf("ledger of %s: %d", id, res.StatusCode)
		}
	}
	return rssOf(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)), nil
}
