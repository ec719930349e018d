package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
)

// The form path's server holds many deals before its phones begin (issue
// 39): PreloadGames evenings of PreloadDeals deals, each read once, so
// that the server has them in memory as far as it keeps games.
const (
	PreloadGames = 65
	PreloadDeals = 700
)

// FormTables are the measures of the form path: few tables, then many.
var FormTables = []int{4, 32}

// FormMeasure is one measure on the preloaded server.
type FormMeasure struct {
	Tables   int
	API      bool // the JSON API's tables, not the phone's form
	PerSec   float64
	P50, P99 time.Duration
	CPU      time.Duration // the server's per deal (0: in this process)
	Phones   time.Duration // the phones' (this process's) per deal, on the same cores
	GC       float64       // the collector's share of the server's CPU, from its profile (-1: no profile)
	Arrival  time.Duration // the slowest phone's opening of its evening, before the measure (form path)
}

// formPhone is a phone at a table of a preloaded evening, as a person
// uses it: it has opened the evening's page (arrive), then posts the deal
// form and follows the 303 to the table page, reading it all, a deal at a
// time.
//
// It asks for gzip itself and reads the compressed bytes as they come,
// without inflating them: every byte the server sends is received and
// read, but the inflating, which a real phone does on its own CPU, is not
// done on the cores the server is measured on. (Go's client, asking for
// gzip on its own, inflates what it gets: that took about 45% of the
// phones' CPU, a tenth of all the CPU a deal cost.)
type formPhone struct {
	page   string // the evening's page, base/g/{id}
	client *http.Client
	deals  int
	read   int64 // bytes of the answers' bodies read, as sent
}

// formDeal is the form of a zuger deal, in turn.
func formDeal(n int) url.Values {
	return []url.Values{
		{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}},
		{"contract": {"tapp"}, "declarer": {"Anna"}, "points": {"55"}, "tricks": {"3"}},
		{"contract": {"super"}, "declarer": {"Dan"}, "points": {"74"}, "tricks": {"6"}},
		{"contract": {"vice"}, "declarer": {"Cleo"}, "points": {"80"}, "tricks": {"7"}},
	}[n%4]
}

// next records the phone's next deal and gives its latency.
func (p *formPhone) next() (time.Duration, error) {
	t0 := time.Now()
	if err := p.do(http.MethodPost, p.page+"/record", formDeal(p.deals)); err != nil {
		return 0, fmt.Errorf("%s deal %d: %w", p.page, p.deals+1, err)
	}
	p.deals++
	return time.Since(t0), nil
}

// do sends a request (a form, if any) and reads the answer, which must be
// the evening's page: the client follows the 303 of a recorded deal with
// the same headers, gzip asked for among them.
func (p *formPhone) do(method, target string, form url.Values) error {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		return err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasSuffix(p.page, res.Request.URL.Path) {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return fmt.Errorf("status %d at %s: %s", res.StatusCode, res.Request.URL.Path, b)
	}
	n, err := io.Copy(io.Discard, res.Body)
	p.read += n
	return err
}

// arrive has the phones open their evenings' pages, all at once, as
// people must to have the form, before a measure: opening is not a deal.
// It gives the slowest opening. Opening is what folds an evening the
// server has let go (the preload reads more evenings than the games'
// memory keeps): timed with the deals, 32 phones folding 700-deal
// evenings at once were the slowest 1% of the 32 tables' deals, waiting
// behind each other for the store's readers.
func arrive(ps []*formPhone) (time.Duration, error) {
	slowest := make([]time.Duration, len(ps))
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			t0 := time.Now()
			if errs[i] = p.do(http.MethodGet, p.page, nil); errs[i] != nil {
				errs[i] = fmt.Errorf("%s: opening it: %w", p.page, errs[i])
			}
			slowest[i] = time.Since(t0)
		})
	}
	wg.Wait()
	return slices.Max(append(slowest, 0)), errors.Join(errs...)
}

// formPhones are n phones at the evenings ids, each from an address of its
// own numbered from first.
func formPhones(base string, ids []string, first int) []*formPhone {
	out := make([]*formPhone, len(ids))
	for i, id := range ids {
		out[i] = &formPhone{page: base + "/g/" + id, client: clientFrom(clientAddr(first+i, 0))}
	}
	return out
}

