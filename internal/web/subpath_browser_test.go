package web

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Given --public-url naming /tapp/, when a phone starts an evening from
// the start page and records a deal, then it stays under /tapp/, a second
// phone's table follows the deal live (app.js's stream under the prefix),
// and the start page's "My evenings" (mine.js) lists the evening there.
func TestBrowserUnderASubpath(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	public, _ := url.Parse(base + "/tapp")
	srv.Config.Handler = newServerWith(t, Options{Reach: Reach{PublicURL: public}})
	srv.Start()
	t.Cleanup(srv.Close)
	ctx := browser(t)
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(base + "/tapp/?lang=en"),
		chromedp.Click(chromedp.CSS(`a[href="/tapp/new/zuger"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name=player]`)),
	}
	for i, n := range []string{"Anna", "Ben", "Cleo", "Dan"} {
		acts = append(acts, chromedp.SendKeys(fmt.Sprintf(`(//input[@name="player"])[%d]`, i+1), n))
	}
	acts = append(acts, chromedp.Click(chromedp.CSS(`form button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`live`)))
	run(t, ctx, "start an evening under /tapp/", acts...)
	loc := value(t, ctx, "location", chromedp.Location())
	if !strings.HasPrefix(loc, base+"/tapp/g/") {
		t.Fatalf("the new evening opened at %s, want %s/tapp/g/…", loc, base)
	}
	other := browser(t)
	run(t, other, "open the second phone", chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.ID(`live`)), js(`window.notReloaded = true`))
	time.Sleep(300 * time.Millisecond) // let its live stream connect
	recordDeal(t, ctx, 1, deal{contract: "solo", taps: []string{tap("declarer", "Ben"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}})
	var ben string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && ben != "6"; time.Sleep(100 * time.Millisecond) {
		ben = value(t, other, "read the second phone", chromedp.Evaluate[string](`document.querySelector('td[data-units="Ben"]').textContent.trim()`))
	}
	if same := value(t, other, "read the marker", chromedp.Evaluate[bool](`window.notReloaded === true`)); ben != "6" || !same {
		t.Fatalf("the second phone shows Ben %q (not reloaded: %v); want 6, live", ben, same)
	}
	run(t, ctx, "open the start page", chromedp.Navigate(base+"/tapp/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`#mine .mine-link`)))
	href := value(t, ctx, "My evenings", chromedp.Evaluate[string](`document.querySelector('#mine .mine-link').getAttribute('href')`))
	if href != strings.TrimPrefix(loc, base) {
		t.Fatalf("My evenings links %q, want %q", href, strings.TrimPrefix(loc, base))
	}
}
