package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser starts a headless Chromium (Debian's chromium package). On CI a
// missing browser fails the test: CI must run it.
func browser(t *testing.T, flags ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path := os.Getenv("CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path != "" {
			break
		}
		path, _ = exec.LookPath(name)
	}
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed; .ci/run installs it (apt-get install chromium)")
		}
		t.Skip("chromium is not installed (apt-get install chromium); CI runs this test")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true), chromedp.WindowSize(390, 844), chromedp.UserDataDir(t.TempDir()))
	opts = append(opts, flags...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, 20*time.Second) // a wrong selector fails, not hangs
	defer cancel()
	if err := chromedp.Do(step, actions...); err != nil {
		shot(t, ctx, strings.ReplaceAll(what, " ", "-"))
		t.Fatalf("%s: %v", what, err)
	}
}

// value runs one action that reads something from the page.
func value[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(step, a)
	if err != nil {
		shot(t, ctx, strings.ReplaceAll(what, " ", "-"))
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// cutShown waits, on the close page, until who pays whom with the cut
// chosen is in (static/app.js cutPreview): until then the button that
// ends the evening waits, and the payments coming in move it.
func cutShown() chromedp.Action[chromedp.Void] {
	return loaded(`!document.querySelector('#settle.stale, #settle .undecided')`)
}

// js runs a script in the page for its effect.
func js(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[any](expr)(ctx, tg)
		return chromedp.Void{}, err
	}
}

// shot saves a screenshot in the test's temporary folder, never the repo.
func shot(t *testing.T, ctx context.Context, name string) {
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(80)); err == nil {
		p := filepath.Join(t.TempDir(), name+".png")
		_ = os.WriteFile(p, png, 0o644)
		t.Logf("screenshot: %s", p)
	}
}

// pageUnits reads the balances the table page shows, as the API writes them.
func pageUnits(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	return value(t, ctx, "read balances", chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll('td[data-units]')].map(e => [e.dataset.units, e.textContent.trim().replace('−', '-').replace(',', '.')]))`))
}

func apiUnits(t *testing.T, base, id string) map[string]string {
	t.Helper()
	var l struct {
		Balances map[string]string `json:"balances"`
	}
	apiGet(t, base, "/api/games/"+id+"/ledger", &l)
	return l.Balances
}

// apiGet reads an API answer of the server behind base into v. The test
// reaches the server directly: tapp.test is a name only the browser
// resolves.
func apiGet(t *testing.T, base, path string, v any) {
	t.Helper()
	res, err := http.Get(strings.Replace(base, "//tapp.test:", "//127.0.0.1:", 1) + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// deal is one deal as a player taps it in: the contract link (empty: the
// preselected one), radio buttons and boxes to tap, and fields to type in.
type deal struct {
	contract string
	taps     []string // CSS selectors
	typed    [][2]string
}

func tap(name, value string) string { return fmt.Sprintf(`input[name=%q][value=%q]`, name, value) }

// startEvening fills the start form and returns the game's id.
func startEvening(t *testing.T, ctx context.Context, base, variant string, names []string, extra ...chromedp.Action[chromedp.Void]) string {
	t.Helper()
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(base + "/?lang=en"),
		chromedp.Click(chromedp.CSS(`a[href="/new/` + variant + `"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name=player]`)),
	}
	for i, n := range names {
		acts = append(acts, chromedp.SendKeys(fmt.Sprintf(`(//input[@name="player"])[%d]`, i+1), n))
	}
	acts = append(acts, chromedp.Clear(chromedp.CSS(`input[name=unit]`)), chromedp.SendKeys(chromedp.CSS(`input[name=unit]`), "0,50"),
		chromedp.SendKeys(chromedp.CSS(`input[name=currency]`), "EUR"))
	acts = append(acts, extra...)
	acts = append(acts, chromedp.Click(chromedp.CSS(`form button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`live`)))
	run(t, ctx, "start "+variant, acts...)
	loc := value(t, ctx, "location", chromedp.Location())
	return loc[strings.LastIndex(loc, "/")+1:]
}

// recordDeal taps a deal in from the table page and waits for the table.
func recordDeal(t *testing.T, ctx context.Context, n int, d deal) {
	t.Helper()
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS(`a.button.primary`)), // "Record deal n"
		chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
	}
	if d.contract != "" {
		acts = append(acts, chromedp.Click(chromedp.CSS(`a.pick[href="?contract=`+d.contract+`"]`)))
	}
	acts = append(acts, chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	for _, s := range d.taps {
		acts = append(acts, chromedp.Click(chromedp.CSS(s)))
	}
	for _, f := range d.typed {
		acts = append(acts, chromedp.SendKeys(chromedp.CSS(f[0]), f[1]))
	}
	acts = append(acts, chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-`+fmt.Sprint(n))))
	run(t, ctx, fmt.Sprintf("record deal %d (%s)", n, d.contract), acts...)
}

