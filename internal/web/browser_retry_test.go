package web

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A server that asks to be left alone for a while (Retry-After, as a
// store stopped for its operator does) is not asked again sooner: the
// deal waits on the phone that long, then arrives.
func TestBrowserDealWaitsAsTheServerAsks(t *testing.T) {
	var mu sync.Mutex
	var tries []time.Time
	srv, ctx, id := dealFormBehind(t, "en", func(w http.ResponseWriter) bool {
		mu.Lock()
		defer mu.Unlock()
		tries = append(tries, time.Now())
		if len(tries) == 1 {
			w.Header().Set("Retry-After", "4")
			http.Error(w, "the store stopped writing", http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	run(t, ctx, "save", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("queue")))
	run(t, ctx, "the deal arrives", chromedp.WaitVisible(chromedp.ID(`hand-1`)))
	mu.Lock()
	defer mu.Unlock()
	if len(tries) != 2 {
		t.Fatalf("the deal was sent %d times, want twice", len(tries))
	}
	if gap := tries[1].Sub(tries[0]); gap < 3500*time.Millisecond {
		t.Fatalf("sent again %v after a 503 with Retry-After: 4", gap)
	}
	if n := srv.hands(t, id); n != 1 {
		t.Fatalf("%v deals, want 1", n)
	}
}
