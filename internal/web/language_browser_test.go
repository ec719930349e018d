package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageHolds is what every form of the page shows, hidden fields left out.
const pageHolds = `[...document.querySelectorAll('#main form')].map(f => [...f.elements]
	.filter(e => e.name && !['hidden', 'submit', 'button'].includes(e.type) && (e.type === 'radio' || e.type === 'checkbox' ? e.checked : e.value !== ''))
	.map(e => e.name + '=' + e.value).join('&')).join(' | ')`

// switchTo taps language lang in the page's header and waits for the page
// in it, with what the script puts back.
func switchTo(lang string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Click(chromedp.CSS(`header nav.langs a[hreflang=`+lang+`]`)),
		loaded(`document.documentElement.lang === '`+lang+`' && document.getElementById('main') !== null`))
}

// Another language, chosen with a form half filled in, shows each form of
// the page as it was: a correction typed and a void's reason on a deal's
// page, a deal refused because another phone recorded it meanwhile (its
// values, shown on the next deal's form to be checked), the start form's
// names. Only a new deal's form kept what was typed (its draft); the rest
// came back empty.
func TestBrowserLanguageKeepsWhatWasTyped(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"tapp","declarer":"Dan","points":70,"tricks":5,"expected_hand":1}`), 201)
	holds := func(what string) string { return value(t, ctx, what, chromedp.Evaluate[string](pageHolds)) }
	same := func(what, lang, want string) {
		t.Helper()
		if got := holds(what + " in " + lang); got != want {
			shot(t, ctx, strings.ReplaceAll(what, " ", "-"))
			t.Errorf("%s in %s holds\n%q, before the switch\n%q", what, lang, got, want)
		}
	}

	run(t, ctx, "correct deal 1 and start to void it",
		chromedp.Navigate(base+"/g/"+z+"/hands/1?lang=en"), loaded(`document.querySelector('form.danger') !== null`),
		chromedp.Clear(chromedp.CSS(`#points`)), chromedp.SendKeys(chromedp.CSS(`#points`), "80"),
		chromedp.SendKeys(chromedp.CSS(`form.deal input[name=reason]`), "recounted"),
		chromedp.Click(chromedp.CSS(`form.danger input[name=reason_quick][value=misdeal]`)),
		chromedp.SendKeys(chromedp.CSS(`form.danger input[name=reason]`), "cards shown"))
	was := holds("deal 1's page")
	if !strings.Contains(was, "reason_quick=misdeal&reason=cards shown") {
		t.Fatalf("deal 1's page before the switch holds %q", was)
	}
	for _, lang := range []string{"de", "sv"} {
		run(t, ctx, "switch to "+lang, switchTo(lang))
		same("deal 1's page", lang, was)
	}

	// Deal 2 typed here, recorded meanwhile by another phone: refused,
	// its values shown on deal 3's form.
	run(t, ctx, "type deal 2",
		chromedp.Navigate(base+"/g/"+z+"/record?contract=tapp&lang=en"), loaded(`document.querySelector('form.deal') !== null`),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.SendKeys(chromedp.CSS(`#points`), "70"),
		chromedp.Click(chromedp.CSS(tap("tricks", "5"))))
	mustStatus(t, do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"pass","expected_hand":2}`), 201)
	run(t, ctx, "save deal 2", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		loaded(`document.querySelector('form.deal input[name=expected_hand][value="3"]') !== null && document.querySelector('#main p.error') !== null`))
	const refused = "declarer=Ben&points=70&points_side=declarer&tricks=5"
	same("the refused deal", "en", refused)
	run(t, ctx, "switch to de", switchTo("de"))
	same("the refused deal", "de", refused)

	run(t, ctx, "start an evening",
		chromedp.Navigate(base+"/new/zuger?lang=en"), loaded(`document.querySelector('input[name=player]') !== null`),
		chromedp.SendKeys(`(//input[@name="player"])[1]`, "Anna"), chromedp.SendKeys(`(//input[@name="player"])[2]`, "Ben"),
		chromedp.Clear(chromedp.CSS(`input[name=unit]`)), chromedp.SendKeys(chromedp.CSS(`input[name=unit]`), "0.20"))
	was = holds("the start form")
	run(t, ctx, "switch to sv", switchTo("sv"))
	same("the start form", "sv", was)
	if n := len(listHands(t, h, z)); n != 2 {
		t.Fatalf("switching languages, the evening has %d deals, want 2", n)
	}
}

// A deal's form the phone made itself, the server out of reach, is the
// page another language shows once the server is back, with what was
// typed: the language links were the page's before (the table's), and
// led there.
func TestBrowserLanguageOfAFormMadeOffline(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "phone", asPhone("light"))
	id := startEvening(t, ctx, base, "matzlfangen", []string{"Anna", "Ben", "Cleo", "Dan"})
	recordDeal(t, ctx, 1, deal{contract: "rufen", taps: []string{tap("partner", "Dan"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}})
	formsKept(t, ctx)
	time.Sleep(3 * time.Second) // the server's last answer a while ago: Record asks it
	srv.stop()
	run(t, ctx, "type half of deal 2 from the table",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=rufen"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("partner", "Anna"))), chromedp.SendKeys(chromedp.CSS(`#points`), "64"))
	half := value(t, ctx, "the form", chromedp.Evaluate[string](formHolds))
	if !strings.Contains(half, "partner=Anna&") || !strings.Contains(half, "&points=64&") {
		t.Fatalf("deal 2's form made offline holds %q", half)
	}
	srv.start()
	run(t, ctx, "switch to de", switchTo("de"))
	where := value(t, ctx, "where", chromedp.Location())
	got := value(t, ctx, "the form in de", chromedp.Evaluate[string](`document.querySelector('form.deal') ? `+formHolds+` : ''`))
	if !strings.Contains(where, fmt.Sprintf("/g/%s/record?contract=rufen", id)) || got != half {
		shot(t, ctx, "offline-form-in-de")
		t.Fatalf("switched to German, the phone is at %s, its form holding %q; want deal 2's rufen form holding %q", where, got, half)
	}
}
