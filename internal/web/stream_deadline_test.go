package web

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/netserve"
)

// A live stream outlives the server's write deadline, which cuts off a
// client that will not take its answer: it gets a heartbeat, and the next
// change still arrives.
func TestLiveStreamOutlivesWriteDeadline(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)), Options{Heartbeat: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	limits := netserve.DefaultLimits()
	limits.WriteTimeout = 300 * time.Millisecond
	srv := netserve.NewServer(h, limits)
	srv.RegisterOnShutdown(h.CloseStreams)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()

	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	res, err := http.Get(base + "/g/" + id + "/live")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	start := time.Now()
	pings := 0
	// Read past four write deadlines.
	for time.Since(start) < 4*limits.WriteTimeout {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended after %v, %d heartbeats: cut by the write deadline", time.Since(start), pings)
			}
			if l == "event: ping" {
				pings++
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no line for 10 s")
		}
	}
	if pings < 2 {
		t.Fatalf("%d heartbeats in %v", pings, time.Since(start))
	}
	form(t, h, "/g/"+id+"/record", url.Values{"contract": {"pass"}})
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the stream ended before the change")
			}
			if strings.HasPrefix(l, "id: ") { // a change (a ping has no id)
				if l != "id: 2" {
					t.Fatalf("after a deal: %q", l)
				}
				t.Logf("%d heartbeats over %v (write deadline %v), then the change", pings, time.Since(start), limits.WriteTimeout)
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the change did not arrive")
		}
	}
}
