package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"tappbook/cmd/tappbook/internal/clitest"
)

// Several servers, one history: two `tappbook serve` processes on one
// PostgreSQL database, a phone on each. A deal tapped in on one phone
// (through one server) appears live on the other (through the other
// server: LISTEN/NOTIFY, then its /live stream), without a reload; then
// the other way round. Each server answers at once what the other wrote,
// and, sharing one --data-dir, takes the forms the other shows.
func TestTwoServersTwoPhones(t *testing.T) {
	url := pg.Database(t)
	bin := clitest.Build(t)
	shared := t.TempDir()
	a, b := clitest.Start(t, bin, url, "--data-dir", shared), clitest.Start(t, bin, url, "--data-dir", shared)
	defer a.Stop(t)
	defer b.Stop(t)
	res, err := http.Post(a.Base+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&g); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	phoneA, phoneB := phone(t), phone(t)
	follow(t, phoneA, a.Base+"/g/"+g.ID+"?lang=en")
	follow(t, phoneB, b.Base+"/g/"+g.ID+"?lang=en")

	tapDeal(t, phoneA, 1, "solo", `input[name="declarer"][value="Ben"]`, `input[name="tricks"][value="5"]`)
	for _, srv := range []*clitest.Server{a, b} { // no server serves its stale copy
		if ben := balance(t, srv.Base, g.ID, "Ben"); ben != "6" {
			t.Fatalf("%s serves Ben %s after deal 1, want 6", srv.Base, ben)
		}
	}
	waitFor(t, phoneB, "Ben", "6")

	follow(t, phoneA, a.Base+"/g/"+g.ID+"?lang=en") // back on the table, following
	tapDeal(t, phoneB, 2, "solo", `input[name="declarer"][value="Cleo"]`, `input[name="tricks"][value="5"]`)
	if cleo := balance(t, a.Base, g.ID, "Cleo"); cleo != "4" {
		t.Fatalf("a serves Cleo %s after deal 2 on b, want 4", cleo)
	}
	waitFor(t, phoneA, "Cleo", "4")

	// A form shown by a, posted to b as a browser on plain HTTP posts it
	// (Origin: null, its signed token): b takes it.
	if status := postFormElsewhere(t, a.Base+"/new/zuger", b.Base+"/new/zuger"); status != http.StatusSeeOther {
		t.Fatalf("b answered the form a showed with %d, want 303", status)
	}
}

// postFormElsewhere gets the start form from one server and posts it, with
// its token, to the other.
func postFormElsewhere(t *testing.T, from, to string) int {
	t.Helper()
	res, err := http.Get(from)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`name="form_token" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no form token on %s", from)
	}
	form := neturl.Values{"player": {"Anna", "Ben", "Cleo", "Dan"}, "unit": {"0,50"}, "currency": {"EUR"}, "form_token": {string(m[1])}}
	req, _ := http.NewRequest("POST", to, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "null")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// phone starts a headless Chromium, as a phone's browser. On CI a missing
// browser fails the test.
func phone(t *testing.T) context.Context {
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
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(390, 844), chromedp.UserDataDir(t.TempDir()))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	// Every page counts the messages of its live stream, so that the test
	// knows when the page follows the game (its first message, the
	// version it shows, has arrived).
	const counting = `(function () {
		var ES = window.EventSource; if (!ES || ES.counted) return;
		window.liveMessages = 0;
		window.EventSource = function (u, o) {
			var es = new ES(u, o);
			es.addEventListener("message", function () { window.liveMessages++; });
			return es;
		};
		window.EventSource.counted = true;
	})();`
	err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: counting})
		return chromedp.Void{}, err
	})
	if err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

func step(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second) // a wrong selector fails, not hangs
	defer cancel()
	if err := chromedp.Do(c, actions...); err != nil {
		shot(t, ctx, what)
		t.Fatalf("%s: %v", what, err)
	}
}

// follow opens the game's table and waits until its live stream follows
// it; a mark on the page tells a reload from a live update.
func follow(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	step(t, ctx, "open "+url, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID(`live`)))
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[bool](`window.liveMessages > 0`)); err != nil {
		t.Fatalf("the page's live stream did not connect: %v", err)
	}
	step(t, ctx, "mark the page", func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[any](`window.notReloaded = true`)(ctx, tg)
		return chromedp.Void{}, err
	})
}

// tapDeal records a deal of 70 points on the phone's table page.
func tapDeal(t *testing.T, ctx context.Context, n int, contract string, taps ...string) {
	t.Helper()
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS(`a.button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=` + contract + `"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
	}
	for _, s := range taps {
		acts = append(acts, chromedp.Click(chromedp.CSS(s)))
	}
	acts = append(acts, chromedp.SendKeys(chromedp.CSS(`#points`), "70"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(fmt.Sprintf("hand-%d", n))))
	step(t, ctx, fmt.Sprintf("tap in deal %d", n), acts...)
}

// waitFor waits until the page shows the player's balance, updated live:
// the page was not reloaded.
func waitFor(t *testing.T, ctx context.Context, player, want string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	expr := fmt.Sprintf(`(function () {
		var td = document.querySelector('td[data-units=%q]');
		return td !== null && td.textContent.trim() === %q && window.notReloaded === true;
	})()`, player, want)
	if _, err := chromedp.Run(c, chromedp.Poll[bool](expr)); err != nil {
		shot(t, ctx, "not-live")
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector('td[data-units=%q]') || {textContent: "none"}).textContent.trim() + (window.notReloaded ? "" : " (reloaded)")`, player)))
		t.Fatalf("the phone shows %s %q, want %q updated live: %v", player, got, want, err)
	}
}

// balance is the player's balance a server answers now.
func balance(t *testing.T, base, id, player string) string {
	t.Helper()
	var l struct {
		Balances map[string]string `json:"balances"`
	}
	clitest.GetJSON(t, base+"/api/games/"+id+"/ledger", &l)
	return l.Balances[player]
}

// shot saves a screenshot in the test's temporary folder, never the repo.
func shot(t *testing.T, ctx context.Context, name string) {
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(80)); err == nil {
		p := filepath.Join(t.TempDir(), strings.ReplaceAll(name, "/", "-")+".png")
		_ = os.WriteFile(p, png, 0o644)
		t.Logf("screenshot: %s", p)
	}
}
