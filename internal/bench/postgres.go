package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/events/postgres"
	"tappbook/internal/game"
	"tappbook/internal/web"
)

// PGReport is what recording costs on PostgreSQL, measured as writing()
// measures SQLite: the raw durable transaction, and deals recorded through
// the whole HTTP path with 1 and 4 clients.
type PGReport struct {
	Where                  string // the server measured
	RawTxPerSec            float64
	Record1PerSec          float64
	Record4PerSec          float64
	Record1P50, Record1P99 time.Duration
	Record4P50, Record4P99 time.Duration
	// ManyTables tables recording at once, beside the ceiling: a bare
	// handler group-committing raw inserts into the same PostgreSQL.
	CeilingPerSec, Record64PerSec   float64
	CeilingP99, Record64P50, R64P99 time.Duration
}

// Postgres measures recording on the PostgreSQL database at url, which
// must be empty: it is filled with the measurement's games and a table
// bench_raw, dropped at the end.
func Postgres(ctx context.Context, url, where string, d time.Duration) (PGReport, error) {
	r := PGReport{Where: where}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return r, err
	}
	defer st.Close()
	if rep, err := st.Verify(ctx); err != nil || rep.Streams > 0 {
		return r, fmt.Errorf("bench on %s: give it an empty database (it holds %d games), it writes games of its own: %v", postgres.Redact(url), rep.Streams, err)
	}
	raw, err := newPGInserter(ctx, url)
	if err != nil {
		return r, fmt.Errorf("raw PostgreSQL transactions: %w", err)
	}
	defer raw.close(ctx)
	group, err := newPGGroupInserter(ctx, url)
	if err != nil {
		return r, fmt.Errorf("group-committed raw PostgreSQL inserts: %w", err)
	}
	defer group.close(ctx)
	ceilingBase, stopCeiling, err := servePGCeiling(group)
	if err != nil {
		return r, err
	}
	defer stopCeiling()
	base, stopApp, err := serveApp(game.New(st))
	if err != nil {
		return r, err
	}
	defer stopApp()
	t1, t4, t64 := newTables(base, 2000, 1), newTables(base, 2001, 4), newTables(base, 2005, ManyTables)
	ceiling := newBareClients(ceilingBase+"/group", 2100, ManyTables)
	var rawTx, one, four, ceil, many drives
	slice := d / writeRounds
	for range writeRounds {
		n, start := 0, time.Now()
		for time.Since(start) < slice {
			if err := raw.insert(ctx); err != nil {
				return r, fmt.Errorf("raw PostgreSQL transactions: %w", err)
			}
			n++
		}
		rawTx.add(n, time.Since(start), nil)
		if err := one.drive(ctx, posters(t1), slice, nil); err != nil {
			return r, fmt.Errorf("recording on PostgreSQL, 1 client: %w", err)
		}
		if err := four.drive(ctx, posters(t4), slice, nil); err != nil {
			return r, fmt.Errorf("recording on PostgreSQL, 4 clients: %w", err)
		}
		if err := ceil.drive(ctx, ceiling, slice, nil); err != nil {
			return r, fmt.Errorf("group-committed raw PostgreSQL inserts over HTTP: %w", err)
		}
		if err := many.drive(ctx, posters(t64), slice, nil); err != nil {
			return r, fmt.Errorf("recording on PostgreSQL, %d tables: %w", ManyTables, err)
		}
	}
	r.CeilingPerSec, r.Record64PerSec = ceil.rate(), many.rate()
	_, r.CeilingP99 = percentiles(ceil.lat)
	r.Record64P50, r.R64P99 = percentiles(many.lat)
	r.RawTxPerSec, r.Record1PerSec, r.Record4PerSec = rawTx.rate(), one.rate(), four.rate()
	r.Record1P50, r.Record1P99 = percentiles(one.lat)
	r.Record4P50, r.Record4P99 = percentiles(four.lat)
	return r, nil
}

