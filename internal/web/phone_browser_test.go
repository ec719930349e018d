package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Phones as witnesses (#14.4): a phone follows an evening and keeps the
// last version and head hash it was shown. Behind the server's back the
// history is cut (the last events deleted with the triggers dropped, the
// head row mended, so that the chain is whole again) or changed (cut, and
// another deal recorded in its place); the server is started again. The
// phone reloads and says so, in words.
func TestBrowserPhoneIsAWitness(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	solo := deal{contract: "solo", taps: []string{tap("declarer", "Ben"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}}

	cut := startEvening(t, ctx, base, "zuger", four)
	for n := 1; n <= 3; n++ {
		recordDeal(t, ctx, n, solo)
	}
	seen := value(t, ctx, "read what the phone keeps", chromedp.Evaluate[string](`localStorage.getItem("tappbook.seen:/g/`+cut+`")`))
	if !strings.Contains(seen, `"v":4`) {
		t.Fatalf("after deal 3 the phone keeps %s, want version 4 (the start and 3 deals)", seen)
	}
	changed := startEvening(t, ctx, base, "zuger", four)
	for n := 1; n <= 2; n++ {
		recordDeal(t, ctx, n, solo)
	}
	if banner := value(t, ctx, "the banner while the history holds", chromedp.Evaluate[bool](`document.getElementById("witness").hidden`)); !banner {
		t.Fatal("the witness banner shows while the history holds")
	}

	srv.stop()
	cutTail(t, srv.db, cut, 2)
	cutTail(t, srv.db, changed, 2)
	srv.start()
	// The changed evening: another deal 2 in place of the one the phone saw.
	res, err := http.Post("http://"+srv.addr+"/api/games/"+changed+"/hands", "application/json",
		strings.NewReader(`{"contract":"vice","declarer":"Dan","points":90,"tricks":6}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("record the other deal 2: %v %v", res, err)
	}
	res.Body.Close()

	for _, c := range []struct{ id, lang, says string }{
		{cut, "en", "up to event 4, but the server's history now ends at event 2: it was cut"},
		{cut, "de", "bis Ereignis 4 gesehen, aber der Verlauf auf dem Server endet jetzt bei Ereignis 2: Er wurde gekürzt"},
		{changed, "en", "event 3 is not the one this phone saw"},
		{changed, "sv", "händelse 3 är inte den som den här telefonen såg"},
	} {
		run(t, ctx, "reload "+c.id, chromedp.Navigate(base+"/g/"+c.id+"?lang="+c.lang), chromedp.WaitVisible(chromedp.ID(`witness`)))
		says := value(t, ctx, "read the banner", chromedp.Text(chromedp.ID(`witness`)))
		if !strings.Contains(says, c.says) {
			shot(t, ctx, "witness-"+c.lang)
			t.Fatalf("the phone says %q, want %q", says, c.says)
		}
		t.Logf("%s: %s", c.lang, says)
	}
	// A phone that never saw the evening before has nothing to say.
	fresh := browser(t, lanNames)
	run(t, fresh, "another phone", chromedp.Navigate(base+"/g/"+cut), chromedp.WaitVisible(chromedp.ID(`live`)))
	// It keeps what it is shown now, with nothing to ask the server.
	kept := value(t, fresh, "what it keeps", chromedp.Evaluate[string](`localStorage.getItem("tappbook.seen:/g/`+cut+`")`))
	if hidden := value(t, fresh, "its banner", chromedp.Evaluate[bool](`document.getElementById("witness").hidden`)); !hidden || !strings.Contains(kept, `"v":2`) {
		t.Fatalf("a phone that saw nothing before: banner hidden %v, keeps %s", hidden, kept)
	}
}

// A phone goes from page to page of an evening many times; each page
// follows the game with a live stream. A page left behind lets its stream
// go: a browser keeps at most six connections to one server over HTTP/1.1,
// and the seventh page once waited a minute for one of them.
func TestBrowserManyPagesDoNotStall(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	id := createGame(t, h, zugerGame)
	ctx := browser(t, lanNames)
	for i := range 10 {
		run(t, ctx, "open the table again", chromedp.Navigate(base+"/g/"+id+"?all="+string(rune('a'+i))), chromedp.WaitVisible(chromedp.ID(`live`)))
	}
	run(t, ctx, "open the record form", chromedp.Navigate(base+"/g/"+id+"/record"), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
}
