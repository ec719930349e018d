package web

import (
	"net/http"
	"strings"
	"testing"
	"time"

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

// #15.2, #15.3, #15.6, #15.9 in the browser: another contract keeps what
// was tapped and typed (record and correct); "lost" shows the count of
// tricks and "won" hides it; a Ramsch shows the last player's count and who
// has the most points as they are typed; the kontra stepper is one row;
// undo and its way back are one tap each; the read-only link is shared in
// one tap (copied, where the phone has no share sheet).
func TestBrowserFormsAtTheTable(t *testing.T) {
	h := newServer(t)
	base, posts := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, zugerGame)
	checked := func(name string) string {
		return value(t, ctx, "read "+name, chromedp.Evaluate[string](`(document.querySelector('input[name=`+name+`]:checked')||{}).value||""`))
	}
	run(t, ctx, "tap super, Ben, 70, 5 tricks, then solo",
		chromedp.Navigate(base+"/g/"+z+"/record?contract=super&lang=en"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.SendKeys(chromedp.CSS(`#points`), "70"),
		chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`a.pick.selected[href="?contract=solo"]`)))
	if d, p, tr := checked("declarer"), value(t, ctx, "points", chromedp.Evaluate[string](`document.getElementById("points").value`)), checked("tricks"); d != "Ben" || p != "70" || tr != "5" {
		t.Fatalf("after choosing solo the form has declarer %q, points %q, tricks %q; want Ben, 70, 5", d, p, tr)
	}
	run(t, ctx, "save solo", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-1.fresh`)))

	// Undo and its way back, one tap each.
	run(t, ctx, "undo deal 1", chromedp.Click(chromedp.CSS(`form[action$="/hands/1/undo"] button`)), chromedp.WaitVisible(chromedp.CSS(`form[action$="/hands/1/redo"]`)))
	if u := pageUnits(t, ctx); u["Ben"] != "0" {
		t.Fatalf("after the undo Ben has %s", u["Ben"])
	}
	run(t, ctx, "bring deal 1 back", chromedp.Click(chromedp.CSS(`form[action$="/hands/1/redo"] button`)), chromedp.WaitVisible(chromedp.CSS(`form[action$="/hands/1/undo"]`)))
	if u := pageUnits(t, ctx); u["Ben"] != "6" {
		t.Fatalf("after the way back Ben has %s", u["Ben"])
	}

	// Correcting: another contract keeps the deal's record and what was tapped.
	run(t, ctx, "correct deal 1 as vice",
		chromedp.Navigate(base+"/g/"+z+"/hands/1"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Dan"))),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=vice"]`)), chromedp.WaitVisible(chromedp.CSS(`a.pick.selected[href="?contract=vice"]`)))
	if d, tr := checked("declarer"), checked("tricks"); d != "Dan" || tr != "5" {
		t.Fatalf("correcting as vice: declarer %q, tricks %q; want Dan (tapped) and 5 (the record's)", d, tr)
	}

	w := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"]}`)
	run(t, ctx, "a bettel, lost", chromedp.Navigate(base+"/g/"+w+"/record?contract=bettel"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("outcome", "lost"))), chromedp.WaitVisible(chromedp.CSS(`fieldset.when-lost`)),
		chromedp.Click(chromedp.CSS(tap("outcome", "won"))), chromedp.WaitNotVisible(chromedp.CSS(`fieldset.when-lost`)))
	run(t, ctx, "a Ramsch typed", chromedp.Navigate(base+"/g/"+w+"/record?contract=ramsch"), chromedp.WaitVisible(chromedp.CSS(`fieldset.ramsch`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_0]`), "50"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_0]`), "3"),
		chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_points_1]`), "40"), chromedp.SendKeys(chromedp.CSS(`input[name=ramsch_tricks_1]`), "3"),
		chromedp.Click(chromedp.CSS(`input[name=ramsch_none_3]`)), chromedp.WaitNotVisible(chromedp.CSS(`input[name=ramsch_points_3]`)))
	filled := value(t, ctx, "the last count", chromedp.Evaluate[[]string](`[document.querySelector('input[name=ramsch_points_2]').placeholder, document.querySelector('input[name=ramsch_tricks_2]').placeholder, document.querySelector('output.most').textContent]`))
	if filled[0] != "30" || filled[1] != "2" || filled[2] != "Most points: Anna" {
		t.Fatalf("Cleo's count and the most points show as %q; want 30, 2 and Anna", filled)
	}

	m := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	run(t, ctx, "the kontra stepper", chromedp.Navigate(base+"/g/"+m+"/record"), chromedp.WaitVisible(chromedp.CSS(`.stepper`)))
	tops := value(t, ctx, "its row", chromedp.Evaluate[[]float64](`[...document.querySelectorAll('.stepper > *')].map(e => e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)`))
	if len(tops) != 3 || tops[0] != tops[1] || tops[1] != tops[2] {
		t.Fatalf("the kontra stepper's −, levels and + are not one row: centres at %v", tops)
	}

	ro := do(t, h, "GET", "/api/games/"+z, "").json(t)["read_id"].(string)
	run(t, ctx, "share the read-only link", chromedp.Navigate(base+"/g/"+z+"/share"), chromedp.WaitVisible(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`)))
	label := value(t, ctx, "the button", chromedp.Text(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`)))
	if label != "Copy link" && label != "Share link" {
		t.Fatalf("the share button says %q", label)
	}
	if label == "Copy link" {
		run(t, ctx, "copy it", chromedp.Click(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`)))
		var said string
		for range 50 {
			if said = value(t, ctx, "the button", chromedp.Text(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`))); said == "Link copied" {
				break
			}
			run(t, ctx, "wait", chromedp.Sleep(20*time.Millisecond))
		}
		if said != "Link copied" {
			t.Fatalf("after the tap the button says %q", said)
		}
		// A browser that refuses to copy: the button says so, not nothing.
		run(t, ctx, "a copy refused", chromedp.Navigate(base+"/g/"+z+"/share"), chromedp.WaitVisible(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`)),
			js(`document.execCommand = function () { return false; }`),
			chromedp.Click(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`)))
		for range 50 {
			if said = value(t, ctx, "the button", chromedp.Text(chromedp.CSS(`button[data-share$="/r/`+ro+`"]`))); said != "Copy link" {
				break
			}
			run(t, ctx, "wait", chromedp.Sleep(20*time.Millisecond))
		}
		if said != "Could not copy: press and hold the link to copy it" {
			t.Fatalf("after a refused copy the button says %q", said)
		}
	}
	posts.check(t, base, "", 3)
}
