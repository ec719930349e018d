package bench

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"tappbook/internal/pgserver/pgtest"
)

var pg pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// The PostgreSQL measures record real deals through the HTTP path and
// print beside SQLite's; a database that holds games is refused.
func TestPostgresMeasures(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	r, err := Postgres(ctx, url, "test", 250*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.RawTxPerSec <= 0 || r.Record1PerSec <= 0 || r.Record4PerSec <= 0 || r.Record1P50 <= 0 ||
		r.CeilingPerSec <= 0 || r.Record64PerSec <= 0 || r.R64P99 <= 0 {
		t.Fatalf("measures: %+v", r)
	}
	var out bytes.Buffer
	r.Print(&out, Report{RawTxPerSec: 1000, Record1PerSec: 700, Record4PerSec: 1200})
	if !strings.Contains(out.String(), "deals recorded over HTTP, 4 clients") || !strings.Contains(out.String(), "PostgreSQL") ||
		!strings.Contains(out.String(), "deals recorded over HTTP, 64 tables") || !strings.Contains(out.String(), "goal on PostgreSQL, 64 tables") {
		t.Fatalf("printed:\n%s", out.String())
	}
	if _, err := Postgres(ctx, url, "test", 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "empty database") {
		t.Fatalf("a database with games: %v", err)
	}
}
