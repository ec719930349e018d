package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
)

// BenchmarkHistoryUnderReaders: the red team's load of issue 34 on the
// real binary. 64 readers at once (one address, its connection cap off)
// read the history of a 5,000-deal evening through its read-only link,
// again and again, while another table records a deal and reads its page.
// Reported: the server's peak RSS (VmHWM) and that table's p99, beside how
// many history pages were built and how many turned away (503,
// Retry-After). The goal: peak RSS under 200 MB, p99 under 250 ms.
//
//	go test ./cmd/tappbook -run '^$' -bench HistoryUnderReaders -benchtime 3x
func BenchmarkHistoryUnderReaders(b *testing.B) {
	db := filepath.Join(b.TempDir(), "long.db")
	read, other := historyEvening(b, db, 5000)
	srv := clitest.Start(b, clitest.Build(b), db, "--max-conns-per-client", "0")
	defer srv.Stop(b)
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
	get := func(url string) (int, error) {
		res, err := client.Get(url)
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		_, err = io.Copy(io.Discard, res.Body)
		return res.StatusCode, err
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		built     int
		turned    int
	)
	stop := make(chan struct{})
	table := sync.WaitGroup{}
	table.Go(func() { // the other table: a deal, then its page
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			start := time.Now()
			code, err := post(srv.Base, other, request{key: "other-" + strconv.Itoa(i), body: `{"contract":"pass"}`})
			if err == nil && code < 300 {
				code, err = get(srv.Base + "/g/" + other)
			}
			if err != nil || code != http.StatusOK {
				b.Errorf("the other table: %d %v", code, err)
				return
			}
			mu.Lock()
			latencies = append(latencies, time.Since(start))
			mu.Unlock()
			time.Sleep(100 * time.Millisecond)
		}
	})
	b.ResetTimer()
	for range b.N {
		var readers sync.WaitGroup
		for range 64 {
			readers.Go(func() {
				code, err := get(srv.Base + "/r/" + read + "/audit")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					b.Errorf("history: %v", err)
				case code == http.StatusOK:
					built++
				case code == http.StatusServiceUnavailable:
					turned++
				default:
					b.Errorf("history: %d", code)
				}
			})
		}
		readers.Wait()
	}
	b.StopTimer()
	close(stop)
	table.Wait()
	peak := peakRSS(b, srv.Cmd.Process.Pid)
	slices.Sort(latencies)
	p99 := latencies[min(len(latencies)-1, len(latencies)*99/100)]
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(p99.Microseconds())/1000, "other-table-p99-ms")
	b.ReportMetric(float64(built)/float64(b.N), "pages-built/op")
	b.ReportMetric(float64(turned)/float64(b.N), "turned-away/op")
	b.Logf("%d deals of the other table timed; peak RSS %.0f MB (goal < 200), p99 %v (goal < 250 ms)", len(latencies), float64(peak)/(1<<20), p99)
}

// historyEvening writes a zuger evening of n deals (solos won and lost,
// tapps, passes) and another evening, and gives the first's read-only key
// and the second's id.
func historyEvening(b *testing.B, db string, n int) (read, other string) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	g, err := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: players, Unit: "0.50", Currency: "CHF"}, "")
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		rec := payout.Record{Contract: "pass"}
		switch i % 4 {
		case 0:
			rec = payout.Record{Contract: "solo", Declarer: players[i%3], Points: ip(70 + i%20), Tricks: ip(5)}
		case 1:
			rec = payout.Record{Contract: "tapp", Declarer: players[(i+1)%4], Points: ip(40 + i%15), Tricks: ip(3)}
		case 2:
			rec = payout.Record{Contract: "super", Declarer: players[(i+2)%4], Points: ip(75), Tricks: ip(6)}
		}
		if _, err := svc.Record(ctx, g.ID, rec, game.Checks{}, ""); err != nil {
			b.Fatalf("deal %d: %v", i+1, err)
		}
	}
	o, err := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: players}, "")
	if err != nil {
		b.Fatal(err)
	}
	return g.ReadID, o.ID
}

// peakRSS is a process's peak resident set (VmHWM), in bytes.
func peakRSS(b *testing.B, pid int) int64 {
	b.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/.../status")
	return 0
}