// evening plays deals, corrects deal 1, voids deal 2, closes, and checks the
// page's balances against the API after every step.
func evening(t *testing.T, ctx context.Context, base, id string, deals []deal, correction deal, end ...func(next int)) {
	t.Helper()
	check := func(step string) {
		t.Helper()
		page, api := pageUnits(t, ctx), apiUnits(t, base, id)
		if fmt.Sprint(page) != fmt.Sprint(api) {
			shot(t, ctx, "mismatch")
			t.Fatalf("after %s the page shows %v, the API %v", step, page, api)
		}
	}
	for i, d := range deals {
		recordDeal(t, ctx, i+1, d)
		check(fmt.Sprintf("deal %d", i+1))
	}
	// Correct deal 1.
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS(`#hand-1 a[href$="/hands/1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
	}
	for _, s := range correction.taps {
		acts = append(acts, chromedp.Click(chromedp.CSS(s)))
	}
	for _, f := range correction.typed {
		acts = append(acts, chromedp.Clear(chromedp.CSS(f[0])), chromedp.SendKeys(chromedp.CSS(f[0]), f[1]))
	}
	acts = append(acts, chromedp.SendKeys(chromedp.CSS(`form.deal input[name=reason]`), "recounted"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-1`)))
	run(t, ctx, "correct deal 1", acts...)
	check("the correction")
	// Void deal 2.
	run(t, ctx, "void deal 2",
		chromedp.Click(chromedp.CSS(`#hand-2 a[href$="/hands/2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.danger`)),
		chromedp.SendKeys(chromedp.CSS(`form.danger input[name=reason]`), "misdeal"),
		chromedp.Click(chromedp.CSS(`form.danger button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#hand-2.voided`)))
	check("the void")
	for _, f := range end {
		f(len(deals) + 1)
		check("the end of the evening")
	}
	// Close: tap any leftover-unit choices, confirm.
	run(t, ctx, "close",
		chromedp.Click(chromedp.CSS(`a[href$="/close"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form button.primary`)),
		js(`document.querySelectorAll('fieldset.picks').forEach(f => f.querySelector('input').click())`),
		// The cut chosen, who pays whom comes in above the button: tapped
		// only then, as a person reading it does (a tap meanwhile lands
		// where the button was).
		cutShown(),
		chromedp.Click(chromedp.CSS(`form button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`p.closed`)))
	transfers := value(t, ctx, "read the closed table", chromedp.Text(chromedp.ID(`live`)))
	check("closing")
	if !strings.Contains(transfers, "This evening is closed.") {
		t.Fatalf("closed table: %s", transfers)
	}
}

// A whole evening of each variant through the forms, from a page loaded by
// a name that is not localhost over plain HTTP: an insecure context, as a
// phone at the table opening http://192.168.1.20:8080 is.
func TestBrowserEvenings(t *testing.T) {
	h := newServer(t)
	base, posts := lanServer(t, h)
	ctx := browser(t, lanNames)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	srv := struct{ URL string }{base}
	t.Cleanup(func() {
		// Every form was posted from tappbook's own insecure page: with its
		// Origin, without Sec-Fetch-Site, and accepted.
		if !t.Failed() {
			posts.check(t, base, "", 1)
		}
	})
	t.Run("insecure context", func(t *testing.T) {
		run(t, ctx, "open the start page", chromedp.Navigate(base+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`main`)))
		if value(t, ctx, "isSecureContext", chromedp.Evaluate[bool](`window.isSecureContext`)) {
			t.Fatal("the page counts as a secure context: the test does not reach the plain-HTTP path")
		}
	})

	t.Run("zuger", func(t *testing.T) {
		id := startEvening(t, ctx, srv.URL, "zuger", four)
		zd := func(contract, who, pts, tricks string) deal {
			return deal{contract: contract, taps: []string{tap("declarer", who), tap("tricks", tricks)}, typed: [][2]string{{"#points", pts}}}
		}
		evening(t, ctx, srv.URL, id, []deal{
			zd("solo", "Ben", "70", "5"), zd("tapp", "Anna", "60", "4"), zd("vice", "Dan", "100", "7"),
			{contract: "pass"}, zd("super", "Cleo", "65", "5"),
			// Points typed for the opponents: the app computes the declarer's 100.
			{contract: "solo", taps: []string{tap("declarer", "Anna"), tap("points_side", "opponents"), tap("tricks", "7")}, typed: [][2]string{{"#points", "20"}}},
		}, deal{typed: [][2]string{{"#points", "60"}}, taps: []string{tap("tricks", "4")}})
	})
	t.Run("old-tapp", func(t *testing.T) {
		id := startEvening(t, ctx, srv.URL, "old-tapp", four[:3])
		evening(t, ctx, srv.URL, id, []deal{
			{contract: "coeurfrage", taps: []string{tap("declarer", "Ben")}, typed: [][2]string{{"#points", "73"}}},
			{contract: "pass"},
			{contract: "solo", taps: []string{tap("declarer", "Cleo"), tap("trump", "clubs")}, typed: [][2]string{{"#points", "45"}}},
			{contract: "coeursolo", taps: []string{tap("declarer", "Anna")}, typed: [][2]string{{"#points", "80"}}},
			// Tout: the form asks again for it (won or lost, no count).
			{contract: "solo", taps: []string{tap("declarer", "Ben"), `input[name=tout]`, tap("trump", "spades"), tap("outcome", "won")}},
			{contract: "coeurfrage", taps: []string{tap("declarer", "Cleo")}, typed: [][2]string{{"#points", "50"}}},
		}, deal{typed: [][2]string{{"#points", "50"}}})
	})
	t.Run("matzlfangen", func(t *testing.T) {
		id := startEvening(t, ctx, srv.URL, "matzlfangen", four)
		evening(t, ctx, srv.URL, id, []deal{
			// Rufen is preselected: tap the partner and the tricks, type the points.
			{taps: []string{tap("partner", "Dan"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}},
			// Kontra by the stepper: two taps on + (Schuß, Re); the matzl.
			{taps: []string{tap("partner", "Anna"), tap("tricks", "3"), `.stepper button:last-child`, `.stepper button:last-child`, tap("matzl", "defenders")}, typed: [][2]string{{"#points", "40"}}},
			{contract: "treiben", taps: []string{tap("declarer", "Anna"), tap("tricks", "5")}, typed: [][2]string{{"#points", "80"}}},
			{contract: "durch", taps: []string{tap("declarer", "Cleo"), tap("outcome", "won")}},
			{contract: "neid", taps: []string{tap("declarer", "Dan"), tap("tricks", "4")}, typed: [][2]string{{"#points", "65"}}},
		}, deal{typed: [][2]string{{"#points", "101"}}, taps: []string{tap("tricks", "7")}})
	})
	t.Run("wuerttemberg", func(t *testing.T) {
		id := startEvening(t, ctx, srv.URL, "wuerttemberg", four)
		ramsch := func(pt ...string) deal {
			d := deal{contract: "ramsch"}
			for i := 0; i < 4; i++ {
				d.typed = append(d.typed, [2]string{fmt.Sprintf("input[name=ramsch_points_%d]", i), pt[2*i]}, [2]string{fmt.Sprintf("input[name=ramsch_tricks_%d]", i), pt[2*i+1]})
			}
			return d
		}
		evening(t, ctx, srv.URL, id, []deal{
			{contract: "suit", taps: []string{tap("declarer", "Anna"), tap("trump", "clubs")}, typed: [][2]string{{"#points", "61"}}},
			{contract: "bettel", taps: []string{tap("declarer", "Ben"), tap("outcome", "won")}},
			{contract: "rufer", taps: []string{tap("declarer", "Cleo"), tap("trump", "hearts"), tap("outcome", "won")}},
			ramsch("50", "3", "40", "3", "30", "2", "0", "0"),
			{contract: "durch", taps: []string{tap("declarer", "Anna"), tap("trump", "spades"), tap("outcome", "lost"), tap("tricks", "7")}},
		}, deal{typed: [][2]string{{"#points", "55"}}}, func(next int) {
			herzAsToTheEnd(t, ctx, next, ramsch("50", "3", "40", "3", "30", "2", "0", "0"))
		})
	})
}

// Two phones (a tab each) on one game: one records, the other shows it
// without a reload.
func TestBrowserTwoTabsFollowLive(t *testing.T) {
	h := newServer(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx := browser(t)
	id := startEvening(t, ctx, srv.URL, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	// The other phone: a tab of its own browser. (A second tab of the same
	// headless browser is a background tab, which Chromium does not run.)
	other := browser(t)
	run(t, other, "open the second tab",
		chromedp.Navigate(srv.URL+"/g/"+id), chromedp.WaitVisible(chromedp.ID(`live`)),
		js(`window.notReloaded = true`))
	time.Sleep(300 * time.Millisecond) // let its live stream connect
	recordDeal(t, ctx, 1, deal{contract: "solo", taps: []string{tap("declarer", "Ben"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}})
	var ben string
	var same bool
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		// A script reads the DOM: a background tab does not render, so a
		// query that waits for visibility would wait for ever.
		ben = value(t, other, "read the second tab", chromedp.Evaluate[string](`document.querySelector('td[data-units="Ben"]').textContent.trim()`))
		same = value(t, other, "read the marker", chromedp.Evaluate[bool](`window.notReloaded === true`))
		if ben == "6" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if ben != "6" || !same {
		shot(t, other, "second-tab")
		t.Fatalf("the second tab shows Ben %q (not reloaded: %v); want 6 without a reload", ben, same)
	}
}

// The German and Swedish pages render with no missing text.
func TestBrowserGermanAndSwedish(t *testing.T) {
	h := newServer(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx := browser(t)
	id := startEvening(t, ctx, srv.URL, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "coeurfrage", taps: []string{tap("declarer", "Ben")}, typed: [][2]string{{"#points", "73"}}})
	for _, lang := range []string{"de", "sv"} {
		for _, p := range []string{"/g/" + id, "/g/" + id + "/record?contract=solo", "/g/" + id + "/close", "/g/" + id + "/audit", "/g/" + id + "/share", "/new/wuerttemberg"} {
			run(t, ctx, lang+" "+p, chromedp.Navigate(srv.URL+p+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main`)))
			text := value(t, ctx, "read the page", chromedp.Text(chromedp.CSS(`body`)))
			htmlLang := value(t, ctx, "read its language", chromedp.AttributeValue(chromedp.CSS(`html`), "lang")).Value
			if htmlLang != lang {
				t.Fatalf("%s: page language %q, want %q", p, htmlLang, lang)
			}
			if m := missingText.FindString(text); m != "" {
				shot(t, ctx, lang+"-missing")
				t.Fatalf("%s %s: missing text %q in %q", lang, p, m, text)
			}
		}
		shot(t, ctx, lang+"-last")
	}
}

