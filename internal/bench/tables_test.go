package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkMoreTablesThanMemoryHolds records with more tables at once than
// the 64 of tappbook-bench, each evening to its 200 deals and on: at 160
// tables up to 32,000 deals are in play, more than the games memory holds
// at its floor of 20,000 (game.MemoryBudget, at some 600 bytes a deal), and every deal of a game let go
// would fold the game again, until the budget has grown to hold them
// (game.MemoryCeiling). It reports the rate, the p99 and the
// CPU a deal costs, server and clients together; the rate should stay
// near the 64 tables' one. With TAPPBOOK_BIN set the server is that
// binary's `tappbook serve`, as in tappbook-bench.
//
//	go build -o /tmp/tappbook ./cmd/tappbook
//	TAPPBOOK_BIN=/tmp/tappbook go test -run '^$' -bench BenchmarkMoreTablesThanMemoryHolds -benchtime 1x ./internal/bench/
func BenchmarkMoreTablesThanMemoryHolds(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{ManyTables, 160} {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			for b.Loop() {
				srv, err := startTappbook(ctx, os.Getenv("TAPPBOOK_BIN"), filepath.Join(b.TempDir(), "tables.db"))
				if err != nil {
					b.Fatal(err)
				}
				ts := posters(newTables(srv.base, 0, n))
				var warm, m drives
				// Until every table is past its first evening's middle.
				if err := warm.drive(ctx, ts, 8*time.Second, srv); err != nil {
					b.Fatal(err)
				}
				if err := m.drive(ctx, ts, 5*time.Second, srv); err != nil {
					b.Fatal(err)
				}
				_, p99 := percentiles(m.lat)
				server, clients := m.cpuPerDeal()
				b.ReportMetric(m.rate(), "deals/s")
				b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64((server + clients).Microseconds()), "cpu-us/deal")
				if err := srv.stop(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
