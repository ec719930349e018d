package postgres_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
)

// cutter is a TCP proxy to the database that, once armed, cuts the
// connection that sends an append's writes and commit (found by the
// event's data, marked: statements are prepared, their text sent once):
// after passing them on (the database commits, its answer is lost) or
// before (the database never sees them).
// refuse makes it turn new connections away.
type cutter struct {
	ln     net.Listener
	target string
	mode   atomic.Int32 // cutNone, cutAfter, cutBefore
	refuse atomic.Bool
	wg     sync.WaitGroup
	mu     sync.Mutex
	open   map[net.Conn]bool
}

const (
	cutNone int32 = iota
	cutAfter
	cutBefore
	cutAfterThenDown // cutAfter, then every connection cut and new ones refused
)

// down cuts every connection but keep and refuses new ones: the database
// out of reach.
func (c *cutter) down(keep net.Conn) {
	c.refuse.Store(true)
	c.mu.Lock()
	defer c.mu.Unlock()
	for conn := range c.open {
		if conn != keep {
			conn.Close()
		}
	}
}

func (c *cutter) track(conns ...net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range conns {
		c.open[conn] = true
	}
}

func newCutter(t *testing.T, dbURL string) (*cutter, string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{ln: ln, target: u.Host, open: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); c.wg.Wait() })
	c.wg.Add(1)
	go c.serve()
	u.Host = ln.Addr().String()
	return c, u.String()
}

