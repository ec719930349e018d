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
	// A Matzlfangen evening with a Rufen: the stats' partners, contracts of
	// two variants, head to head and records all have something to show.
	m := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+m+"/hands", `{"contract":"rufen","partner":"Dan","points":70,"tricks":5}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+m+"/close", `{}`), 200)

	ctx := browser(t, lanNames)
	for _, scheme := range []string{"light", "dark"} {
		run(t, ctx, "be a phone in "+scheme, asPhone(scheme))
		for _, path := range []string{"/groups/" + gid, "/groups/" + gid + "/tab", "/groups/" + gid + "/tab?cash=1", "/groups/" + gid + "/stats", "/r/" + rid, "/r/" + rid + "/stats"} {
			for _, lang := range []string{"en", "de", "sv"} {
				run(t, ctx, "open "+path, chromedp.Navigate(base+path+querySep(path)+"lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
				f := value(t, ctx, "measure "+path, chromedp.Evaluate[fit](fitScript))
				if f.Width > phoneWidth || len(f.Small) > 0 {
					shot(t, ctx, "group-"+lang+"-"+scheme)
					t.Errorf("%s in %s, %s: %d px wide; tap targets under 44 × 44: %q", path, lang, scheme, f.Width, f.Small)
				}
			}
		}
	}
	// #36: the statistics are cards the phone shows whole: nothing in them
	// scrolls sideways or runs past the screen, the deeper statistics
	// folded out included.
	for _, lang := range []string{"en", "de", "sv"} {
		run(t, ctx, "open the stats", chromedp.Navigate(base+"/groups/"+gid+"/stats?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`.stat-cards`)))
		got := value(t, ctx, "measure the cards", chromedp.Evaluate[string](statsCardsScript))
		if got != "ok" {
			shot(t, ctx, "stats-cards-"+lang)
			t.Errorf("stats in %s: %s", lang, got)
		}
	}
}

// statsCardsScript opens every fold of the statistics and says what runs
// past the screen or scrolls sideways, and which of the deeper statistics
// are missing; "ok" when none.
const statsCardsScript = `(() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const bad = [];
  for (const el of document.querySelectorAll('main *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < 0 || r.right > innerWidth + 0.5)) bad.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '–' + Math.round(r.right));
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') bad.push(el.tagName + '.' + el.className + ' scrolls');
  }
  for (const want of ['[data-lines=variants]', '[data-lines=contracts]', '[data-lines=partners]', '[data-lines=pairs]', '[data-lines=records]', '[data-year]']) {
    if (!document.querySelector(want)) bad.push('no ' + want);
  }
  return bad.length ? bad.slice(0, 8).join('; ') : 'ok';
})()`

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
