package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

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

// Kill the server with SIGKILL at random moments while 4 clients record;
// every deal acknowledged with a 2xx is there exactly once, nothing else
// is, the whole database verifies, and a replay gives the same ledger. On
// both engines: a SQLite file and a PostgreSQL database.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a real server 20 times")
	}
	bin := clitest.Build(t)
	t.Run("sqlite", func(t *testing.T) { crashSafety(t, bin, filepath.Join(t.TempDir(), "crash.db")) })
	t.Run("postgres", func(t *testing.T) { crashSafety(t, bin, pg.Database(t)) })
}

func crashSafety(t *testing.T, bin, db string) {
	rng := rand.New(rand.NewPCG(42, 7))
	players := []string{"Anna", "Ben", "Cleo", "Dan"}

	srv := clitest.Start(t, bin, db)
	const clients = 4
	games := make([]string, clients)
	for i := range games {
		res, err := http.Post(srv.Base+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
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
	srv.Kill()

	cycles := 0
	for ; cycles < 20; cycles++ {
		srv = clitest.Start(t, bin, db)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() { send(srv.Base, c, time.Now().Add(5*time.Second)) })
		}
		time.Sleep(time.Duration(50+rng.IntN(300)) * time.Millisecond)
		srv.Kill()
		wg.Wait()
	}

	// Deliver what is still pending (an answer lost to the kill), then count.
	srv = clitest.Start(t, bin, db)
	total := 0
	for c := range clients {
		if pending[c] != nil {
			if status, err := post(srv.Base, games[c], *pending[c]); err != nil || status != http.StatusCreated {
				t.Fatalf("client %d: resending %s: %d %v", c, pending[c].key, status, err)
			}
			acked[c]++
		}
		var hands []map[string]any
		clitest.GetJSON(t, srv.Base+"/api/games/"+games[c]+"/hands", &hands)
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
			clitest.GetJSON(t, srv.Base+"/api/games/"+g+"/ledger", &l)
			all = append(all, l)
		}
		b, _ := json.Marshal(all)
		return string(b)
	}
	live := ledgers()
	srv.Stop(t)

	// The whole database verifies: chain, heads, every deal re-scored.
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"verify", "--db", db}, &out, &errOut); err != nil {
		t.Fatalf("verify after %d kills: %v\n%s", cycles, err, out.String())
	}
	// A fresh replay of the events gives the ledger the server showed.
	srv = clitest.Start(t, bin, db)
	defer srv.Stop(t)
	if replay := ledgers(); replay != live {
		t.Fatalf("replayed ledger differs:\n%s\n%s", replay, live)
	}
	t.Logf("%d kills, %d deals acknowledged and found exactly once", cycles, total)
	_ = os.Remove(db)
}