func (c *cutter) serve() {
	defer c.wg.Done()
	for {
		client, err := c.ln.Accept()
		if err != nil {
			return
		}
		if c.refuse.Load() {
			client.Close()
			continue
		}
		server, err := net.Dial("tcp", c.target)
		if err != nil {
			client.Close()
			continue
		}
		c.track(client, server)
		// answerLost: the request was passed on and its answer is to be
		// dropped; answered is closed once the database gave it.
		var answerLost atomic.Bool
		answered := make(chan struct{})
		c.wg.Add(2)
		go func() {
			defer c.wg.Done()
			defer client.Close()
			buf := make([]byte, 64<<10)
			var got []byte
			for {
				n, err := server.Read(buf)
				if answerLost.Load() {
					// Kept from the client; the connection to the database
					// ends once its answer, to the Sync, is in.
					if got = append(got, buf[:n]...); readyForQuery(got) || err != nil {
						close(answered)
						return
					}
					continue
				}
				if n > 0 {
					if _, werr := client.Write(buf[:n]); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
		go func() {
			defer c.wg.Done()
			defer server.Close()
			defer client.Close()
			buf := make([]byte, 64<<10)
			mode := cutNone
			for {
				n, err := client.Read(buf)
				if n > 0 {
					if mode == cutNone && bytes.Contains(buf[:n], []byte("cut-here")) {
						mode = c.mode.Swap(cutNone)
						// Marked before the request goes on, so that no
						// part of its answer reaches the client.
						answerLost.Store(mode != cutNone && mode != cutBefore)
					}
					if mode != cutBefore {
						if _, werr := server.Write(buf[:n]); werr != nil {
							return
						}
					}
					// The whole request is passed on (or kept), up to its
					// Sync, however the reads split it; then the cut.
					if mode != cutNone && (mode == cutBefore || endsWithSync(buf[:n])) {
						if mode != cutBefore {
							// The database commits what it was sent; its
							// answer is dropped. The client is cut only once
							// that answer is in: pgx answers a connection
							// broken mid-request with a cancel request, which
							// would otherwise race the commit (and, when it
							// won under load, rightly turned the commit into
							// "not saved").
							select {
							case <-answered:
							case <-time.After(10 * time.Second):
							}
						}
						if mode == cutAfterThenDown {
							c.down(server)
						}
						client.Close()
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// endsWithSync reports a client's write that ends with a Sync message,
// the end of a pipelined request.
func endsWithSync(b []byte) bool {
	return bytes.HasSuffix(b, []byte{'S', 0, 0, 0, 4})
}

// readyForQuery reports a server's answer that ends with ReadyForQuery,
// the end of its answer to a Sync.
func readyForQuery(b []byte) bool {
	n := len(b)
	return n >= 6 && b[n-6] == 'Z' && bytes.Equal(b[n-5:n-1], []byte{0, 0, 0, 5})
}

func appendOne(s *postgres.Store, v int64) (events.AppendResult, error) {
	return s.Append(context.Background(), "g", v, events.Key{}, events.NewEvent{Type: "t", SchemaVersion: 1, Data: fmt.Sprintf("cut-here %d", v+1)})
}

// A commit whose answer is lost is settled by asking the database: if the
// events are there, the append succeeded (and says so, with their
// numbers); if not, it failed; if the database cannot be asked, the append
// says its outcome is unknown — never "nothing was saved" when it was.
func TestCommitWhoseAnswerIsLost(t *testing.T) {
	dbURL, cut, s := behindCutter(t, postgres.Options{AppendTimeout: 5 * time.Second})

	// Committed, answer lost: a success.
	res := answerLost(t, cut, s)
	if cut.mode.Load() != cutNone {
		t.Fatal("the commit was never cut")
	}
	direct, err := postgres.Open(context.Background(), dbURL, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	var seqs []int64
	if err := direct.Replay(context.Background(), "g", func(ev events.Event) error { seqs = append(seqs, ev.Seq); return nil }); err != nil || len(seqs) != 2 || seqs[1] != res.Events[0].Seq {
		t.Fatalf("stored %v (%v), answered seq %d", seqs, err, res.Events[0].Seq)
	}

	// Never reached the database: a failure, nothing stored.
	cut.mode.Store(cutBefore)
	if _, err := appendOne(s, 2); err == nil || errors.Is(err, events.ErrOutcomeUnknown) {
		t.Fatalf("a commit that never arrived: %v", err)
	}
	if v, _ := direct.StreamVersion(context.Background(), "g"); v != 2 {
		t.Fatalf("stream at %d after a commit that never arrived", v)
	}

	// Committed, and the database out of reach afterwards: unknown.
	cut.mode.Store(cutAfterThenDown)
	_, err = appendOne(s, 2)
	if !errors.Is(err, events.ErrOutcomeUnknown) {
		t.Fatalf("a commit that could not be asked about: %v", err)
	}
	cut.refuse.Store(false)
	// The database commits what it was sent as its connection is cut,
	// perhaps after the append gave its answer.
	v := int64(0)
	for wait := time.Now().Add(10 * time.Second); v != 3 && time.Now().Before(wait); time.Sleep(20 * time.Millisecond) {
		v, _ = direct.StreamVersion(context.Background(), "g")
	}
	if v != 3 {
		t.Fatalf("stream at %d: the commit whose outcome was unknown was not made", v)
	}
}

// A database that stops answering (here: another transaction holding the
// stream's append lock) fails the append after AppendTimeout instead of
// holding it, and Close is not kept waiting for it.
func TestAppendGivesUpOnAStalledDatabase(t *testing.T) {
	ctx := context.Background()
	dbURL := pg.Database(t)
	s, err := postgres.Open(ctx, dbURL, postgres.Options{AppendTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := appendOne(s, 0); err != nil {
		t.Fatal(err)
	}
	holder := conn(t, dbURL)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(1, hashtext('g'))`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := appendOne(s, 1); done <- err }()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, events.ErrOutcomeUnknown) || !strings.Contains(err.Error(), "append to g") {
			t.Fatalf("an append held by a stalled database: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the append is still waiting for the stalled database")
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close is still waiting")
	}
	tx.Rollback(ctx)
	if v, _ := postgresVersion(t, dbURL); v != 1 {
		t.Fatalf("stream at %d after the append gave up", v)
	}
}

func postgresVersion(t *testing.T, dbURL string) (int64, error) {
	s, err := postgres.Open(context.Background(), dbURL, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.StreamVersion(context.Background(), "g")
}

func fatal57P01() []byte {
	var body bytes.Buffer
	for _, f := range []struct {
		k byte
		v string
	}{{'S', "FATAL"}, {'V', "FATAL"}, {'C', "57P01"}, {'M', "terminating connection due to administrator command"}} {
		body.WriteByte(f.k)
		body.WriteString(f.v)
		body.WriteByte(0)
	}
	body.WriteByte(0)
	out := []byte{'E', 0, 0, 0, 0}
	binary.BigEndian.PutUint32(out[1:], uint32(body.Len()+4))
	return append(out, body.Bytes()...)
}

// The commit reaches the database and is made; the answer the store gets
// is a FATAL 57P01 (the server shut down, the session terminated, after
// the commit). That is no refusal: the store asks, finds the events, and
// the append succeeded.
func TestCommitAnsweredWithAFatal(t *testing.T) {
	dbURL := pg.Database(t)
	u, _ := url.Parse(dbURL)
	target := u.Host
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var armed atomic.Bool
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			var hit atomic.Bool
			go func() {
				buf := make([]byte, 64<<10)
				for {
					n, err := server.Read(buf)
					if n > 0 {
						if hit.Load() {
							time.Sleep(300 * time.Millisecond)
							client.Write(fatal57P01())
							client.Close()
							server.Close()
							return
						}
						if _, werr := client.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						client.Close()
						return
					}
				}
			}()
			go func() {
				buf := make([]byte, 64<<10)
				for {
					n, err := client.Read(buf)
					if n > 0 {
						if armed.Load() && bytes.Contains(buf[:n], []byte("cut-here")) {
							armed.Store(false)
							hit.Store(true)
						}
						server.Write(buf[:n])
					}
					if err != nil {
						server.Close()
						return
					}
				}
			}()
		}
	}()
	u.Host = ln.Addr().String()
	s, err := postgres.Open(context.Background(), u.String(), postgres.Options{AppendTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := appendOne(s, 0); err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	res, err := appendOne(s, 1)
	if v, _ := postgresVersion(t, dbURL); err != nil || v != 2 || len(res.Events) != 1 || res.Events[0].Seq == 0 {
		t.Fatalf("a commit answered with a FATAL: %+v, %v; stream at %d", res, err, v)
	}
}

// A commit whose answer is lost is settled on another connection than the
// one lost: one that is still taken from the pool until the append gives
// it back. With every connection of the pool taken (here the pool's only
// one), the lost connection must be given back before asking, or the
// question waits for a connection that only its own answer frees, and a
// commit that was made is answered "unknown".
func TestCommitWhoseAnswerIsLostWithThePoolFull(t *testing.T) {
	_, cut, s := behindCutter(t, postgres.Options{MaxConns: 1, AppendTimeout: 3 * time.Second})
	answerLost(t, cut, s)
}

// behindCutter opens a store on a new database through a cutter, with one
// event appended: the database's URL, the cutter and the store.
func behindCutter(t *testing.T, opt postgres.Options) (string, *cutter, *postgres.Store) {
	t.Helper()
	dbURL := pg.Database(t)
	cut, via := newCutter(t, dbURL)
	s, err := postgres.Open(context.Background(), via, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := appendOne(s, 0); err != nil {
		t.Fatal(err)
	}
	return dbURL, cut, s
}

// answerLost appends the second event with its commit's answer lost: the
// database commits it, and the append must say so, with its number.
func answerLost(t *testing.T, cut *cutter, s *postgres.Store) events.AppendResult {
	t.Helper()
	cut.mode.Store(cutAfter)
	res, err := appendOne(s, 1)
	if err != nil || len(res.Events) != 1 || res.Events[0].Version != 2 || res.Events[0].Seq == 0 {
		t.Fatalf("a commit whose answer was lost: %+v, %v", res, err)
	}
	return res
}
