package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// server is the real tappbook binary, started on a database file.
type server struct {
	cmd  *exec.Cmd
	base string
	logs bytes.Buffer
}

func buildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tappbook")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// startServer starts the binary on db; on a PostgreSQL database with its
// form key in a folder of the test's (extra may name another --data-dir).
func startServer(t testing.TB, bin, db string, extra ...string) *server {
	t.Helper()
	addr := freeAddr(t)
	s := &server{base: "http://" + addr}
	args := []string{"serve", "--addr", addr, "--db", db, "--mdns", "off"}
	if strings.HasPrefix(db, "postgres://") && !slices.Contains(extra, "--data-dir") {
		args = append(args, "--data-dir", t.TempDir())
	}
	s.cmd = exec.Command(bin, append(args, extra...)...)
	s.cmd.Stdout, s.cmd.Stderr = &s.logs, &s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if r, err := http.Get(s.base + "/healthz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.cmd.Process.Kill()
	t.Fatalf("the server did not come up:\n%s", s.logs.String())
	return nil
}

func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait()
}

func (s *server) stop(t testing.TB) {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("a clean stop failed: %v\n%s", err, s.logs.String())
	}
}

// request is one deal a client sends; it is sent again, with the same key,
// until it is acknowledged.
type request struct {
	key, body string
}

func post(base, game string, r request) (int, error) {
	req, _ := http.NewRequest("POST", base+"/api/games/"+game+"/hands", strings.NewReader(r.body))
	req.Header.Set("Idempotency-Key", r.key)
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return res.StatusCode, err
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// Kill the server with SIGKILL at random moments while 4 clients record;
// every deal acknowledged with a 2xx is there exactly once, nothing else
// is, the whole database verifies, and a replay gives the same ledger. On
// both engines: a SQLite file and a PostgreSQL database.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a real server 20 times")
	}
	bin := buildBinary(t)
	t.Run("sqlite", func(t *testing.T) { crashSafety(t, bin, filepath.Join(t.TempDir(), "crash.db")) })
	t.Run("postgres", func(t *testing.T) { crashSafety(t, bin, pg.Database(t)) })
}

func crashSafety(t *testing.T, bin, db string) {
	rng := rand.New(rand.NewPCG(42, 7))
	players := []string{"Anna", "Ben", "Cleo", "Dan"}

	srv := startServer(t, bin, db)
	const clients = 4
	games := make([]string, clients)
	for i := range games {
		res, err := http.Post(srv.base+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
		if err != nil {
			t.Fatal(err)
		}
		var g struct{ ID string }
		json.NewDecoder(res.Body).Decode(&g)
		res.Body.Close()
		games[i] = g.ID
	}
	acked := make([]int, clients)        // deals acknowledged per client
	pending := make([]*request, clients) // a deal sent but not acknowledged
	next := make([]int, clients)
	deal := func(c int) request {
		n := next[c]
		next[c]++
		body := `{"contract":"pass"}`
		if n%3 != 2 {
			body = fmt.Sprintf(`{"contract":"solo","declarer":%q,"points":%d,"tricks":5}`, players[n%4], 40+n%40)
		}
		return request{key: fmt.Sprintf("client%d-deal%d", c, n), body: body}
	}
	// send delivers each client's pending deal, then new ones, until the
	// server goes away.
	send := func(base string, c int, until time.Time) {
		for time.Now().Before(until) {
			if pending[c] == nil {
				r := deal(c)
				pending[c] = &r
			}
			status, err := post(base, games[c], *pending[c])
			if err != nil {
				return // killed: the deal stays pending, maybe committed
			}
			if status != http.StatusCreated {
				t.Errorf("client %d: %s answered %d", c, pending[c].key, status)
				return
			}
			acked[c]++
			pending[c] = nil
		}
	}
	srv.kill()

	cycles := 0
	for ; cycles < 20; cycles++ {
		srv = startServer(t, bin, db)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() { send(srv.base, c, time.Now().Add(5*time.Second)) })
		}
		time.Sleep(time.Duration(50+rng.IntN(300)) * time.Millisecond)
		srv.kill()
		wg.Wait()
	}

	// Deliver what is still pending (an answer lost to the kill), then count.
	srv = startServer(t, bin, db)
	total := 0
	for c := range clients {
		if pending[c] != nil {
			if status, err := post(srv.base, games[c], *pending[c]); err != nil || status != http.StatusCreated {
				t.Fatalf("client %d: resending %s: %d %v", c, pending[c].key, status, err)
			}
			acked[c]++
		}
		var hands []map[string]any
		getJSON(t, srv.base+"/api/games/"+games[c]+"/hands", &hands)
		if len(hands) != acked[c] {
			t.Fatalf("client %d: %d deals acknowledged, %d stored", c, acked[c], len(hands))
		}
		for i, h := range hands {
			if h["hand"] != float64(i+1) {
				t.Fatalf("client %d: deal %d has number %v", c, i+1, h["hand"])
			}
		}
		total += acked[c]
	}
	if total < 40 {
		t.Fatalf("only %d deals were recorded over %d kills; the test did not exercise the server", total, cycles)
	}
	ledgers := func() string {
		var all []any
		for _, g := range games {
			var l map[string]any
			getJSON(t, srv.base+"/api/games/"+g+"/ledger", &l)
			all = append(all, l)
		}
		b, _ := json.Marshal(all)
		return string(b)
	}
	live := ledgers()
	srv.stop(t)

	// The whole database verifies: chain, heads, every deal re-scored.
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"verify", "--db", db}, &out, &errOut); err != nil {
		t.Fatalf("verify after %d kills: %v\n%s", cycles, err, out.String())
	}
	// A fresh replay of the events gives the ledger the server showed.
	srv = startServer(t, bin, db)
	defer srv.stop(t)
	if replay := ledgers(); replay != live {
		t.Fatalf("replayed ledger differs:\n%s\n%s", replay, live)
	}
	t.Logf("%d kills, %d deals acknowledged and found exactly once", cycles, total)
	_ = os.Remove(db)
}
