package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// dealsRecorded reads, by the API, each deal's contract and declarer.
func dealsRecorded(t *testing.T, srv *tableServer, id string) []string {
	t.Helper()
	res, err := http.Get("http://" + srv.addr + "/api/games/" + id + "/hands")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var hands []struct {
		Hand   int
		Record struct{ Contract, Declarer string }
	}
	if err := jsonDecode(res.Body, &hands); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hands {
		out = append(out, h.Record.Contract+" "+h.Record.Declarer)
	}
	return out
}

// formsKept waits until the page has fetched the forms it keeps for
// recording without the server.
func formsKept(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "keep the forms", chromedp.Poll[chromedp.Void](
		`Object.keys(sessionStorage).some(function (k) { return k.indexOf("tappbook.forms:") === 0; })`,
		chromedp.WithPollingInterval(100*time.Millisecond)))
}

func text(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	return value(t, ctx, js, chromedp.Evaluate[string](js))
}

// With the server out of reach, the phone goes on recording: while a deal
// waits it offers the next deal's form, each contract's form comes from
// what it kept, and when the server is back the deals arrive once each, in
// order. A deal refused on arrival holds back the ones recorded after it
// until it is corrected and saved.
func TestBrowserSeveralDealsWhileTheServerIsAway(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "phone", asPhone("light"))
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "coeurfrage", taps: []string{tap("declarer", "Ben")}, typed: [][2]string{{"#points", "73"}}})

	// Deal 2 is typed in; the server goes away; it is saved.
	run(t, ctx, "type deal 2",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	formsKept(t, ctx)
	run(t, ctx, "type deal 2",
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Cleo"))), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "45"))
	srv.stop()
	run(t, ctx, "save deal 2 with the server down",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	// What was typed stays on the page (#12) beside the offer.
	if pts := text(t, ctx, `document.getElementById("points").value`); pts != "45" {
		t.Fatalf("the points typed are gone: %q", pts)
	}
	if offer := text(t, ctx, `document.getElementById("next-deal").textContent`); offer != "Record deal 3 meanwhile" {
		t.Fatalf("the offer reads %q", offer)
	}
	shot(t, ctx, "offer-next")

	// Deal 3, without the server: its form, then another contract's.
	run(t, ctx, "deal 3's form", chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	if h1, status := text(t, ctx, `document.querySelector("h1").textContent`), text(t, ctx, `document.querySelector("p.status").textContent`); h1 != "Record deal 3" || status != "Cleo deals · Anna is forehand" {
		t.Fatalf("the next deal's form says %q, %q", h1, status)
	}
	run(t, ctx, "record deal 3",
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=coeurfrage"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	if hand, btn := text(t, ctx, `document.querySelector("input[name=expected_hand]").value`), text(t, ctx, `document.querySelector("form.deal button[type=submit]").textContent`); hand != "3" || btn != "Record deal 3" {
		t.Fatalf("deal 3's form is for deal %s, its button says %q", hand, btn)
	}
	run(t, ctx, "record deal 3",
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.SendKeys(chromedp.CSS(`#points`), "80"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	run(t, ctx, "record deal 4",
		chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=pass"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	if banner, queued := waitingDeals(t, ctx); banner != "3 deals waiting to be sent" || queued != 3 {
		t.Fatalf("with three deals recorded the page says %q and keeps %d posts", banner, queued)
	}

	// The server is back: the three arrive, in order, once each.
	srv.start()
	run(t, ctx, "the deals arrive", chromedp.WaitVisible(chromedp.ID(`hand-4`)))
	if banner, queued := waitingDeals(t, ctx); banner != "" || queued != 0 {
		t.Fatalf("after sending, the page says %q and keeps %d posts", banner, queued)
	}
	want := []string{"coeurfrage Ben", "solo Cleo", "coeurfrage Ben", "pass "}
	if got := dealsRecorded(t, srv, id); len(got) != len(want) || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("deals recorded %q, want %q", got, want)
	}
	t.Logf("server down: deals 2, 3 and 4 recorded on the phone, arrived once each, in order")

	// Deal 5 is refused when it arrives (150 card points of 120); deal 6,
	// recorded after it, waits for it.
	run(t, ctx, "type deal 5",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Anna"))), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "150"))
	srv.stop()
	run(t, ctx, "save deal 5 and 6 with the server down",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)),
		chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=pass"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	srv.start()
	run(t, ctx, "deal 5 is refused", chromedp.WaitVisible(chromedp.CSS(`.error[role=alert]`)))
	if h1 := text(t, ctx, `document.querySelector("h1").textContent`); h1 != "Record deal 5" {
		t.Fatalf("the refusal shows %q", h1)
	}
	if banner, queued := waitingDeals(t, ctx); banner != "1 deal waiting to be sent" || queued != 1 {
		t.Fatalf("with deal 5 refused the page says %q and keeps %d posts", banner, queued)
	}
	if why := text(t, ctx, `document.querySelector("#queue .why").textContent`); why != "An earlier deal was refused: what waits here is sent once that deal is saved." {
		t.Fatalf("the banner says why: %q", why)
	}
	time.Sleep(1500 * time.Millisecond) // a queue that went on would send deal 6 now
	if n := srv.hands(t, id); n != 4 {
		t.Fatalf("%v deals while deal 5 is refused, want 4: deal 6 went ahead of it", n)
	}
	run(t, ctx, "correct deal 5",
		chromedp.Clear(chromedp.CSS(`#points`)), chromedp.SendKeys(chromedp.CSS(`#points`), "70"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`hand-6`)))
	if banner, queued := waitingDeals(t, ctx); banner != "" || queued != 0 {
		t.Fatalf("after sending, the page says %q and keeps %d posts", banner, queued)
	}
	got := dealsRecorded(t, srv, id)
	if len(got) != 6 || got[4] != "solo Anna" || got[5] != "pass " {
		t.Fatalf("deals recorded %q: want deal 5 solo Anna, deal 6 pass", got)
	}

	// Deal 7 refused again, deal 8 held; this time another phone records
	// deal 7. Opening the record page (deal 8's now) lets deal 8 go.
	run(t, ctx, "type deal 7",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "150"))
	srv.stop()
	run(t, ctx, "save deals 7 and 8 with the server down",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)),
		chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=pass"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	srv.start()
	run(t, ctx, "deal 7 is refused", chromedp.WaitVisible(chromedp.CSS(`.error[role=alert]`)))
	res, err := http.Post("http://"+srv.addr+"/api/games/"+id+"/hands", "application/json",
		strings.NewReader(`{"contract":"solo","declarer":"Ben","trump":"clubs","points":70}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("another phone records deal 7: %v %v", err, res)
	}
	res.Body.Close()
	run(t, ctx, "open deal 8's form", chromedp.Navigate(base+"/g/"+id+"/record"), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	run(t, ctx, "deal 8 goes", chromedp.Poll[chromedp.Void](`(JSON.parse(localStorage.getItem("tappbook.waiting"))||[]).length === 0`,
		chromedp.WithPollingInterval(100*time.Millisecond)))
	if got := dealsRecorded(t, srv, id); len(got) != 8 || got[6] != "solo Ben" || got[7] != "pass " {
		t.Fatalf("deals recorded %q: want deal 7 solo Ben (the other phone's), deal 8 pass", got)
	}
}
