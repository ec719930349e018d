package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// EveningDeals is how many deals a table records before it starts a new
// evening.
const EveningDeals = 200

// dealBodies are the deals the tables post to their zuger evenings, in turn.
var dealBodies = []string{
	`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`,
	`{"contract":"tapp","declarer":"Anna","points":55,"tricks":3}`,
	`{"contract":"super","declarer":"Dan","points":74,"tricks":6}`,
	`{"contract":"vice","declarer":"Cleo","points":80,"tricks":7}`,
}

// table is one phone recording evening after evening: each evening from
// an address of its own on the loopback network (a phone at a table is
// one client of the server; a limit per address would otherwise count a
// whole benchmark as one client), a deal at a time, each posted only when
// the last one was answered.
type table struct {
	base    string
	id      int // which table: its addresses are its own
	evening int
	game    string // the evening's game; "" before its first
	deals   int    // recorded in this evening
	client  *http.Client
}

// clientAddr is the loopback address of table id's evening n: a different
// one for every table and evening.
func clientAddr(id, n int) net.IP {
	k := id*1000 + n
	return net.IPv4(127, byte(10+k/62500), byte(k/250%250), byte(1+k%250))
}

// newTables makes n tables posting to base, their addresses numbered from
// first.
func newTables(base string, first, n int) []*table {
	ts := make([]*table, n)
	for i := range ts {
		ts[i] = &table{base: base, id: first + i}
	}
	return ts
}

// next posts the table's next deal, first starting an evening if one is
// due, and gives the deal's latency.
func (t *table) next() (time.Duration, error) {
	if t.game == "" || t.deals == EveningDeals {
		if err := t.newEvening(); err != nil {
			return 0, err
		}
	}
	body := dealBodies[t.deals%len(dealBodies)]
	t0 := time.Now()
	if err := post(t.client, t.base+"/api/games/"+t.game+"/hands", body, nil); err != nil {
		return 0, fmt.Errorf("table %d, evening %d, deal %d: %w", t.id, t.evening, t.deals+1, err)
	}
	t.deals++
	return time.Since(t0), nil
}

// newEvening starts a new game from the table's next address.
func (t *table) newEvening() error {
	if t.client != nil {
		t.client.CloseIdleConnections()
	}
	t.evening++
	t.client = clientFrom(clientAddr(t.id, t.evening))
	var g struct{ ID string }
	if err := post(t.client, t.base+"/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`, &g); err != nil {
		return fmt.Errorf("table %d: new evening: %w", t.id, err)
	}
	t.game, t.deals = g.ID, 0
	return nil
}

// clientFrom is an HTTP client whose connections come from addr.
func clientFrom(addr net.IP) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: addr}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 2}}
}

// post sends body and expects 201 (200 for a health check), decoding the
// answer into out when it is not nil.
func post(client *http.Client, url, body string, out any) error {
	res, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return fmt.Errorf("status %d: %s", res.StatusCode, bytes.TrimSpace(b))
	}
	if out != nil {
		return json.NewDecoder(res.Body).Decode(out)
	}
	_, err = io.Copy(io.Discard, res.Body)
	return err
}

// drives adds up measurement slices: deals, time, each deal's latency and
// the CPU the server and the clients spent on them.
type drives struct {
	n       int
	elapsed time.Duration
	lat     []time.Duration
	server  time.Duration // CPU of the server's process (0 in this process)
	client  time.Duration // CPU of this process, where the clients run
}

// cpuPerDeal is the server's and the clients' CPU per deal.
func (s *drives) cpuPerDeal() (server, client time.Duration) {
	if s.n == 0 {
		return 0, 0
	}
	return s.server / time.Duration(s.n), s.client / time.Duration(s.n)
}

func (s *drives) add(n int, elapsed time.Duration, lat []time.Duration) {
	s.n, s.elapsed, s.lat = s.n+n, s.elapsed+elapsed, append(s.lat, lat...)
}

func (s *drives) rate() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(s.n) / s.elapsed.Seconds()
}

// poster is one client of a write measure: it posts its next deal and
// says how long the answer took.
type poster interface {
	next() (time.Duration, error)
}

// drive runs every poster at once for d, each waiting for its answer
// before it posts again, and adds the slice up.
func (s *drives) drive(ctx context.Context, posters []poster, d time.Duration, srv *server) error {
	server0, client0 := srv.cpu(), processCPU()
	defer func() { s.server, s.client = s.server+srv.cpu()-server0, s.client+processCPU()-client0 }()
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for _, p := range posters {
		wg.Go(func() {
			var mine []time.Duration
			for time.Since(start) < d && ctx.Err() == nil {
				l, err := p.next()
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				mine = append(mine, l)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	s.add(len(lat), time.Since(start), lat)
	return firstErr
}

// bareClient posts a deal's body to a ceiling handler (ceiling.go).
type bareClient struct {
	url    string
	client *http.Client
}

func newBareClients(url string, first, n int) []poster {
	out := make([]poster, n)
	for i := range out {
		u := url
		if strings.HasSuffix(u, "/") { // one path per client: /store/{table}
			u += strconv.Itoa(first + i)
		}
		out[i] = &bareClient{url: u, client: clientFrom(clientAddr(first+i, 0))}
	}
	return out
}

func (b *bareClient) next() (time.Duration, error) {
	t0 := time.Now()
	err := post(b.client, b.url, dealBodies[0], nil)
	return time.Since(t0), err
}

func posters(ts []*table) []poster {
	out := make([]poster, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}
