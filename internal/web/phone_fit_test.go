package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The phone the pages are made for: 390 × 844 CSS pixels.
const phoneWidth, phoneHeight = 390, 844

// shotsDir is where the page tests put their screenshots for a person to
// look at: $TAPPBOOK_SHOTS, else tappbook-shots in the system's temporary
// folder. Never the repository.
func shotsDir(t *testing.T) string {
	dir := os.Getenv("TAPPBOOK_SHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "tappbook-shots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// asPhone makes the tab a phone: 390 × 844, mobile and touch, with the
// phone's own light or dark mode.
func asPhone(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
}

// fitScript measures the page as it stands: the document's width, and every
// tap target smaller than 44 × 44 (a radio button or box counts by the label
// around it). A link inside a sentence is WCAG 2.5.8's exception: its size
// is the line's. Folded parts are opened first, so that what they hold is
// measured and seen in the screenshot.
const fitScript = `(() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const small = [], seen = new Set();
  const inSentence = a => {
    if (a.tagName !== 'A' || getComputedStyle(a).display !== 'inline') return false;
    let b = a.parentElement;
    while (b && getComputedStyle(b).display === 'inline') b = b.parentElement;
    if (!b) return false;
    const c = b.cloneNode(true);
    c.querySelectorAll('a, button').forEach(x => x.remove());
    return /\p{L}{2,}/u.test(c.textContent);
  };
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    let t = el;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) t = el.closest('label');
    if (seen.has(t)) continue;
    seen.add(t);
    if (t.closest('[hidden]') || getComputedStyle(t).visibility === 'hidden') continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue; // not shown (display: none)
    if ((r.width < 44 || r.height < 44) && !inSentence(t)) {
      const what = t.tagName.toLowerCase() + (t.className ? '.' + String(t.className).replace(/ /g, '.') : '') +
        (t.getAttribute('name') ? '[name=' + t.getAttribute('name') + ']' : '');
      small.push(what + ' "' + (t.textContent || t.value || '').trim().slice(0, 30) + '" ' + Math.round(r.width) + '×' + Math.round(r.height));
    }
  }
  return {width: document.documentElement.scrollWidth, small: small};
})()`

type fit struct {
	Width int      `json:"width"`
	Small []string `json:"small"`
}

// afterSaveScript: the standings and the next step (Record, the ♥A
// question, End the evening) are on the screen as the page opens.
const afterSaveScript = `(() => {
  window.scrollTo(0, 0);
  const inView = el => { if (!el) return false; const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; };
  return inView(document.querySelector('table.standings')) &&
    inView(document.querySelector('a.button.primary.big, form.holder'));
})()`

// phonePage is one page to look at, and whether it follows a save.
type phonePage struct {
	name, path string
	saved      bool
}

// eveningsOnEveryPage starts, through the API, an evening of each variant
// in the states its pages show: deals with a correction and a void, a pot
// with a cut to make, a closed evening, and Württemberg's Herz-As question
// and its end.
func eveningsOnEveryPage(t *testing.T, h http.Handler) map[string][]phonePage {
	t.Helper()
	post := func(path, body string) {
		t.Helper()
		if r := do(t, h, "POST", path, body); r.status >= 300 {
			t.Fatalf("%s %s: %d %s", path, body, r.status, r.body)
		}
	}
	four := `"players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"`
	three := `"players":["Annelie","Benedikt","Cleopatra"],"unit":"0.50","currency":"EUR"`
	ramsch := `{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":3},"Ben":{"points":40,"tricks":3},"Cleo":{"points":30,"tricks":2},"Dan":{"points":0,"tricks":0}}}`
	suit := `{"contract":"suit","declarer":"Ben","trump":"clubs","points":70}`
	pages := map[string][]phonePage{}
	common := func(variant, id string, hands int) {
		ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
		ps := []phonePage{{"new", "/new/" + variant, false}, {"table", "/g/" + id, false},
			{"saved", fmt.Sprintf("/g/%s?saved=%d", id, hands), true}, {"record", "/g/" + id + "/record", false}}
		for _, c := range contractsOf(variant) {
			ps = append(ps, phonePage{"record-" + c, "/g/" + id + "/record?contract=" + c, false})
		}
		ps = append(ps, phonePage{"correct", "/g/" + id + "/hands/1", false}, phonePage{"close", "/g/" + id + "/close", false},
			phonePage{"audit", "/g/" + id + "/audit", false}, phonePage{"share", "/g/" + id + "/share", false},
			phonePage{"read-only", "/r/" + ro, false}, phonePage{"board", "/g/" + id + "/board", false},
			phonePage{"read-only-board", "/r/" + ro + "/board", false})
		pages[variant] = append(pages[variant], ps...)
	}

	z := createGame(t, h, `{"variant":"zuger",`+four+`}`)
	for _, d := range []string{`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`, `{"contract":"vice","declarer":"Dan","points":100,"tricks":7}`, `{"contract":"tapp","declarer":"Anna","points":40,"tricks":2}`} {
		post("/api/games/"+z+"/hands", d)
	}
	do(t, h, "PUT", "/api/games/"+z+"/hands/1", `{"contract":"solo","declarer":"Ben","points":60,"tricks":4}`)
	post("/api/games/"+z+"/hands/2/void", `{"reason":"misdeal"}`)
	common("zuger", z, 3)

	o := createGame(t, h, `{"variant":"old-tapp",`+three+`,"rules":{"stake":"3"}}`)
	for _, d := range []string{`{"contract":"coeurfrage","declarer":"Benedikt","points":40}`, `{"contract":"pass"}`, `{"contract":"solo","declarer":"Cleopatra","trump":"clubs","points":45}`, `{"contract":"coeurfrage","declarer":"Annelie","points":33}`} {
		post("/api/games/"+o+"/hands", d)
	}
	common("old-tapp", o, 4)
	// An evening whose first deal was corrected and a later one voided and
	// brought back: the History's "pot after deal n" lines and the table's
	// before/after with the pot.
	oh := createGame(t, h, `{"variant":"old-tapp",`+three+`}`)
	for _, d := range []string{`{"contract":"coeurfrage","declarer":"Benedikt","points":40}`, `{"contract":"pass"}`, `{"contract":"pass"}`, `{"contract":"coeursolo","declarer":"Cleopatra","points":80}`} {
		post("/api/games/"+oh+"/hands", d)
	}
	do(t, h, "PUT", "/api/games/"+oh+"/hands/1", `{"contract":"coeurfrage","declarer":"Benedikt","points":70}`)
	post("/api/games/"+oh+"/hands/2/void", `{"reason":"misdeal"}`)
	do(t, h, "PUT", "/api/games/"+oh+"/hands/2", `{"contract":"pass"}`)
	pages["old-tapp"] = append(pages["old-tapp"], phonePage{"corrected-table", "/g/" + oh + "?all=1", false}, phonePage{"corrected-audit", "/g/" + oh + "/audit", false},
		phonePage{"corrected-stood", "/g/" + oh + "/stood?after_hand=4", false})
	oc := createGame(t, h, `{"variant":"old-tapp",`+three+`}`)
	post("/api/games/"+oc+"/hands", `{"contract":"coeurfrage","declarer":"Benedikt","points":40}`)
	post("/api/games/"+oc+"/close", `{"remainder_to":["Annelie"]}`)
	pages["old-tapp"] = append(pages["old-tapp"], phonePage{"closed-table", "/g/" + oc, false}, phonePage{"closed-close", "/g/" + oc + "/close", false},
		phonePage{"closed-pay", "/g/" + oc + "/pay", false})

	m := createGame(t, h, `{"variant":"matzlfangen",`+four+`}`)
	for _, d := range []string{`{"contract":"rufen","partner":"Dan","points":70,"tricks":5,"kontra":5,"matzl":"declarer"}`, `{"contract":"durch","declarer":"Cleo","tricks":8}`} {
		post("/api/games/"+m+"/hands", d)
	}
	common("matzlfangen", m, 2)

	w := createGame(t, h, `{"variant":"wuerttemberg",`+four+`,"rules":{"suit_tapp":true}}`)
	for _, d := range []string{suit, `{"contract":"bettel","declarer":"Anna","tricks":0}`, ramsch} {
		post("/api/games/"+w+"/hands", d)
	}
	common("wuerttemberg", w, 3)
	pages["wuerttemberg"] = append(pages["wuerttemberg"], phonePage{"herz-as", "/g/" + w + "/herz-as", false})
	// Herz-As said, the next deal played: who got ♥A?
	wq := createGame(t, h, `{"variant":"wuerttemberg",`+four+`}`)
	post("/api/games/"+wq+"/hands", suit)
	post("/api/games/"+wq+"/herz-as", `{}`)
	post("/api/games/"+wq+"/hands", suit)
	pages["wuerttemberg"] = append(pages["wuerttemberg"], phonePage{"holder", "/g/" + wq + "?saved=2", true},
		phonePage{"herz-as-withdraw", "/g/" + wq + "/herz-as/withdraw", false})
	// Every Zwangsramsch played: the evening is over.
	wo, n := overWuerttemberg(t, h)
	pages["wuerttemberg"] = append(pages["wuerttemberg"], phonePage{"over", fmt.Sprintf("/g/%s?saved=%d", wo, n), true},
		phonePage{"over-board", "/g/" + wo + "/board", false})
	pages["start"] = []phonePage{{"home", "/", false}, {"not-found", "/g/nosuchgame", false}}
	return pages
}

// #15 and #36 "Done when": every page of every variant and of a group, in
// English, German and Swedish, light and dark, on a 390 × 844 phone:
// nothing wider than the screen, every tap target at least 44 × 44, after a
// save the standings and the next step on the screen, each board's
// balances at least 48 px standing up and lying down, and the statistics'
// cards whole on the screen. Every page is seen in every language, and in
// light and in dark (the scheme alternates page by page and language by
// language, so that each language is seen in both too): the fit does not
// change with the colours, and all six would double the time. A
// screenshot of each page is written to shotsDir (TAPPBOOK_SHOTS) for a
// person to look at.
func TestBrowserEveryPageFitsAPhone(t *testing.T) {
	// The start page as a server on a LAN shows it: with the addresses
	// phones join at.
	h := newServerWith(t, Options{JoinURLs: func() []string {
		return []string{"http://192.168.1.20:8080/", "http://tappbook-kitchen-table-box.local:8080/"}
	}})
	base, _ := lanServer(t, h)
	pages := eveningsOnEveryPage(t, h)
	pages["group"] = groupOnEveryPage(t, h)
	dir := shotsDir(t)
	checked := 0
	schemes := []string{"light", "dark"}
	// A browser for each few pages, closed when they are done: each stays
	// well within the time a browser is given (3 minutes), also under the
	// race detector on a busy machine (old-tapp's 23 pages took 135 s in
	// one browser at a load of 25).
	const perBrowser = 8
	for _, set := range []string{"start", "zuger", "old-tapp", "matzlfangen", "wuerttemberg", "group"} {
		for from := 0; from < len(pages[set]); from += perBrowser {
			t.Run(fmt.Sprintf("%s/%d", set, from/perBrowser+1), func(t *testing.T) {
				ctx := browser(t, lanNames)
				for i := from; i < min(from+perBrowser, len(pages[set])); i++ {
					p := pages[set][i]
					for l, lang := range []string{"en", "de", "sv"} {
						scheme := schemes[(i+l)%2]
						run(t, ctx, "be a phone in "+scheme, asPhone(scheme))
						checkPhonePage(t, ctx, dir, base, fmt.Sprintf("%s-%s-%s-%s", set, p.name, lang, scheme), p, lang)
						checked++
					}
				}
			})
		}
	}
	t.Logf("%d pages checked at %d × %d; screenshots in %s", checked, phoneWidth, phoneHeight, dir)
}

// checkPhonePage opens one page as the phone and checks it: after a save
// the standings and the next step on the screen, nothing wider than the
// screen, no tap target under 44 × 44; a board lying down too, its
// balances big; the statistics' cards whole. Its screenshot goes to dir.
func checkPhonePage(t *testing.T, ctx context.Context, dir, base, name string, p phonePage, lang string) {
	t.Helper()
	route, _, _ := strings.Cut(p.path, "?")
	run(t, ctx, name, chromedp.Navigate(base+p.path+querySep(p.path)+"lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main`)))
	if p.saved && !value(t, ctx, name+": after the save", chromedp.Evaluate[bool](afterSaveScript)) {
		t.Errorf("%s: after the save the standings or the next step are off the screen", name)
	}
	board := strings.HasSuffix(route, "/board")
	if board { // as it opens: before fitScript unfolds what is folded
		checkBoard(t, ctx, name+" standing up", phoneWidth, 1)
	}
	checkFit(t, ctx, name, phoneWidth)
	if strings.HasSuffix(route, "/stats") {
		// The deeper statistics show where there are evenings to count.
		deeper := strconv.FormatBool(!strings.HasPrefix(p.name, "empty"))
		if got := value(t, ctx, name+": the cards", chromedp.Evaluate[string](statsCardsScript+"("+deeper+")")); got != "ok" {
			t.Errorf("%s: the statistics' cards: %s", name, got)
		}
	}
	png := value(t, ctx, name+": screenshot", chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if board {
		lying := name + "-landscape"
		run(t, ctx, lying, chromedp.EmulateViewport(phoneHeight, phoneWidth, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape),
			chromedp.Navigate(base+p.path+querySep(p.path)+"lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main`)))
		checkBoard(t, ctx, lying, phoneHeight, 0)
		checkFit(t, ctx, lying, phoneHeight)
		png := value(t, ctx, lying+": screenshot", chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(dir, lying+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, ctx, name+" standing up again", chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	}
}

// checkFit measures the page on a screen width px wide: nothing wider,
// no tap target under 44 × 44.
func checkFit(t *testing.T, ctx context.Context, name string, width int) {
	t.Helper()
	f := value(t, ctx, name+": measure", chromedp.Evaluate[fit](fitScript))
	if f.Width > width {
		t.Errorf("%s: the page is %d px wide on a %d px screen", name, f.Width, width)
	}
	for _, s := range f.Small {
		t.Errorf("%s: tap target smaller than 44 × 44: %s", name, s)
	}
}

// checkBoard measures a board on a screen width px wide as it opens: every
// balance at least 48 CSS px and on the screen, none below it; standing up (rows 1) one player a row,
// lying down (rows 0) side by side on fewer rows than players.
func checkBoard(t *testing.T, ctx context.Context, name string, width, rows int) {
	t.Helper()
	f := value(t, ctx, name+": measure the board", chromedp.Evaluate[boardFit](boardScript))
	if f.Min < 48 || f.Out > 0 || f.Below > 0 || f.Width > width {
		t.Errorf("%s: balances %.0f px (want ≥ 48), %d off the screen's sides, %d below its bottom, page %d px wide", name, f.Min, f.Out, f.Below, f.Width)
	}
	if rows == 1 && f.Rows != f.Count || rows == 0 && f.Rows >= f.Count {
		t.Errorf("%s: %d balances on %d rows", name, f.Count, f.Rows)
	}
}

// typical is a typical deal of a variant as a person taps it in, from the
// table to the table: each tap after "Record deal" (a CSS selector) and
// the digits typed into whatever has the focus, without a tap.
type typical struct {
	variant, what string
	players       string // the API's players and money
	taps          []string
	digits        string   // typed on the keyboard into the focused field; "" for none; "\n" is the keyboard's Next
	most          int      // the taps it may take; 0: a rarer deal, counted and printed, not held
	after         []string // taps after the digits, before Save
}

// Issue 36 "Done when": the taps of a typical deal of each variant, and of
// a few rarer ones, counted as a person makes them on a 390 × 844 phone,
// from the table to the table: the tap on "Record deal", every tap on the
// form, the digits typed without a tap (the points field has the focus
// once the deal's choices are made), and the tap on Save. A typical deal
// takes at most 4 taps besides the digits. Printed with go test -v -run
// TestBrowserTapCounts. A Ramsch takes at most 3 taps and one number per
// player but one, the keyboard's Next between them. After each save the
// standings and the next Record button are on the screen.
func TestBrowserTapCounts(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	four := `"players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"`
	three := `"players":["Anna","Ben","Cleo"],"unit":"0.50","currency":"EUR"`
	deals := []typical{
		{"zuger", "solo by Ben, 70 points", four,
			[]string{`a.pick[href="?contract=solo"]`, tap("declarer", "Ben")}, "70", 4, nil},
		{"old-tapp", "coeurfrage by Ben, 73 points", three,
			[]string{`a.pick[href="?contract=coeurfrage"]`, tap("declarer", "Ben")}, "73", 4, nil},
		{"matzlfangen", "rufen (no bid) with Dan, 70 points", four,
			[]string{tap("partner", "Dan")}, "70", 4, nil},
		// Suit is the contract a new deal's form shows chosen: the trump
		// is the tap the contract would have been.
		{"wuerttemberg", "suit by Anna, clubs, 61 points", four,
			[]string{tap("declarer", "Anna"), tap("trump", "clubs")}, "61", 4, nil},
		{"wuerttemberg", "suit by Anna, hearts, 61 points", four,
			[]string{tap("declarer", "Anna"), tap("trump", "hearts")}, "61", 4, nil},

		// A Ramsch: one number per player but one (the last follows), the
		// keyboard's Next between them.
		{"wuerttemberg", "ramsch, 50 40 20 (Dan's 10 follow)", four,
			[]string{`a.pick[href="?contract=ramsch"]`}, "50\n40\n20", 3, nil},
		{"wuerttemberg", "ramsch with a Jungfer, 70 50 (Dan: no trick)", four,
			[]string{`a.pick[href="?contract=ramsch"]`}, "70\n50", 0, []string{`input[name=ramsch_none_3]`}},
		{"wuerttemberg", "bettel by Ben, won", four,
			[]string{`a.pick[href="?contract=bettel"]`, tap("declarer", "Ben"), tap("outcome", "won")}, "", 0, nil},
		{"wuerttemberg", "durch by Cleo, hearts, won", four,
			[]string{`a.pick[href="?contract=durch"]`, tap("declarer", "Cleo"), tap("trump", "hearts"), tap("outcome", "won")}, "", 0, nil},
	}
	for _, d := range deals {
		id := createGame(t, h, `{"variant":"`+d.variant+`",`+d.players+`}`)
		acts := []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(base + "/g/" + id + "?lang=en"),
			chromedp.WaitVisible(chromedp.CSS(`a.button.primary.big`)),
			chromedp.Click(chromedp.CSS(`a.button.primary.big`)), // Record deal 1: a tap
			chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		}
		for _, s := range d.taps {
			acts = append(acts, chromedp.Click(chromedp.CSS(s)))
		}
		acts = append(acts, chromedp.WaitVisible(chromedp.CSS(`form.deal button[type=submit]`)))
		run(t, ctx, d.variant+" "+d.what, acts...)
		if d.digits != "" {
			// Typed as a keyboard types: into what has the focus, no tap.
			if got := value(t, ctx, "the focus before the digits", chromedp.Evaluate[string](`(document.activeElement || {}).name || ""`)); got != "points" && got != "ramsch_points_0" {
				t.Fatalf("%s %s: the digits would go to %q, not the points field: a tap more", d.variant, d.what, got)
			}
			for i, number := range strings.Split(d.digits, "\n") {
				if i > 0 {
					run(t, ctx, "the keyboard's Next", chromedp.KeyEvent(kb.Enter))
				}
				run(t, ctx, "type "+number, chromedp.KeyEvent(number))
			}
		}
		for _, s := range d.after {
			run(t, ctx, "tap "+s, chromedp.Click(chromedp.CSS(s)))
		}
		run(t, ctx, "save", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#hand-1.fresh`)))
		if n := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["hands"]; n != 1.0 {
			t.Fatalf("%s %s: %v deals recorded", d.variant, d.what, n)
		}
		if !value(t, ctx, "after the save", chromedp.Evaluate[bool](afterSaveScript)) {
			shot(t, ctx, "after-save")
			t.Errorf("%s %s: after the save the standings or the Record button are off the screen", d.variant, d.what)
		}
		taps := 1 + len(d.taps) + len(d.after) + 1 // Record deal, the form, Save
		typed := "the digits"
		switch n := strings.Count(d.digits, "\n") + 1; {
		case d.digits == "":
			typed = "nothing typed"
		case n > 1:
			typed = fmt.Sprintf("%d numbers", n)
		}
		t.Logf("%-12s %-40s %d taps + %s, table to table", d.variant, d.what, taps, typed)
		if d.most > 0 && taps > d.most {
			t.Errorf("%s %s: %d taps from the table to the table, more than %d besides the digits", d.variant, d.what, taps, d.most)
		}
	}
}
