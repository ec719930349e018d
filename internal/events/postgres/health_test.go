package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
)

// A database out of reach makes the store degraded and the append fails
// with nothing written; once the database takes connections again, the
// next append succeeds and the store is healthy, with nothing restarted.
func TestHealthWhenTheDatabaseIsOutOfReach(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	s, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Append(ctx, "g", 0, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: 1}); err != nil {
		t.Fatal(err)
	}
	name := url[strings.LastIndex(url, "/")+1 : strings.Index(url, "?")]
	admin := conn(t, strings.Replace(url, "/"+name+"?", "/postgres?", 1))
	exec := func(q string) {
		t.Helper()
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("ALTER DATABASE " + pgx.Identifier{name}.Sanitize() + " ALLOW_CONNECTIONS false")
	exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + name + "' AND pid <> pg_backend_pid()")
	_, err = s.Append(ctx, "g", 1, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: 2})
	if err == nil || errors.Is(err, events.ErrDiskFull) || !errors.Is(err, events.ErrUnavailable) {
		t.Fatalf("append with the database out of reach: %v", err)
	}
	// A read too says the database is out of reach (a page answers 503,
	// "try again in a moment"), whichever way it reads.
	if _, err := s.ReadStream(ctx, "g"); !errors.Is(err, events.ErrUnavailable) {
		t.Fatalf("read with the database out of reach: %v", err)
	}
	if _, err := s.StreamVersion(ctx, "g"); !errors.Is(err, events.ErrUnavailable) {
		t.Fatalf("version with the database out of reach: %v", err)
	}
	if h := s.Health(); h.OK || !strings.Contains(h.Problem, "out of reach") || h.Since.IsZero() {
		t.Fatalf("health with the database out of reach: %+v", h)
	}
	if err := s.Ping(ctx); err == nil || !strings.Contains(err.Error(), "out of reach") {
		t.Fatalf("ping with the database out of reach: %v", err)
	}
	exec("ALTER DATABASE " + pgx.Identifier{name}.Sanitize() + " ALLOW_CONNECTIONS true")
	// Answered again: the degradation the failed write began ends with
	// the ping, before any write (a server out of rotation gets none).
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("ping once the database is back: %v", err)
	}
	if h := s.Health(); !h.OK {
		t.Fatalf("health after a ping answered: %+v", h)
	}
	if _, err := s.Append(ctx, "g", 1, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: 2}); err != nil {
		t.Fatalf("append once the database is back: %v", err)
	}
	if h := s.Health(); !h.OK {
		t.Fatalf("health once the database is back: %+v", h)
	}
	if v, _ := s.StreamVersion(ctx, "g"); v != 2 {
		t.Fatalf("stream at version %d, want 2", v)
	}
}

