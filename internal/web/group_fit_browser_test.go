package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// groupOnEveryPage starts, through the API, a group in the states its
// pages show, for TestBrowserEveryPageFitsAPhone: evenings closed and open
// of two variants with a Rufen (the statistics' partners, contracts, head to
// head, records and years all have something to show), a payment, a
// member; and a group with nothing yet. The links to the group's evenings
// were once one line of text, 21 pixels high.
func groupOnEveryPage(t *testing.T, h http.Handler) []phonePage {
	t.Helper()
	g := createGroup(t, h, thursdayGroup)
	gid, rid := g["id"].(string), g["read_id"].(string)
	first := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan")), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/hands", tappDeal("Anna", 70)), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/close", `{}`), 200)
	m := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+m+"/hands", `{"contract":"rufen","partner":"Dan","points":70,"tricks":5}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+m+"/hands", `{"contract":"rufen","partner":"Anna","points":40,"tricks":2}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+m+"/close", `{}`), 200)
	second := mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/again", ""), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+second+"/hands", tappDeal("Cleo", 80)), 201)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"0.5","note":"cash"}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/members", `{"players":["Friederike-Charlotte"]}`), 200)
	empty := createGroup(t, h, `{"name":"Sonntagsrunde im Gasthaus zum Löwen","players":["Anna","Ben","Cleo"],"unit":"1","currency":"SEK"}`)["id"].(string)
	return []phonePage{
		{name: "new", path: "/groups/new"},
		{name: "group", path: "/groups/" + gid},
		{name: "tab", path: "/groups/" + gid + "/tab"},
		{name: "tab-cash", path: "/groups/" + gid + "/tab?cash=1"},
		{name: "stats", path: "/groups/" + gid + "/stats"},
		{name: "evening", path: "/new/zuger?group=" + gid},
		{name: "open-evening", path: "/g/" + second},
		{name: "read-only", path: "/r/" + rid},
		{name: "read-only-tab", path: "/r/" + rid + "/tab"},
		{name: "read-only-stats", path: "/r/" + rid + "/stats"},
		{name: "empty", path: "/groups/" + empty},
		{name: "empty-tab", path: "/groups/" + empty + "/tab"},
		{name: "empty-stats", path: "/groups/" + empty + "/stats"},
	}
}

// statsCardsScript opens every fold of the statistics and says what runs
// past the screen or scrolls sideways, and, called with true, which of the
// deeper statistics are missing; "ok" when none.
const statsCardsScript = `((deeper) => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const bad = [];
  for (const el of document.querySelectorAll('main *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < 0 || r.right > innerWidth + 0.5)) bad.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '–' + Math.round(r.right));
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') bad.push(el.tagName + '.' + el.className + ' scrolls');
  }
  for (const want of !deeper ? [] : ['[data-lines=variants]', '[data-lines=contracts]', '[data-lines=partners]', '[data-lines=pairs]', '[data-lines=records]', '[data-year]']) {
    if (!document.querySelector(want)) bad.push('no ' + want);
  }
  return bad.length ? bad.slice(0, 8).join('; ') : 'ok';
})`

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