// serveApp runs the real server over svc on a loopback port until stop.
func serveApp(svc *game.Service) (base string, stop func(), err error) {
	h, err := web.New(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return "", nil, fmt.Errorf("the server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("a loopback port for the server: %w", err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// pgInserter is the limit: one durable one-row transaction at a time on
// one connection, as synchronous_commit=on makes the store's commits.
type pgInserter struct{ conn *pgx.Conn }

func newPGInserter(ctx context.Context, url string) (*pgInserter, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["synchronous_commit"] = "on"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE bench_raw (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)`); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return &pgInserter{conn: conn}, nil
}

func (p *pgInserter) insert(ctx context.Context) error {
	_, err := p.conn.Exec(ctx, `INSERT INTO bench_raw (body) VALUES ($1)`, dealBodies[0])
	return err
}

func (p *pgInserter) close(ctx context.Context) {
	_, _ = p.conn.Exec(ctx, `DROP TABLE bench_raw`)
	p.conn.Close(ctx)
}

// Print writes PostgreSQL's recording rates beside SQLite's from the same
// run (sqlite), each with its ratio to its own raw transaction.
func (r PGReport) Print(w io.Writer, sqlite Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(tw, "6. on PostgreSQL (%s)\tPostgreSQL\tratio\tSQLite\tratio\t\n", r.Where)
	fmt.Fprintf(tw, "6. raw durable 1-row transactions, 1 client\t%.0f /s\t\t%.0f /s\t\t\n", r.RawTxPerSec, sqlite.RawTxPerSec)
	fmt.Fprintf(tw, "6. deals recorded over HTTP, 1 client\t%.0f /s\t%.2f× raw tx\t%.0f /s\t%.2f× raw tx\t\n",
		r.Record1PerSec, r.Record1PerSec/r.RawTxPerSec, sqlite.Record1PerSec, sqlite.Record1PerSec/sqlite.RawTxPerSec)
	fmt.Fprintf(tw, "6. deals recorded over HTTP, 4 clients\t%.0f /s\t%.2f× raw tx\t%.0f /s\t%.2f× raw tx\t\n",
		r.Record4PerSec, r.Record4PerSec/r.RawTxPerSec, sqlite.Record4PerSec, sqlite.Record4PerSec/sqlite.RawTxPerSec)
	fmt.Fprintf(tw, "6. one deal, 1 client: p50 / p99\t%s / %s\t\t%s / %s\t\t\n", ms(r.Record1P50), ms(r.Record1P99), ms(sqlite.Record1P50), ms(sqlite.P99))
	fmt.Fprintf(tw, "6. one deal, 4 clients: p50 / p99\t%s / %s\t\t%s / %s\t\t\n", ms(r.Record4P50), ms(r.Record4P99), ms(sqlite.Record4P50), ms(sqlite.R4P99))
	fmt.Fprintf(tw, "6. ceiling, %d clients: group-committed raw inserts behind a bare handler\t%.0f /s\t\t%.0f /s\t\t\n", ManyTables, r.CeilingPerSec, sqlite.CeilingPerSec)
	fmt.Fprintf(tw, "6. deals recorded over HTTP, %d tables\t%.0f /s\t%.2f× ceiling\t%.0f /s\t%.2f× ceiling\t\n", ManyTables,
		r.Record64PerSec, ratio(r.Record64PerSec, r.CeilingPerSec), sqlite.Record64PerSec, ratio(sqlite.Record64PerSec, sqlite.CeilingPerSec))
	fmt.Fprintf(tw, "6. one deal, %d tables: p50 / p99\t%s / %s\t\t%s / %s\t\t\n", ManyTables, ms(r.Record64P50), ms(r.R64P99), ms(sqlite.Record64P50), ms(sqlite.R64P99))
	tw.Flush()
	verdict := "met"
	if ratio(r.Record64PerSec, r.CeilingPerSec) < 0.7 || r.R64P99 > 25*time.Millisecond {
		verdict = "missed"
	}
	fmt.Fprintf(w, "6. goal on PostgreSQL, %d tables: >= 0.70× its ceiling with p99 <= 25 ms: %s (%.2f×, p99 %s)\n",
		ManyTables, verdict, ratio(r.Record64PerSec, r.CeilingPerSec), ms(r.R64P99))
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