// With every pooled connection busy (here the pool's one, held by an
// append waiting for its stream's lock) the database still answers: the
// ping says so at once rather than waiting for a pooled connection and
// calling the database out of reach.
func TestPingWithEveryPooledConnectionBusy(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	s, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 1, AppendTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Another session holds stream g's append lock (class 1, as append.go
	// takes it), so the append waits on it, holding the pool's connection.
	holder := conn(t, url)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(1, hashtext('g'))`); err != nil {
		t.Fatal(err)
	}
	appended := make(chan error, 1)
	go func() {
		_, err := s.Append(ctx, "g", 0, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: 1})
		appended <- err
	}()
	waiting := false
	for range 200 { // until the append waits on the lock
		var n int
		if err := holder.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if waiting = n > 0; waiting {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !waiting {
		t.Fatal("the append never waited on the stream's lock")
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("ping with the pool's one connection busy: %v", err)
	}
	if h := s.Health(); !h.OK {
		t.Fatalf("health with the pool busy: %+v", h)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-appended; err != nil {
		t.Fatalf("the append, once the lock was let go: %v", err)
	}
}

// Many health checks at once (a load balancer's, a few scripts') share one
// question on one connection: they all answer, and the database sees no
// more sessions than the pool's and the ping's.
func TestPingsAtOnceHoldOneConnection(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	s, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	name := url[strings.LastIndex(url, "/")+1 : strings.Index(url, "?")]
	watch := conn(t, strings.Replace(url, "/"+name+"?", "/postgres?", 1))
	sessions := func() int {
		var n int
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, name).Scan(&n); err != nil {
			t.Error(err)
		}
		return n
	}
	stop := make(chan struct{})
	most := make(chan int)
	go func() {
		m := 0
		for {
			select {
			case <-stop:
				most <- m
				return
			default:
				m = max(m, sessions())
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 500)
	for range 500 {
		wg.Go(func() { errs <- s.Ping(ctx) })
	}
	wg.Wait()
	close(stop)
	peak := <-most
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a ping among 500 at once: %v", err)
		}
	}
	if peak > 2+1 {
		t.Fatalf("500 pings at once: %d sessions on the database at the most, want at most the pool's 2 and the ping's 1", peak)
	}
}

// A server that does not answer is out of reach (serve waits for it); a
// database that does not exist is not (serve says so at once).
func TestOutOfReachAtOpen(t *testing.T) {
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	_, err = postgres.Open(ctx, fmt.Sprintf("postgres://tappbook@127.0.0.1:%d/tappbook?sslmode=disable&connect_timeout=2", closed), postgres.Options{})
	if err == nil || !postgres.OutOfReach(err) {
		t.Fatalf("a port nothing listens on: %v, out of reach %t", err, postgres.OutOfReach(err))
	}
	// A mistake in the URL is not waited for: it will not pass.
	url := pg.Database(t)
	for what, u := range map[string]string{
		"a database that does not exist": url[:strings.LastIndex(url, "/")+1] + "no_such_database?sslmode=disable",
		"TLS the server does not speak":  strings.Replace(url, "sslmode=disable", "sslmode=require", 1),
	} {
		_, err = postgres.Open(ctx, u, postgres.Options{})
		if err == nil || postgres.OutOfReach(err) {
			t.Errorf("%s: %v, out of reach %t", what, err, postgres.OutOfReach(err))
		}
	}
	// A host name that does not exist (asked without a name server: a
	// machine under test may have none), and one whose name server does
	// not answer.
	if postgres.OutOfReach(&net.DNSError{Err: "no such host", Name: "db.example", IsNotFound: true}) {
		t.Error("a host name that does not exist is out of reach")
	}
	if !postgres.OutOfReach(&net.DNSError{Err: "i/o timeout", Name: "db.example", IsTimeout: true}) {
		t.Error("a name server that does not answer is not out of reach")
	}
}

// During a failover no server of a primary and its standby takes writes
// for a few seconds: the old primary is gone or demoted, the standby not
// yet promoted. A store connecting then, and a write on a connection to a
// server that stopped taking writes, are out of reach (503, try again),
// not a fault (500).
func TestNoServerTakingWritesIsOutOfReach(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	st, err := postgres.Open(ctx, url+"&target_session_attrs=read-write", postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deal := events.NewEvent{Type: "t", SchemaVersion: 1, Data: map[string]int{"n": 1}}
	if _, err := st.Append(ctx, "g", 0, events.Key{}, deal); err != nil {
		t.Fatal(err)
	}
	// The database stops taking writes (as a standby, or a primary being
	// demoted, answers every new session), and the store's sessions end.
	owner := conn(t, url)
	db := url[strings.LastIndex(url, "/")+1 : strings.Index(url, "?")]
	for _, q := range []string{`ALTER DATABASE ` + db + ` SET default_transaction_read_only = on`,
		`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`} {
		if _, err := owner.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	_, err = postgres.Open(ctx, url+"&target_session_attrs=read-write", postgres.Options{})
	if err == nil || !postgres.OutOfReach(err) {
		t.Fatalf("open with no server taking writes: %v, out of reach %t", err, postgres.OutOfReach(err))
	}
	for i := range 3 { // the first may meet a session that was ended
		_, err = st.Append(ctx, "g", 1, events.Key{}, deal)
		if !errors.Is(err, events.ErrUnavailable) && !errors.Is(err, events.ErrOutcomeUnknown) {
			t.Fatalf("append %d with no server taking writes: %v", i+1, err)
		}
	}
	if !postgres.OutOfReach(&pgconn.PgError{Severity: "ERROR", Code: "25006", Message: "cannot execute INSERT in a read-only transaction"}) {
		t.Error("a write refused by a server that stopped taking writes is not out of reach")
	}
	if _, err := owner.Exec(ctx, `ALTER DATABASE `+db+` RESET default_transaction_read_only`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "g", 1, events.Key{}, deal); err != nil {
		t.Fatalf("append once the server takes writes again: %v", err)
	}
}

// A read after Close is events.ErrClosed, as an append after it is: a
// server stopping answers 503, "try again", not a fault.
func TestReadAfterCloseIsErrClosed(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pg.Database(t), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := s.ReadStream(ctx, "g"); !errors.Is(err, events.ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
	if _, err := s.StreamVersion(ctx, "g"); !errors.Is(err, events.ErrClosed) {
		t.Fatalf("version after close: %v", err)
	}
}
