// Package bench measures tappbook beside the limit the machine sets, in one
// run on one disk: raw SQLite durable transactions and row scans with the
// store's own settings, recording through the whole HTTP path, replaying a
// million events, reading a big game, memory and disk. It is what
// cmd/tappbook-bench runs, and nothing of tappbook's imports it; the numbers are reported, never asserted.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
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
	// CorrectDeals is how many deals the old-tapp evening has whose first
	// deal is corrected (LongEvening when 0).
	CorrectDeals int
	// FormPath: "on" (or empty) measures the phone's form path on a
	// preloaded server (forms.go) besides the rest, "only" it alone, "off"
	// not at all.
	FormPath string
	// FormTrace, if not empty, is a file for the server's runtime trace
	// (go tool trace) through the form path's measure of the most tables:
	// where its requests waited.
	FormTrace string
	// Server is the tappbook binary: recording, profiles and memory are
	// measured in `tappbook serve` processes of their own. Empty: in this
	// process, which also generated and replayed the events, and so holds
	// more, and with no profiles.
	Server string
	// Bench is the tappbook-bench binary, which serves the bare ceiling
	// handlers as a process of their own (--serve-ceiling). Empty: in this
	// process.
	Bench string
}

// Report is one run's numbers.
type Report struct {
	RawTxPerSec         float64
	RawHTTPPerSec       float64 // the raw transaction behind a bare HTTP handler, 1 client
	CeilingPerSec       float64 // group-committed raw rows behind a bare HTTP handler, ManyTables clients
	CeilingP99          time.Duration
	StorePerSec         float64 // tappbook's event store behind a bare HTTP handler, ManyTables clients
	StoreP99            time.Duration
	RawScanRowsPerSec   float64
	Record1PerSec       float64
	Record4PerSec       float64
	Record64PerSec      float64 // ManyTables tables
	Record1P50, P99     time.Duration
	Record4P50, R4P99   time.Duration
	Record64P50, R64P99 time.Duration
	ServerPeakRSS       int64 // peak resident memory of the recording server (0: in this process)
	// CPU per deal of the server's process and of the clients, 64 tables
	// against the ceiling's rows and the store's appends (0: in this process)
	CeilingCPU, CeilingClientCPU   time.Duration
	StoreCPU, StoreClientCPU       time.Duration
	Record64CPU, Record64ClientCPU time.Duration
	// The recording server's CPU per deal by where it ran, from CPU
	// profiles of a server of its own (nil in this process).
	Profile1, Profile4, Profile64 CPUPlaces
	CorrectDeals                  int           // deals in the evening whose deal 1 is corrected
	CorrectRescored               int           // later deals each correction re-scores
	CorrectP50                    time.Duration // one correction, as the phone sees it
	CorrectMax                    time.Duration
	ReplayEventsPerSec            float64 // folded on ReplayWorkers workers
	ReplayWorkers                 int
	Replay1EventsPerSec           float64 // read and folded on one goroutine
	ReplayEvents                  int
	TableP50, TableP99            time.Duration
	FreshP50, FreshP99            time.Duration // the table rendered afresh, as after each change
	LedgerP50, LedgP99            time.Duration
	RSSBytes                      int64
	RSSFreshServer                bool // measured in a fresh server process
	BytesPerEvent                 float64
	DealsInBigGame                int
	// The form path on a preloaded server (forms.go): the deals it held,
	// each measure, and the server's peak memory through them.
	FormDealsHeld int
	Forms         []FormMeasure
	FormPeakRSS   int64
}

