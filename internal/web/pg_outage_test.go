package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tappbook/internal/events/postgres"
	"tappbook/internal/game"
	"tappbook/internal/pgserver"
	"tappbook/internal/pgserver/pgtest"
)

// PostgreSQL stopped in the middle of an evening's traffic (recordings with
// new keys, the same keys sent again, starts of games and of a group's
// evenings, reads of games not in memory): every answer is what it was
// before or a 503 that says to try again, never a 500 (issue 34: a
// connection breaking during the version check, the replay of an earlier
// answer or the key lookup was a 500).
func TestPostgresStoppedMidRunAnswersNo500(t *testing.T) {
	t.Run("stopped", func(t *testing.T) { outage(t, (*pgserver.Server).Stop) })
	t.Run("killed", func(t *testing.T) { outage(t, (*pgserver.Server).Crash) })
}

// outage serves an evening's traffic on PostgreSQL and ends the server
// with end part way through.
func outage(t *testing.T, end func(*pgserver.Server) error) {
	ctx := context.Background()
	srv, err := pgserver.Start(ctx, pgserver.Options{NoSync: true})
	if errors.Is(err, pgserver.ErrNotInstalled) && !pgtest.Required() {
		t.Skipf("PostgreSQL: %v (under CI=true this fails)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			srv.Stop()
		}
	}()
	url, err := srv.NewDatabase(ctx, "outage")
	if err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(ctx, url, postgres.Options{AppendTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs syncLog
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(&logs, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	call := func(from int, method, path, body, key string) int {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.RemoteAddr = fmt.Sprintf("192.0.2.%d:4000", from+1) // one phone each: none is held to another's rate
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	// Made by an earlier server: this one reads them from the database.
	before, err := New(game.New(st), slog.New(slog.NewTextHandler(&logs, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for range 6 {
		r := httptest.NewRecorder()
		before.ServeHTTP(r, jsonReq("POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
		games = append(games, jsonField(t, r.Body.Bytes(), "id"))
	}
	r := httptest.NewRecorder()
	before.ServeHTTP(r, jsonReq("POST", "/api/groups", `{"name":"Thursday","players":["Anna","Ben","Cleo","Dan"]}`))
	group := jsonField(t, r.Body.Bytes(), "id")

	var (
		counts  sync.Map // status → *atomic.Int64
		wg      sync.WaitGroup
		n       atomic.Int64
		stopAt  = time.Now().Add(300 * time.Millisecond)
		endAt   = stopAt.Add(1500 * time.Millisecond)
		pass    = `{"contract":"pass"}`
		workers = 12
	)
	count := func(status int) {
		c, _ := counts.LoadOrStore(status, new(atomic.Int64))
		c.(*atomic.Int64).Add(1)
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(endAt); i++ {
				g := games[(w+i)%len(games)]
				key := fmt.Sprintf("w%d-%d", w, i/2) // every request sent twice: the second replays the first
				switch (i / 2) % 6 {
				case 0:
					count(call(w, "POST", "/api/games/"+g+"/hands", pass, key))
				case 1:
					count(call(w, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`, key))
				case 2:
					count(call(w, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"`+group+`"}`, key))
				case 3:
					count(call(w, "GET", "/api/games/"+newGameID(n.Add(1))+"/hands", "", ""))
				case 4:
					count(call(w, "GET", "/g/"+g, "", ""))
				case 5:
					count(call(w, "GET", "/api/groups/"+group, "", ""))
				}
			}
		}()
	}
	time.Sleep(time.Until(stopAt))
	if err := end(srv); err != nil {
		t.Logf("stop PostgreSQL: %v", err)
	}
	stopped = true
	wg.Wait()
	var summary []string
	counts.Range(func(k, v any) bool {
		summary = append(summary, fmt.Sprintf("%d×%d", v.(*atomic.Int64).Load(), k))
		return true
	})
	t.Logf("answers: %s", strings.Join(summary, ", "))
	if c, ok := counts.Load(http.StatusInternalServerError); ok {
		t.Fatalf("%d answers were 500 with PostgreSQL stopped; the log:\n%s", c.(*atomic.Int64).Load(), logs.errors())
	}
	if _, ok := counts.Load(http.StatusServiceUnavailable); !ok {
		t.Fatal("no answer was 503: the outage was not met")
	}
}

// newGameID is a game id no one made: its read goes to the database.
func newGameID(n int64) string {
	return fmt.Sprintf("%026d", n)
}

func jsonReq(method, path, body string) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

func jsonField(t *testing.T, body []byte, field string) string {
	t.Helper()
	m := resp{body: string(body)}.json(t)
	s, ok := m[field].(string)
	if !ok {
		t.Fatalf("no %s in %s", field, body)
	}
	return s
}

// syncLog is a log written from many requests at once.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// errors is the log's lines at level ERROR, each once.
func (l *syncLog) errors() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(l.b.String(), "\n") {
		if i := strings.Index(line, "level=ERROR"); i >= 0 {
			msg := line[i:]
			if j := strings.Index(msg, " err="); j >= 0 {
				msg = msg[j:]
			}
			if !seen[msg] {
				seen[msg] = true
				out = append(out, line)
			}
		}
	}
	return strings.Join(out, "\n")
}
