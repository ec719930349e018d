package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// dealsRecorded reads, by the API, each deal's contract, declarer and
// partner, as words.
func dealsRecorded(t *testing.T, srv *tableServer, id string) []string {
	t.Helper()
	res, err := http.Get("http://" + srv.addr + "/api/games/" + id + "/hands")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var hands []struct {
		Hand   int
		Record struct{ Contract, Declarer, Partner string }
	}
	if err := jsonDecode(res.Body, &hands); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hands {
		out = append(out, strings.Join(strings.Fields(h.Record.Contract+" "+h.Record.Declarer+" "+h.Record.Partner), " "))
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
// order. The deals recorded after one refused on arrival are kept as the
// drafts of their forms, to be checked and saved.
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
	want := []string{"coeurfrage Ben", "solo Cleo", "coeurfrage Ben", "pass"}
	if got := dealsRecorded(t, srv, id); len(got) != len(want) || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("deals recorded %q, want %q", got, want)
	}
	t.Logf("server down: deals 2, 3 and 4 recorded on the phone, arrived once each, in order")

	// Deal 5 is refused when it arrives (70 card points in no trick: a
	// check the phone leaves to the server, unlike points no cards make,
	// which the form does not let go). Deal 6,
	// recorded after it, is not sent (it would be deal 5 now) but kept as
	// the draft of deal 6's form.
	run(t, ctx, "type deal 5",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Anna"))), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "70"), chromedp.Click(chromedp.CSS(tap("tricks", "0"))))
	srv.stop()
	run(t, ctx, "save deal 5 and 6 with the server down",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)),
		chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Cleo"))), chromedp.Click(chromedp.CSS(tap("trump", "spades"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "66"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	srv.start()
	run(t, ctx, "deal 5 is refused", chromedp.WaitVisible(chromedp.CSS(`.error[role=alert]`)))
	if h1 := text(t, ctx, `document.querySelector("h1").textContent`); h1 != "Record deal 5" {
		t.Fatalf("the refusal shows %q", h1)
	}
	if kept := text(t, ctx, `document.querySelector("#main p.kept").textContent`); kept != "Deal 6, recorded after it on this phone, was not sent: it opens filled in when you record it, to check and save." {
		t.Fatalf("under the refusal: %q", kept)
	}
	time.Sleep(1500 * time.Millisecond) // a queue that went on would send deal 6 now
	if banner, queued := waitingDeals(t, ctx); banner != "" || queued != 0 {
		t.Fatalf("with deal 5 refused the page says %q and keeps %d posts", banner, queued)
	}
	if n := srv.hands(t, id); n != 4 {
		t.Fatalf("%v deals while deal 5 is refused, want 4: deal 6 went ahead of it", n)
	}
	run(t, ctx, "correct deal 5",
		chromedp.Click(chromedp.CSS(tap("tricks", "6"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`hand-5`)))
	// Deal 6's form opens as it was typed.
	run(t, ctx, "deal 6's form", chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	if h1, pts, who := text(t, ctx, `document.querySelector("h1").textContent`), text(t, ctx, `document.getElementById("points").value`),
		text(t, ctx, `(document.querySelector("input[name=declarer]:checked")||{}).value||""`); h1 != "Record deal 6" || pts != "66" || who != "Cleo" {
		t.Fatalf("deal 6's form: %q, points %q, declarer %q; want deal 6 as typed offline (66, Cleo)", h1, pts, who)
	}
	if said := text(t, ctx, `(document.querySelector("#main p.kept-draft")||{}).textContent||""`); said != "Filled in with deal 6 as recorded on this phone while the server was away: check it, then save." {
		t.Fatalf("deal 6's form says %q", said)
	}
	run(t, ctx, "save deal 6", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-6`)))
	got := dealsRecorded(t, srv, id)
	if len(got) != 6 || got[4] != "solo Anna" || got[5] != "solo Cleo" {
		t.Fatalf("deals recorded %q: want deal 5 solo Anna, deal 6 solo Cleo", got)
	}
}

// The laptop goes to sleep with the phone's Wi-Fi still up, before any save
// has failed: a contract tapped is shown from the kept forms (not the
// browser's error page), tout on and off keeps the points typed, as online,
// and a page loaded again once the server is back goes to the table when
// its waiting deal arrives.
func TestBrowserKeptFormsBeforeASaveFails(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "phone", asPhone("light"))
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "pass"})
	run(t, ctx, "open deal 2", chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	formsKept(t, ctx)
	// A tap within 3 s of the server's last answer goes on without asking
	// it again (a round trip on a weak Wi-Fi): the laptop sleeps later.
	time.Sleep(3 * time.Second)
	srv.stop()
	run(t, ctx, "tap solo with the server gone",
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitReady(chromedp.CSS(`form.deal input[name=contract][value=solo]`)))
	if h1 := text(t, ctx, `document.querySelector("h1").textContent`); h1 != "Record deal 2" {
		t.Fatalf("solo's form from the kept ones says %q", h1)
	}
	run(t, ctx, "type deal 2",
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("trump", "spades"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "50"),
		chromedp.Click(chromedp.CSS(`input[name=tout]`)), chromedp.WaitVisible(chromedp.CSS(`input[name=tout]:checked`)),
		chromedp.Click(chromedp.CSS(`input[name=tout]`)), chromedp.WaitVisible(chromedp.CSS(`input[name=tout]:not(:checked)`)))
	if pts, focus := text(t, ctx, `document.getElementById("points").value`), text(t, ctx, `document.activeElement.name||document.activeElement.tagName`); pts != "50" || focus != "tout" {
		t.Fatalf("after tout on and off: points %q, focus on %q; want 50, on tout", pts, focus)
	}
	run(t, ctx, "save deal 2", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`next-deal`)))

	// The server is back; the page is loaded again before the queue's next
	// try: the deal arrives, and the page goes to the table.
	srv.start()
	run(t, ctx, "load the page again", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID(`hand-2`)))
	if got := dealsRecorded(t, srv, id); len(got) != 2 || got[1] != "solo Ben" {
		t.Fatalf("deals recorded %q, want deal 2 solo Ben", got)
	}

	// Deal 3 waits; the record page opened meanwhile (once the server is
	// back, before the queue's next try) is deal 3's again: when deal 3
	// arrives it goes to the table, not left open for deal 3 twice.
	run(t, ctx, "type deal 3",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=pass"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	srv.stop()
	run(t, ctx, "save deal 3", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`queue`)))
	time.Sleep(3500 * time.Millisecond) // the queue's tries draw apart: 1 s, 2 s, 4 s
	srv.start()
	run(t, ctx, "open the record page", chromedp.Navigate(base+"/g/"+id+"/record"), chromedp.WaitVisible(chromedp.ID(`hand-3`)))
	if n := srv.hands(t, id); n != 3 {
		t.Fatalf("%v deals, want 3", n)
	}
}

// The laptop goes to sleep while the phone shows the table, as after every
// save: Record opens the next deal's form from the forms the phone kept
// (the record page fetches them, and so does the table), and the deal
// waits and arrives once.
func TestBrowserRecordFromTheTableWithTheServerGone(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "phone", asPhone("light"))
	id := startEvening(t, ctx, base, "matzlfangen", []string{"Anna", "Ben", "Cleo", "Dan"})
	recordDeal(t, ctx, 1, deal{contract: "rufen", taps: []string{tap("partner", "Dan"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}})
	formsKept(t, ctx)
	time.Sleep(3 * time.Second) // the server's last answer a while ago: Record asks it
	srv.stop()
	run(t, ctx, "record deal 2 from the table",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	if h1, status := text(t, ctx, `document.querySelector("h1").textContent`), text(t, ctx, `document.querySelector("p.status").textContent`); h1 != "Record deal 2" || status != "Ben deals · Cleo is forehand" {
		t.Fatalf("deal 2's form from the table says %q, %q", h1, status)
	}
	// Rufen: Cleo, forehand, calls; her partner is one of the others.
	run(t, ctx, "record deal 2",
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=rufen"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	if n := value(t, ctx, "count partners", chromedp.Evaluate[int](`document.querySelectorAll("input[name=partner][value=Cleo]").length`)); n != 0 {
		t.Fatal("deal 2's rufen form offers Cleo, the forehand who calls, as her own partner")
	}
	run(t, ctx, "record deal 2",
		chromedp.Click(chromedp.CSS(tap("partner", "Anna"))), chromedp.SendKeys(chromedp.CSS(`#points`), "64"),
		chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	srv.start()
	run(t, ctx, "deal 2 arrives", chromedp.WaitVisible(chromedp.ID(`hand-2`)))
	if got := dealsRecorded(t, srv, id); len(got) != 2 || got[1] != "rufen Anna" {
		t.Fatalf("deals recorded %q; want deal 2 rufen with Anna", got)
	}

	// The table gives way to a form made without the server: its live
	// stream goes with it. Followed still, it would hear of the next deal
	// once the server is back and fetch the form's address for a table
	// that is not there, saying "not updating" over the form.
	time.Sleep(3 * time.Second) // the server's last answer a while ago: Record asks it
	srv.stop()
	run(t, ctx, "Record deal 3 without the server", chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	srv.start()
	res, err := http.Post("http://"+srv.addr+"/api/games/"+id+"/hands", "application/json",
		strings.NewReader(`{"contract":"rufen","partner":"Ben","points":70,"tricks":5}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("another phone records deal 3: %v %v", err, res)
	}
	res.Body.Close()
	time.Sleep(4 * time.Second) // a stream followed still would reconnect (1 s) and hear of deal 3
	if stale, h1 := value(t, ctx, "read the stale line", chromedp.Evaluate[bool](`!document.getElementById("stale").hidden`)),
		text(t, ctx, `document.querySelector("h1").textContent`); stale || h1 != "Record deal 3" {
		t.Fatalf("the form made from the table: not updating %v, heading %q", stale, h1)
	}
}

// Phone B records deals 2 and 3 without the server while phone A records
// deal 2: B's deal 2 comes back as the other phone's ("This is deal 3, not
// 2"), its deal 3 is kept as deal 3's draft, and the conflict form, which
// shows deal 2's values, neither overwrites nor drops it: Record deal 3
// opens deal 3 as B typed it.
func TestBrowserKeptDealOutlivesAnotherPhonesDeal(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	fwd := &forwarder{from: "127.0.0.2:" + srv.port(), to: srv.addr}
	fwd.up(t)
	t.Cleanup(fwd.down)
	base := "http://tapp.test:" + srv.port()
	b := browser(t, chromedp.Flag("host-resolver-rules", "MAP tapp.test 127.0.0.2"))
	run(t, b, "phone", asPhone("light"))
	id := startEvening(t, b, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, b, 1, deal{contract: "pass"})
	run(t, b, "type deal 2",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	formsKept(t, b)
	run(t, b, "type deal 2",
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "45"))
	fwd.down()
	run(t, b, "save deals 2, 3 and 4 without the server",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`next-deal`)),
		chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=coeurfrage"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Cleo"))), chromedp.SendKeys(chromedp.CSS(`#points`), "80"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`next-deal`)),
		chromedp.Click(chromedp.ID(`next-deal`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Anna"))), chromedp.Click(chromedp.CSS(tap("trump", "spades"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "66"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`next-deal`)))
	// Phone A records deal 2 meanwhile.
	res, err := http.Post("http://"+srv.addr+"/api/games/"+id+"/hands", "application/json", strings.NewReader(`{"contract":"solo","declarer":"Ben","trump":"clubs","points":45}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("phone A records deal 2: %v %v", err, res)
	}
	res.Body.Close()
	// The tab's storage is full of forms kept for other evenings: they
	// make way for the draft.
	if n := value(t, b, "fill the storage", chromedp.Evaluate[int](`(function () {
		var n = 0;
		[262144, 4096, 64, 1].forEach(function (size) {
			var fill = "x".repeat(size);
			try { for (;;) { sessionStorage.setItem("tappbook.forms:" + n, fill); n++; } } catch (e) {}
		});
		return n;
	})()`)); n == 0 {
		t.Fatal("the storage took nothing")
	}
	fwd.up(t)
	run(t, b, "phone B hears of the other deal", chromedp.WaitVisible(chromedp.CSS(`p.error`)))
	if msg := text(t, b, `document.querySelector("p.error").textContent`); !strings.Contains(msg, "This is deal 3, not 2") {
		t.Fatalf("phone B is told %q", msg)
	}
	if kept := text(t, b, `(document.querySelector("#main p.kept")||{}).textContent||""`); !strings.HasPrefix(kept, "Deals 3–4, recorded after it on this phone, were not sent") {
		t.Fatalf("the line about deals 3 and 4: %q", kept)
	}
	// A change on the conflict form (deal 2's values) is no change of
	// deal 3's draft, and saving it (the person's choice: deal 2's values
	// as deal 3) does not drop it: deal 3 as B typed it moves on to deal
	// 4's form, which says so.
	run(t, b, "save the conflict form as deal 3",
		chromedp.Click(chromedp.CSS(tap("trump", "spades"))),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-3`)),
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	if h1, contract, pts, who := text(t, b, `document.querySelector("h1").textContent`), text(t, b, `document.querySelector("input[name=contract]").value`),
		text(t, b, `document.getElementById("points").value`), text(t, b, `(document.querySelector("input[name=declarer]:checked")||{}).value||""`); h1 != "Record deal 4" || contract != "coeurfrage" || pts != "80" || who != "Cleo" {
		t.Fatalf("deal 4's form: %q %s %s points by %q; want deal 3 as phone B typed it (coeurfrage, 80, Cleo)", h1, contract, pts, who)
	}
	if said := text(t, b, `(document.querySelector("#main p.kept-draft")||{}).textContent||""`); said != "Filled in with deal 3 as recorded on this phone while the server was away: check it, then save." {
		t.Fatalf("deal 4's form says %q", said)
	}
	// Deal 4 as B typed it follows, on deal 5's form: in their order.
	run(t, b, "save deal 4 and open deal 5",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-4`)),
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	if h1, contract, pts, who := text(t, b, `document.querySelector("h1").textContent`), text(t, b, `document.querySelector("input[name=contract]").value`),
		text(t, b, `document.getElementById("points").value`), text(t, b, `(document.querySelector("input[name=declarer]:checked")||{}).value||""`); h1 != "Record deal 5" || contract != "solo" || pts != "66" || who != "Anna" {
		t.Fatalf("deal 5's form: %q %s %s points by %q; want deal 4 as phone B typed it (solo, 66, Anna)", h1, contract, pts, who)
	}
	if said := text(t, b, `(document.querySelector("#main p.kept-draft")||{}).textContent||""`); said != "Filled in with deal 4 as recorded on this phone while the server was away: check it, then save." {
		t.Fatalf("deal 5's form says %q", said)
	}
	if got := dealsRecorded(t, srv, id); len(got) != 4 || got[3] != "coeurfrage Cleo" {
		t.Fatalf("deals recorded %q", got)
	}
}

// A deal that waits to be sent is not offered again: with deal 2 waiting
// (saved in another tab of the phone), Record on the table, the server
// gone, opens deal 3's form.
func TestBrowserRecordSkipsTheDealThatWaits(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "phone", asPhone("light"))
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "pass"})
	formsKept(t, ctx)
	time.Sleep(3 * time.Second) // the server's last answer a while ago: Record asks it
	srv.stop()
	// As the other tab's queue keeps it (static/app.js queueForms).
	run(t, ctx, "deal 2 waits", chromedp.Evaluate[chromedp.Void](`localStorage.setItem("tappbook.waiting", JSON.stringify([{
		url: location.origin + "/g/`+id+`/record?contract=pass", page: location.origin + "/g/`+id+`/record?contract=pass", at: Date.now(),
		body: "contract=pass&expected_hand=2&idempotency_key=other-tab-2", key: "other-tab-2", draft: "", hand: 2 }]))`))
	run(t, ctx, "Record", chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)))
	if h1 := text(t, ctx, `document.querySelector("h1").textContent`); h1 != "Record deal 3" {
		t.Fatalf("Record with deal 2 waiting opens %q", h1)
	}
}
