package failover

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

// writer records deals in one game through one server, one at a time, as
// a phone does: a deal that got no answer, or a 503, is sent again with
// the same Idempotency-Key until it is acknowledged.
type writer struct {
	n    int
	srv  *clitest.Server
	game string

	mu      sync.Mutex
	acked   []request   // acknowledged, in order
	sentAt  []time.Time // when the send that was acknowledged began
	ackedAt []time.Time
	pending *request
	// unanswered and unavailable count sends without an answer and
	// answered 503 (with Retry-After); failures are wrong answers.
	unanswered, unavailable int
	failures                []string
	last                    string
}

func (w *writer) next() request {
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	n := len(w.acked)
	body := `{"contract":"pass"}`
	if n%3 != 2 {
		body = fmt.Sprintf(`{"contract":"solo","declarer":%q,"points":%d,"tricks":5}`, players[n%4], 40+n%40)
	}
	return request{key: fmt.Sprintf("writer%d-deal%d", w.n, n), body: body}
}

// deliver sends the pending deal (a new one if none is) once, and says
// whether it was acknowledged.
func (w *writer) deliver() bool {
	w.mu.Lock()
	if w.pending == nil {
		r := w.next()
		w.pending = &r
	}
	p, want := *w.pending, len(w.acked)+1
	w.mu.Unlock()
	start := time.Now()
	a, err := sendAnswer(w.srv.Base+"/api/games/"+w.game+"/hands", p.key, p.body)
	w.mu.Lock()
	defer w.mu.Unlock()
	fail := func(format string, args ...any) {
		if len(w.failures) < 10 {
			w.failures = append(w.failures, fmt.Sprintf(format, args...))
		}
	}
	switch {
	case err != nil:
		w.unanswered++
		w.last = err.Error()
		return false
	case a.status == http.StatusServiceUnavailable:
		w.unavailable++
		w.last = fmt.Sprintf("503 %s", a.body)
		if a.retryAfter == "" {
			fail("%s: 503 without Retry-After: %s", p.key, a.body)
		}
		return false
	case a.status == http.StatusCreated:
		var h struct{ Hand int }
		if err := json.Unmarshal(a.body, &h); err != nil || h.Hand != want {
			fail("%s: acknowledged as %s, want deal %d", p.key, a.body, want)
		}
		w.acked = append(w.acked, p)
		w.sentAt = append(w.sentAt, start)
		w.ackedAt = append(w.ackedAt, time.Now())
		w.pending = nil
		w.last = "201"
		return true
	}
	w.last = fmt.Sprintf("%d %s", a.status, a.body)
	fail("%s: answered %d: %s", p.key, a.status, a.body)
	return false
}

func (w *writer) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.acked)
}

func (w *writer) lastAnswer() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// ackedSince gives when the deals sent after since were acknowledged.
func (w *writer) ackedSince(since time.Time) []time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	var at []time.Time
	for i, s := range w.sentAt {
		if s.After(since) {
			at = append(at, w.ackedAt[i])
		}
	}
	return at
}

// runWriters runs every writer until stop is closed, each trying again
// 200 ms after a send that was not acknowledged.
func runWriters(writers []*writer, stop chan struct{}) {
	var wg sync.WaitGroup
	for _, w := range writers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if !w.deliver() {
					time.Sleep(200 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
}

type answer struct {
	status     int
	body       []byte
	retryAfter string
}

// sendAnswer posts a JSON body, with an Idempotency-Key if one is given.
func sendAnswer(url, key, body string) (answer, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, body: b, retryAfter: res.Header.Get("Retry-After")}, err
}

func send(url, key, body string) (int, []byte, error) {
	a, err := sendAnswer(url, key, body)
	return a.status, a.body, err
}

// liveStream reads a game's live stream (server-sent events) as a page
// does, keeping each version it delivers and when.
type liveStream struct {
	base int64 // the version it delivered on connecting
	body io.ReadCloser

	mu       sync.Mutex
	versions []int64
	at       []time.Time
	err      error // why the stream ended
}

func followLive(t *testing.T, base, game string) *liveStream {
	t.Helper()
	res, err := http.Get(base + "/g/" + game + "/live")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("follow %s: %v %v", game, res, err)
	}
	s := &liveStream{body: res.Body}
	events := make(chan int64, 1)
	go s.read(bufio.NewReader(res.Body), events)
	select {
	case s.base = <-events:
	case <-time.After(10 * time.Second):
		t.Fatalf("the live stream of %s sent no version", game)
	}
	return s
}

// read parses events ("id: V\ndata: V" for a version, "event: ping" for
// the heartbeat) until the stream ends.
func (s *liveStream) read(r *bufio.Reader, first chan int64) {
	var data string
	ping := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			return
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "event: ping":
			ping = true
		case line == "":
			if v, err := strconv.ParseInt(data, 10, 64); err == nil && !ping {
				s.mu.Lock()
				s.versions = append(s.versions, v)
				s.at = append(s.at, time.Now())
				s.mu.Unlock()
				select {
				case first <- v:
				default:
				}
			}
			data, ping = "", false
		}
	}
}

// waitVersion waits until the stream has delivered version v or a later
// one, and gives when it arrived.
func (s *liveStream) waitVersion(t *testing.T, v int64) time.Time {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for i, got := range s.versions {
			if got >= v {
				at := s.at[i]
				s.mu.Unlock()
				return at
			}
		}
		err := s.err
		s.mu.Unlock()
		if err != nil {
			t.Fatalf("the live stream ended (%v) before version %d", err, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("the live stream did not deliver version %d within two minutes (it delivered %v)", v, s.versions)
	return time.Time{}
}

// last is the latest version the stream delivered.
func (s *liveStream) last() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.versions[len(s.versions)-1]
}

func (s *liveStream) close() { s.body.Close() }
