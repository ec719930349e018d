package netserve

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serveOn starts a server with the limits on a loopback port.
func serveOn(t *testing.T, h http.Handler, l Limits, answer bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(h, l)
	go func() { _ = srv.Serve(LimitListener(ln, l.MaxConnsPerClient, answer)) }()
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reads a connection to its end; false when the server still
// holds it open after guard (then the test fails: it must cut it off).
func closedWithin(c net.Conn, guard time.Duration) (string, bool) {
	_ = c.SetReadDeadline(time.Now().Add(guard))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return string(b), false
	}
	return string(b), true
}

func short() Limits {
	l := DefaultLimits()
	l.ReadTimeout, l.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
	return l
}

// A client that sends its headers and then no body is cut off by the read
// deadline, instead of holding a connection and a goroutine for ever.
func TestSlowBodyIsCutOff(t *testing.T) {
	addr := serveOn(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "the request body could not be read", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}), short(), true)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	got, closed := closedWithin(c, 20*time.Second)
	if !closed {
		t.Fatal("a client that sends no body is still connected after 20 s; the read deadline is 300 ms")
	}
	if strings.Contains(got, "204") {
		t.Fatalf("the request was answered as complete: %q", got)
	}
}

// One address cannot hold more than the cap of connections: the next is
// answered 429 and closed; once one closes, a new one is served.
func TestConnectionCapPerClient(t *testing.T) {
	l := short()
	l.ReadTimeout, l.ReadHeaderTimeout, l.MaxConnsPerClient = time.Minute, time.Minute, 3
	addr := serveOn(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello")
	}), l, true)
	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	// The held connections are accepted one after the other; the fourth,
	// dialled after them, finds the cap full.
	over, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	got, closed := closedWithin(over, 20*time.Second)
	over.Close()
	if !closed || !strings.HasPrefix(got, "HTTP/1.1 429 ") || !strings.Contains(got, "Too many connections") {
		t.Fatalf("the fourth connection: closed %v, answered %q", closed, got)
	}
	// api.md: every 4xx has a JSON body {"error": "…"}.
	res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(got)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Error string }
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || !strings.Contains(body.Error, "Zu viele Verbindungen") ||
		res.Header.Get("Content-Type") != "application/json; charset=utf-8" || res.ContentLength != int64(len(got)-strings.Index(got, "\r\n\r\n")-4) {
		t.Fatalf("the 429's body: %v %+v %s", err, body, res.Header)
	}
	held[0].Close()
	held = held[1:]
	for i := 0; ; i++ {
		res, err := get(addr)
		if err == nil && res == "hello" {
			break
		}
		if i == 200 {
			t.Fatalf("after one connection closed, a new one is still refused: %q %v", res, err)
		}
		time.Sleep(20 * time.Millisecond) // the server notices the close
	}
}

func get(addr string) (string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		return "", err
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

// A cap of 0 is none: behind a reverse proxy every connection comes from
// the proxy's one address, and the 33rd phone following a game through it
// must still be served.
func TestNoConnectionCapBehindAProxy(t *testing.T) {
	l := short()
	l.ReadTimeout, l.ReadHeaderTimeout, l.MaxConnsPerClient = time.Minute, time.Minute, 0
	addr := serveOn(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello")
	}), l, true)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range DefaultLimits().MaxConnsPerClient + 8 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	if res, err := get(addr); err != nil || res != "hello" {
		t.Fatalf("with %d connections open from one address and no cap: %q %v", len(held), res, err)
	}
}