// A deal recorded after a phone's page was made but before its live
// stream connected is shown without a reload: the stream's first version
// is compared with the page's own, not taken as the one shown.
func TestBrowserLiveCatchesADealBeforeItConnects(t *testing.T) {
	held, release := make(chan struct{}, 1), make(chan struct{})
	base, _ := lanServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/live") {
				select {
				case held <- struct{}{}: // the first stream waits for the deal
					<-release
				default:
				}
			}
			h.ServeHTTP(w, r)
		})
	}(newServer(t)))
	direct := strings.Replace(base, "//tapp.test:", "//127.0.0.1:", 1)
	post := func(path, body string) string {
		t.Helper()
		res, err := http.Post(direct+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var g struct {
			ID string `json:"id"`
		}
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("POST %s: %s", path, res.Status)
		}
		_ = json.NewDecoder(res.Body).Decode(&g)
		return g.ID
	}
	id := post("/api/games", zugerGame)
	ctx := browser(t, lanNames)
	run(t, ctx, "open the table", asPhone("light"), chromedp.Navigate(base+"/g/"+id+"?lang=en"), chromedp.WaitVisible(chromedp.ID(`live`)),
		js(`window.notReloaded = true`))
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("the page opened no live stream")
	}
	post("/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`)
	close(release)
	var ben string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if ben = value(t, ctx, "read Ben", chromedp.Evaluate[string](`document.querySelector('td[data-units="Ben"]').textContent.trim()`)); ben == "6" {
			break
		}
	}
	if ben != "6" || !value(t, ctx, "read the marker", chromedp.Evaluate[bool](`window.notReloaded === true`)) {
		shot(t, ctx, "stale-table")
		t.Fatalf("the table shows Ben %q after a deal recorded while its stream connected; want 6, without a reload", ben)
	}
}
