package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A group's pages on a 390 × 844 phone, with evenings closed and open and
// a payment: nothing wider than the screen, every tap target at least
// 44 × 44. The links to the group's evenings were one line of text, 21
// pixels high.
func TestBrowserGroupPagesFitAPhone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	g := createGroup(t, h, thursdayGroup)
	gid, rid := g["id"].(string), g["read_id"].(string)
	first := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan")), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/hands", tappDeal("Anna", 70)), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/close", `{}`), 200)
	second := mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/again", ""), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+second+"/hands", tappDeal("Cleo", 80)), 201)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"0.5","note":"cash"}`), 201)

	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	for _, path := range []string{"/groups/" + gid, "/groups/" + gid + "/tab", "/groups/" + gid + "/tab?cash=1", "/groups/" + gid + "/stats", "/r/" + rid} {
		for _, lang := range []string{"en", "de", "sv"} {
			run(t, ctx, "open "+path, chromedp.Navigate(base+path+querySep(path)+"lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
			f := value(t, ctx, "measure "+path, chromedp.Evaluate[fit](fitScript))
			if f.Width > phoneWidth || len(f.Small) > 0 {
				shot(t, ctx, "group-"+lang)
				t.Errorf("%s in %s: %d px wide; tap targets under 44 × 44: %q", path, lang, f.Width, f.Small)
			}
		}
	}
}

// The statistics are wider than a phone: each table scrolls sideways
// under a visible heading, with the names kept in view.
func TestBrowserStatsKeepNamesInView(t *testing.T) {
	base, gid, ctx := phoneOnAGroup(t, "CHF")
	run(t, ctx, "open the stats", chromedp.Navigate(base+"/groups/"+gid+"/stats?lang=de"), chromedp.WaitVisible(chromedp.CSS(`table.stats`)))
	ok := value(t, ctx, "scroll the table", chromedp.Evaluate[string](`(() => {
		const box = document.querySelector(".scroll"), name = box.querySelector("tbody th");
		box.scrollLeft = 400;
		if (box.scrollLeft === 0) return "the table does not scroll: " + box.scrollWidth + " in " + box.clientWidth;
		const off = name.getBoundingClientRect().left - box.getBoundingClientRect().left;
		if (Math.abs(off) > 2) return "the name moved " + off + " px out of view";
		const heads = [...document.querySelectorAll("h2.stats-head")].map(e => e.offsetHeight > 0 ? e.textContent : "(hidden)");
		return heads.join(" | ");
	})()`))
	if ok != "Alle Varianten | Zuger Tapp" {
		shot(t, ctx, "stats-scrolled")
		t.Fatalf("stats: %s", ok)
	}
}

// phoneOnAGroup serves a group with one closed Zuger evening (one deal)
// by a LAN name and opens a phone-sized browser: the group's base URL,
// its id and the browser.
func phoneOnAGroup(t *testing.T, currency string) (string, string, context.Context) {
	t.Helper()
	h := newServer(t)
	base, _ := lanServer(t, h)
	gid := mustStatus(t, do(t, h, "POST", "/api/groups", `{"name":"Thursday","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"`+currency+`"}`), 201).json(t)["id"].(string)
	first := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/hands", tappDeal("Anna", 70)), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/close", `{}`), 200)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	return base, gid, ctx
}

func querySep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// On a phone the statistics show who is ahead without scrolling: the
// balance is the column after the name, and the headings wrap, so that
// the table is not four screens wide (it was 1250 px in German).
func TestBrowserStatsShowTheBalanceFirst(t *testing.T) {
	base, gid, ctx := phoneOnAGroup(t, "EUR")
	for _, lang := range []string{"de", "sv", "en"} {
		run(t, ctx, "open the stats", chromedp.Navigate(base+"/groups/"+gid+"/stats?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`table.stats`)))
		got := value(t, ctx, "measure the table", chromedp.Evaluate[string](`(() => {
			const box = document.querySelector(".scroll"), net = box.querySelector("tbody td[data-stat=net]");
			const b = box.getBoundingClientRect(), n = net.getBoundingClientRect();
			if (n.left < b.left || n.right > b.right) return "the balance is out of view: " + n.left + "–" + n.right + " in " + b.left + "–" + b.right;
			if (box.scrollWidth > 3 * box.clientWidth) return "the table is " + box.scrollWidth + " px wide in " + box.clientWidth;
			return "ok";
		})()`))
		if got != "ok" {
			shot(t, ctx, "stats-"+lang)
			t.Errorf("%s: %s", lang, got)
		}
	}
}
