package web

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A phone following the table whose fetch of the changed page is lost
// (the home Wi-Fi drops it) says the table is not up to date and fetches
// it again until it has it. It kept the old standings, with no word of
// it, until the next deal.
func TestBrowserFollowerCatchesUpAfterALostFetch(t *testing.T) {
	h := newServerF(t)
	var drop atomic.Int32
	base, _ := lanServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("X-Requested-With") == "fetch" && drop.Add(-1) >= 0 {
			http.Error(w, "lost on the way", http.StatusBadGateway)
			return
		}
		h.ServeHTTP(w, r)
	}))
	id := createGame(t, h, zugerGame)
	ctx := browser(t, lanNames)
	run(t, ctx, "follow the table", asPhone("light"), chromedp.Navigate(base+"/g/"+id+"?lang=en"), chromedp.WaitVisible(chromedp.ID("live")))
	drop.Store(1)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`), http.StatusCreated)
	run(t, ctx, "the table says it is not up to date", chromedp.WaitVisible(chromedp.ID("stale")))
	run(t, ctx, "and catches up", chromedp.WaitVisible(chromedp.ID("hand-1")), chromedp.WaitNotVisible(chromedp.ID("stale")))
	if n := drop.Load(); n >= 0 {
		t.Fatalf("the lost fetch was not tried again (%d left to drop)", n)
	}
}

// A live stream the network leaves hanging (open, but nothing arrives: no
// change, no ping) is noticed after three pings' time: the table says it
// is not live and connects again, and says so until a stream brings
// something again, then shows what was recorded meanwhile. A hanging
// stream was never noticed: the browser sees no error.
func TestBrowserHangingStreamIsNoticed(t *testing.T) {
	h := newServerWith(t, Options{Heartbeat: 300 * time.Millisecond})
	var streams atomic.Int32
	base, _ := lanServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/live") {
			h.ServeHTTP(w, r)
			return
		}
		n := streams.Add(1)
		if n > 3 {
			h.ServeHTTP(w, r)
			return
		}
		// The first stream says how often it pings, then nothing more; the
		// next two bring nothing at all.
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		if n == 1 {
			fmt.Fprint(w, "retry: 1000\n\nevent: ping\ndata: 300\n\n")
		}
		_ = http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}))
	id := createGame(t, h, zugerGame)
	ctx := browser(t, lanNames)
	run(t, ctx, "follow the table", asPhone("light"), chromedp.Navigate(base+"/g/"+id+"?lang=de"), chromedp.WaitVisible(chromedp.ID("live")))
	run(t, ctx, "the hanging stream is noticed", chromedp.WaitVisible(chromedp.ID("stale")))
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`), http.StatusCreated)
	run(t, ctx, "connected again, with the deal", chromedp.WaitVisible(chromedp.ID("hand-1")), chromedp.WaitNotVisible(chromedp.ID("stale")))
	if n := streams.Load(); n < 4 {
		t.Fatalf("%d streams: the page did not connect again", n)
	}
}