// formPath measures the phone's path on a server that holds
// PreloadGames×PreloadDeals deals: FormTables tables posting the deal form
// and following the redirect, each on a preloaded evening, then ManyTables
// tables on the JSON API, d each. With bin, the server is `tappbook serve`,
// profiled through each measure, which gives the collector's share, and
// traced into the file traceTo (if any) through the most form tables'.
// It gives the measures, the deals held and the server's peak memory.
func formPath(ctx context.Context, bin, dir, traceTo string, d time.Duration) ([]FormMeasure, int, int64, error) {
	db := filepath.Join(dir, "preloaded.db")
	ids, err := fill(ctx, db, PreloadGames*(PreloadDeals+1), PreloadDeals+1)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("preload: %w", err)
	}
	srv, err := startProfiled(ctx, bin, db)
	if err != nil {
		return nil, 0, 0, err
	}
	defer srv.stop()
	for _, id := range ids { // every evening read once: in memory as far as the server keeps them
		res, err := http.Get(srv.base + "/api/games/" + id + "/ledger")
		if err != nil {
			return nil, 0, 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	var out []FormMeasure
	used, first := 0, 4000
	for _, n := range FormTables {
		out = append(out, FormMeasure{Tables: n})
	}
	out = append(out, FormMeasure{Tables: ManyTables, API: true})
	for i := range out {
		m := &out[i]
		var ps []poster
		if m.API {
			ps = posters(newTables(srv.base, first, m.Tables))
		} else {
			phones := formPhones(srv.base, ids[used:used+m.Tables], first)
			if m.Arrival, err = arrive(phones); err != nil {
				return nil, 0, 0, fmt.Errorf("%d tables: %w", m.Tables, err)
			}
			for _, p := range phones {
				ps = append(ps, p)
			}
			used += m.Tables
		}
		first += m.Tables
		var dr drives
		traced := func() error { return nil }
		if traceTo != "" && !m.API && m.Tables == FormTables[len(FormTables)-1] {
			traced = traceDuring(ctx, srv, traceTo, d)
		}
		p, err := profiled(ctx, srv, &dr, ps, d)
		if err = errors.Join(err, traced()); err != nil {
			return nil, 0, 0, fmt.Errorf("%d tables: %w", m.Tables, err)
		}
		m.CPU, m.Phones = dr.cpuPerDeal()
		m.PerSec, m.GC = dr.rate(), -1
		m.P50, m.P99 = percentiles(dr.lat)
		if p != nil {
			m.GC = gcShare(p)
		}
	}
	return out, len(ids) * PreloadDeals, srv.peakRSS(), nil
}

// traceDuring writes the server's runtime trace of the next d (whole
// seconds, as profiled drives it) into file, beside the measure profiled
// drives meanwhile; the function it gives waits for it. A server with no
// metrics address has none to give.
func traceDuring(ctx context.Context, srv *server, file string, d time.Duration) func() error {
	if srv.metrics == "" {
		return func() error { return errors.New("trace: the server runs in this process, with no metrics address") }
	}
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			u := fmt.Sprintf("%s/debug/pprof/trace?seconds=%d", srv.metrics, max(1, int(math.Ceil(d.Seconds()))))
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return err
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return fmt.Errorf("trace: %w", err)
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("trace: %s answered %d", u, res.StatusCode)
			}
			f, err := os.Create(file)
			if err != nil {
				return fmt.Errorf("trace: %w", err)
			}
			if _, err := io.Copy(f, res.Body); err != nil {
				f.Close()
				return fmt.Errorf("trace: %w", err)
			}
			return f.Close()
		}()
	}()
	return func() error { return <-done }
}

// gcShare is the part of a CPU profile's samples spent collecting garbage
// and giving memory back: the collector's workers, the marking an
// allocation is made to assist with, sweeping and scavenging.
func gcShare(p *profile.Profile) float64 {
	var gc, all int64
	for _, s := range p.Sample {
		v := s.Value[len(s.Value)-1] // CPU nanoseconds
		all += v
		if collecting(s) {
			gc += v
		}
	}
	if all == 0 {
		return 0
	}
	return float64(gc) / float64(all)
}

// collecting says whether a sample ran in the collector's work.
func collecting(s *profile.Sample) bool {
	for _, l := range s.Location {
		for _, ln := range l.Line {
			switch name := ln.Function.Name; {
			case strings.HasPrefix(name, "runtime.gc"), // gcBgMarkWorker, gcAssistAlloc, gcDrain, gcStart…
				strings.HasPrefix(name, "runtime.bgsweep"), strings.HasPrefix(name, "runtime.bgscavenge"),
				strings.HasPrefix(name, "runtime.markroot"), strings.HasPrefix(name, "runtime.sweepone"),
				strings.HasPrefix(name, "runtime.(*scavengerState)"), strings.HasPrefix(name, "runtime.(*mheap).scavenge"),
				strings.HasPrefix(name, "runtime.(*sweepLocked)"), strings.HasPrefix(name, "runtime.(*mspan).sweep"):
				return true
			}
		}
	}
	return false
}

// printForms writes the form path's measures, if they were taken.
func (r Report) printForms(w io.Writer) {
	var few float64 // the fewest tables' rate, which the most must reach
	for _, m := range r.Forms {
		what, target := fmt.Sprintf("%d tables post the deal form and follow the redirect", m.Tables), "≤ 50 ms p99"
		switch {
		case m.API:
			what, target = fmt.Sprintf("%d tables record through the JSON API", m.Tables), ""
		case few == 0:
			few = m.PerSec
		default:
			target = fmt.Sprintf("≥ %.0f /s (%d tables'), ≤ 50 ms p99", few, FormTables[0])
		}
		gc := "no profile"
		if m.GC >= 0 {
			gc = fmt.Sprintf("GC %.1f%% of the server's CPU", 100*m.GC)
		}
		if !m.API { // the form path's goals: the API's rows are beside them
			if m.GC >= 0 {
				gc += " (< 10%)"
			}
			gc += fmt.Sprintf("; the phones opening their evenings before: %.0f ms at most", float64(m.Arrival.Microseconds())/1000)
		}
		cpu := fmt.Sprintf("%.0f µs server CPU per deal", float64(m.CPU.Nanoseconds())/1000)
		if m.CPU > 0 { // a server of its own: this process is the phones alone
			cpu += fmt.Sprintf(" (the phones' %.0f µs, on the same cores)", float64(m.Phones.Nanoseconds())/1000)
		}
		fmt.Fprintf(w, "6. holding %d deals, %s: rate, p50 / p99\t%.0f /s, %.1f / %.1f ms\t%s; %s\t%s\t\n", r.FormDealsHeld, what,
			m.PerSec, float64(m.P50.Microseconds())/1000, float64(m.P99.Microseconds())/1000, cpu, gc, target)
	}
	if r.FormPeakRSS > 0 {
		fmt.Fprintf(w, "6. peak resident memory of that tappbook serve, through all of 6.\t%.1f MB\t\t< 100 MB\t\n", float64(r.FormPeakRSS)/1e6)
	}
}