// Run measures everything and returns the report.
func Run(ctx context.Context, opt Options) (Report, error) {
	var r Report
	dir, err := os.MkdirTemp(opt.Dir, "tappbook-bench-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)

	if opt.FormPath != "off" {
		if r.Forms, r.FormDealsHeld, r.FormPeakRSS, err = formPath(ctx, opt.Server, dir, opt.FormTrace, opt.Duration); err != nil {
			return r, fmt.Errorf("form path: %w", err)
		}
		if opt.FormPath == "only" {
			return r, nil
		}
	}
	if err := writing(ctx, dir, opt, &r); err != nil {
		return r, err
	}
	if opt.Server != "" {
		if err := profiling(ctx, opt.Server, dir, opt.Duration, &r); err != nil {
			return r, fmt.Errorf("profiling: %w", err)
		}
	}
	deals := opt.CorrectDeals
	if deals <= 0 {
		deals = LongEvening
	}
	if err := correcting(ctx, opt.Server, filepath.Join(dir, "evening.db"), deals, correctRounds, &r); err != nil {
		return r, fmt.Errorf("correcting: %w", err)
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

// writeRounds is how many slices each write measurement is cut into. The
// disk's speed drifts by tens of percent within a minute here (other
// machines share it), so the limits and the measures take turns, slice by
// slice, and each sees the same disk.
const writeRounds = 5

// correctRounds is how many times the correction measure corrects deal 1.
const correctRounds = 20

// ManyTables is how many tables record at once in the biggest write measure.
const ManyTables = 64

// writing measures (1) the raw durable transaction, by itself and behind
// bare HTTP handlers (one transaction per request for one client; group
// committed for ManyTables clients), and (2) deals recorded through the
// whole HTTP path of a tappbook server (loopback, JSON, validation, payout,
// append, fold) by 1, 4 and ManyTables tables, in turns of d/writeRounds
// each. The servers run as processes of their own when opt.Server names
// the binary; the server's peak memory is read at the end.
func writing(ctx context.Context, dir string, opt Options, r *Report) error {
	ins, err := NewRawInserter(filepath.Join(dir, "raw.db"))
	if err != nil {
		return fmt.Errorf("raw transactions: %w", err)
	}
	defer ins.Close()
	ceiling, err := startCeiling(opt.Bench, dir)
	if err != nil {
		return fmt.Errorf("ceiling: %w", err)
	}
	defer ceiling.stop()
	tb, err := startTappbook(ctx, opt.Server, filepath.Join(dir, "record.db"))
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	defer tb.stop()
	one := newBareClients(ceiling.base+"/one", 900, 1)
	group := newBareClients(ceiling.base+"/group", 901, ManyTables)
	stored := newBareClients(ceiling.base+"/store/", 1001, ManyTables)
	t1, t4, t64 := newTables(tb.base, 0, 1), newTables(tb.base, 1, 4), newTables(tb.base, 5, ManyTables)
	var raw, overHTTP, ceil, storeHTTP, rec1, rec4, rec64 drives
	slice := opt.Duration / writeRounds
	for range writeRounds {
		n, start := 0, time.Now()
		for time.Since(start) < slice {
			if err := ins.Insert(); err != nil {
				return fmt.Errorf("raw transactions: %w", err)
			}
			n++
		}
		raw.add(n, time.Since(start), nil)
		for _, m := range []struct {
			what string
			d    *drives
			p    []poster
			srv  *server
		}{
			{"raw transactions over HTTP", &overHTTP, one, ceiling},
			{"recording, 1 table", &rec1, posters(t1), tb},
			{"recording, 4 tables", &rec4, posters(t4), tb},
			{"group-committed raw transactions over HTTP", &ceil, group, ceiling},
			{"the event store over HTTP", &storeHTTP, stored, ceiling},
			{fmt.Sprintf("recording, %d tables", ManyTables), &rec64, posters(t64), tb},
		} {
			if err := m.d.drive(ctx, m.p, slice, m.srv); err != nil {
				return fmt.Errorf("%s: %w", m.what, err)
			}
		}
	}
	r.RawTxPerSec, r.RawHTTPPerSec, r.CeilingPerSec = raw.rate(), overHTTP.rate(), ceil.rate()
	r.Record1PerSec, r.Record4PerSec, r.Record64PerSec = rec1.rate(), rec4.rate(), rec64.rate()
	r.Record1P50, r.P99 = percentiles(rec1.lat)
	r.Record4P50, r.R4P99 = percentiles(rec4.lat)
	r.Record64P50, r.R64P99 = percentiles(rec64.lat)
	_, r.CeilingP99 = percentiles(ceil.lat)
	r.StorePerSec = storeHTTP.rate()
	_, r.StoreP99 = percentiles(storeHTTP.lat)
	r.ServerPeakRSS = tb.peakRSS()
	r.CeilingCPU, r.CeilingClientCPU = ceil.cpuPerDeal()
	r.StoreCPU, r.StoreClientCPU = storeHTTP.cpuPerDeal()
	r.Record64CPU, r.Record64ClientCPU = rec64.cpuPerDeal()
	return nil
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
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
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
			rec, res, err := fillDeal(setup, contracts, hand)
			if err != nil {
				return nil, err
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
	st, err := sqlite.Open(ctx, path, sqlite.Options{ReadConns: workers})
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
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
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

// record64Cores is how many cores the server and its clients kept busy
// at 64 tables: as many as tappbook's deals did, or the bare handler's
// rows if they did more (a cheaper deal might keep the cores as busy as
// the cheapest handler does, not more).
func (r Report) record64Cores() float64 {
	spent := r.Record64CPU + r.Record64ClientCPU
	return max(r.Record64PerSec*spent.Seconds(), r.CeilingPerSec*(r.CeilingCPU+r.CeilingClientCPU).Seconds())
}

// record64Missing is the CPU a deal at 64 tables, server and clients
// together, spends beyond what a rate of 0.70× the ceiling allows: those
// cores spread over that rate's deals. 0 when it was not measured.
func (r Report) record64Missing() time.Duration {
	if r.Record64CPU <= 0 || r.CeilingPerSec <= 0 {
		return 0
	}
	spent := r.Record64CPU + r.Record64ClientCPU
	return spent - time.Duration(r.record64Cores()/(0.70*r.CeilingPerSec)*1e9)
}

// Print writes the report as one table.
func (r Report) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintln(tw, "measure\tvalue\tratio\ttarget\t")
	r.printForms(tw)
	if r.RawTxPerSec == 0 {
		tw.Flush() // the form path alone
		return
	}
	fmt.Fprintf(tw, "1. raw SQLite durable 1-row transactions (WAL, synchronous=FULL), in turns with 2.\t%.0f /s\t\t\t\n", r.RawTxPerSec)
	fmt.Fprintf(tw, "1. the same transaction behind a bare HTTP handler, 1 client\t%.0f /s\t%.2f× raw tx\t\t\n", r.RawHTTPPerSec, r.RawHTTPPerSec/r.RawTxPerSec)
	fmt.Fprintf(tw, "1. group-committed raw rows behind a bare HTTP handler, %d clients: rate, p99\t%.0f /s, %s\t%.2f× raw tx\t\t\n", ManyTables, r.CeilingPerSec, ms(r.CeilingP99), r.CeilingPerSec/r.RawTxPerSec)
	fmt.Fprintf(tw, "1. the same deals appended by tappbook's event store behind a bare handler, %d clients: rate, p99\t%.0f /s, %s\t%.2f× group-committed bare HTTP\t\t\n", ManyTables, r.StorePerSec, ms(r.StoreP99), r.StorePerSec/r.CeilingPerSec)
	fmt.Fprintf(tw, "1. raw SQLite scan of the events table\t%.0f rows/s\t\t\t\n", r.RawScanRowsPerSec)
	fmt.Fprintf(tw, "2. deals recorded over HTTP, 1 table\t%.0f /s\t%.2f× bare HTTP\t≥ 0.80×\t\n", r.Record1PerSec, r.Record1PerSec/r.RawHTTPPerSec)
	fmt.Fprintf(tw, "2. deals recorded over HTTP, 4 tables\t%.0f /s\t%.2f× raw tx\t≥ 1×\t\n", r.Record4PerSec, r.Record4PerSec/r.RawTxPerSec)
	fmt.Fprintf(tw, "2. deals recorded over HTTP, %d tables\t%.0f /s\t%.2f× group-committed bare HTTP\t≥ 0.70×\t\n", ManyTables, r.Record64PerSec, r.Record64PerSec/r.CeilingPerSec)
	fmt.Fprintf(tw, "2. one deal, 1 table: p50 / p99\t%s / %s\t\t\t\n", ms(r.Record1P50), ms(r.P99))
	fmt.Fprintf(tw, "2. one deal, 4 tables: p50 / p99\t%s / %s\t\t\t\n", ms(r.Record4P50), ms(r.R4P99))
	fmt.Fprintf(tw, "2. one deal, %d tables: p50 / p99\t%s / %s\t\t≤ 25 ms p99\t\n", ManyTables, ms(r.Record64P50), ms(r.R64P99))
	if r.Record64CPU > 0 {
		us := func(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d.Nanoseconds())/1000) }
		fmt.Fprintf(tw, "2. CPU per deal, %d tables: server / clients (bare handler's rows; the store behind it)\t%s / %s\t(%s / %s; %s / %s)\t\t\n", ManyTables,
			us(r.Record64CPU), us(r.Record64ClientCPU), us(r.CeilingCPU), us(r.CeilingClientCPU), us(r.StoreCPU), us(r.StoreClientCPU))
	}
	if r.Record64CPU > 0 && r.CeilingPerSec > 0 {
		spent := r.Record64CPU + r.Record64ClientCPU
		fmt.Fprintf(tw, "2. CPU per deal, %d tables, server and clients: spent / what 0.70× allows at %.2f cores (the more of what they and the bare handler's rows kept busy)\t%.0f µs / %.0f µs\t\t\t\n", ManyTables, r.record64Cores(),
			float64(spent.Nanoseconds())/1000, float64((spent-r.record64Missing()).Nanoseconds())/1000)
	}
	us := func(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d.Nanoseconds())/1000) }
	perDeal := func(rate float64) time.Duration { return time.Duration(1e9 / rate) }
	for _, p := range []struct {
		what string
		c    CPUPlaces
		// What a deal must save to meet the goal: wall time per deal for
		// one and four tables (each waits on its own deals), CPU per deal
		// at the cores kept busy for 64 (the cores are the limit there).
		missing time.Duration
	}{
		{"1 table", r.Profile1, perDeal(r.Record1PerSec) - perDeal(0.80*r.RawHTTPPerSec)},
		{"4 tables", r.Profile4, perDeal(r.Record4PerSec) - perDeal(1.0*r.RawTxPerSec)},
		{fmt.Sprintf("%d tables", ManyTables), r.Profile64, r.record64Missing()},
	} {
		if p.c == nil {
			continue
		}
		fmt.Fprintf(tw, "2. where the server's CPU per deal goes, %s (CPU profile of a server of its own, by the function each sample fell in)\t%s\t%s\t\t\n", p.what, us(p.c.Total()), p.c)
		if p.missing > 0 {
			fmt.Fprintf(tw, "2. %s: what a deal must save to meet the goal\t%s\tmissed\t\t\n", p.what, us(p.missing))
		}
	}
	if r.ServerPeakRSS > 0 {
		fmt.Fprintf(tw, "2. peak resident memory of the recording tappbook serve, through all of 2.\t%.1f MB\t\t< 100 MB\t\n", float64(r.ServerPeakRSS)/1e6)
	}
	fmt.Fprintf(tw, "2. correcting deal 1 of a %d-deal old-tapp evening (%d deals re-scored): p50 / max\t%s / %s\t\t≤ 20 ms\t\n", r.CorrectDeals, r.CorrectRescored, ms(r.CorrectP50), ms(r.CorrectMax))
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
	srv, err := startProcess(bin, "/healthz", "serve", "--db", db, "--mdns", "off")
	if err != nil {
		return 0, err
	}
	defer srv.stop()
	for _, id := range ids[:min(100, len(ids))] {
		res, err := http.Get(srv.base + "/api/games/" + id + "/ledger")
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			return 0, fmt.Errorf("ledger of %s: %d", id, res.StatusCode)
		}
	}
	return statusBytes(fmt.Sprintf("/proc/%d/status", srv.pid), "VmRSS:"), nil
}

// fillDeal makes deal hand of a filled game: a spread of contracts and
// points, moved on a point where no cards could make the points in the
// tricks given (the rules refuse those).
func fillDeal(setup payout.Setup, contracts []string, hand int) (payout.Record, payout.Result, error) {
	var err error
	for try := range 60 {
		points, tricks := 40+(hand*7+try)%60, 3+(hand%4)
		rec := payout.Record{Contract: contracts[hand%4], Declarer: setup.Players[(hand*3)%4], Points: &points, Tricks: &tricks}
		var res payout.Result
		if res, err = payout.Score(setup, payout.Table{Dealer: (hand - 1) % 4}, rec); err == nil {
			return rec, res, nil
		}
	}
	return payout.Record{}, payout.Result{}, fmt.Errorf("deal %d: %w", hand, err)
}
