package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
)

// pageAmounts reads amounts a page shows in elements with a data attribute
// naming the player ("CHF 2.50", "−CHF 3.50"), as decimals.
// redWhenNegative checks that the amounts selector finds are in the
// colour of a loss exactly when they are negative, as a table's balances
// are, and that there is one of each.
func redWhenNegative(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	got := value(t, ctx, "colours of "+selector, chromedp.Evaluate[[]string](fmt.Sprintf(`(() => {
		const probe = document.createElement('span');
		probe.style.color = 'var(--bad)';
		document.body.appendChild(probe);
		const bad = getComputedStyle(probe).color;
		probe.remove();
		return [...document.querySelectorAll(%q)].map(e =>
			(e.textContent.includes('\u2212') ? 'negative ' : 'not negative ') + (getComputedStyle(e).color === bad ? 'red' : 'not red'));
	})()`, selector)))
	seen := map[string]bool{}
	for _, g := range got {
		seen[g] = true
	}
	if len(seen) != 2 || !seen["negative red"] || !seen["not negative not red"] {
		shot(t, ctx, "colours")
		t.Fatalf("%s: %v; want negative amounts red and the others not, one of each", selector, got)
	}
}

func pageAmounts(t *testing.T, ctx context.Context, selector, attr string) map[string]decimal.Decimal {
	t.Helper()
	raw := value(t, ctx, "read "+selector, chromedp.Evaluate[map[string]string](fmt.Sprintf(
		`Object.fromEntries([...document.querySelectorAll(%q)].map(e => [e.dataset[%q], e.textContent.trim()]))`, selector, attr)))
	out := map[string]decimal.Decimal{}
	for name, s := range raw {
		s = strings.NewReplacer("CHF", "", "−", "-", " ", "", "\u00a0", "").Replace(s)
		d, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatalf("%s of %s: %q is no amount", selector, name, raw[name])
		}
		out[name] = d
	}
	return out
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// closeEvening closes the evening on the table page.
func closeEvening(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "close",
		chromedp.Click(chromedp.CSS(`a[href$="/close"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form button.primary`)),
		chromedp.Click(chromedp.CSS(`form button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`p.closed`)))
}

func sameAmounts(a, b map[string]decimal.Decimal) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// A table plays two evenings of one group through the pages, records a
// payment and voids it; the tab and the stats the pages show are checked
// against sums computed here from the API's ledgers and deals.
func TestBrowserGroupTwoEvenings(t *testing.T) {
	h := newServer(t)
	// Loaded by a LAN name, over plain HTTP, as a phone at the table does:
	// every form of the group pages must pass there.
	base, posts := lanServer(t, h)
	direct := strings.Replace(base, "//tapp.test:", "//127.0.0.1:", 1) // tapp.test is a name only the browser resolves
	ctx := browser(t, lanNames)
	t.Cleanup(func() {
		if !t.Failed() {
			posts.check(t, base, "", 1)
		}
	})
	zd := func(contract, who, pts, tricks string) deal {
		return deal{contract: contract, taps: []string{tap("declarer", who), tap("tricks", tricks)}, typed: [][2]string{{"#points", pts}}}
	}

	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(base + "/?lang=en"),
		chromedp.Click(chromedp.CSS(`a[href="/groups/new"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name=name]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Thursday table"),
	}
	for i, n := range []string{"Anna", "Ben", "Cleo", "Dan"} {
		acts = append(acts, chromedp.SendKeys(fmt.Sprintf(`(//input[@name="player"])[%d]`, i+1), n))
	}
	acts = append(acts, chromedp.Clear(chromedp.CSS(`input[name=unit]`)), chromedp.SendKeys(chromedp.CSS(`input[name=unit]`), "0,50"),
		chromedp.SendKeys(chromedp.CSS(`input[name=currency]`), "CHF"),
		chromedp.Click(chromedp.CSS(`form button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`group-link`)))
	run(t, ctx, "start the group", acts...)
	loc := value(t, ctx, "location", chromedp.Location())
	gid := loc[strings.LastIndex(loc, "/")+1:]

	// Evening 1, started from the group's page: its start form is filled
	// with the members and the group's money.
	run(t, ctx, "start evening 1",
		chromedp.Click(chromedp.CSS(`a[href="/new/zuger?group=`+gid+`"]`)),
		chromedp.WaitReady(chromedp.CSS(`input[name=group]`)),
		chromedp.Click(chromedp.CSS(`form button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`live`)))
	loc = value(t, ctx, "location", chromedp.Location())
	first := loc[strings.LastIndex(loc, "/")+1:]
	for i, d := range []deal{zd("solo", "Ben", "70", "5"), zd("tapp", "Anna", "40", "3"), {contract: "pass"}, zd("super", "Cleo", "75", "6")} {
		recordDeal(t, ctx, i+1, d)
	}
	closeEvening(t, ctx)

	// Evening 2: "new evening, same players" on the closed table.
	run(t, ctx, "start evening 2",
		chromedp.Click(chromedp.CSS(`form[action="/g/`+first+`/again"] button`)),
		// The closed table has no "record" link: the new evening's has.
		chromedp.WaitVisible(chromedp.CSS(`a[href$="/record"]`)))
	loc = value(t, ctx, "location", chromedp.Location())
	second := loc[strings.LastIndex(loc, "/")+1:]
	if second == first {
		t.Fatal("no new evening")
	}
	var ledger struct {
		Dealer string            `json:"dealer"`
		Money  map[string]string `json:"money"`
		Closed bool              `json:"closed"`
	}
	getJSON(t, direct+"/api/games/"+second+"/ledger", &ledger)
	if ledger.Dealer != "Ben" {
		t.Fatalf("evening 2 is dealt first by %s, not Ben (the player after evening 1's first dealer)", ledger.Dealer)
	}
	for i, d := range []deal{zd("vice", "Dan", "100", "7"), zd("tapp", "Anna", "65", "5"), zd("solo", "Cleo", "50", "3")} {
		recordDeal(t, ctx, i+1, d)
	}
	closeEvening(t, ctx)

	// The independent sums: each closed evening's money from its ledger,
	// and each player's deals, declarations and wins from its deals.
	want := map[string]decimal.Decimal{}
	deals := map[string]int{}
	declared := map[string][2]int{}
	for _, id := range []string{first, second} {
		getJSON(t, direct+"/api/games/"+id+"/ledger", &ledger)
		if !ledger.Closed {
			t.Fatalf("evening %s is not closed", id)
		}
		for name, m := range ledger.Money {
			want[name] = want[name].Add(decimal.RequireFromString(m))
		}
		var hands []struct {
			Voided bool `json:"voided"`
			Detail struct {
				Declarer string `json:"declarer"`
				Outcome  string `json:"outcome"`
			} `json:"detail"`
		}
		getJSON(t, direct+"/api/games/"+id+"/hands", &hands)
		for _, hd := range hands {
			if hd.Voided {
				continue
			}
			for name := range ledger.Money {
				deals[name]++
			}
			if who := hd.Detail.Declarer; who != "" {
				d := declared[who]
				d[1]++
				if hd.Detail.Outcome == "won" {
					d[0]++
				}
				declared[who] = d
			}
		}
	}

	// The group's page lists both evenings; its tab is the sum.
	run(t, ctx, "open the group from the evening",
		chromedp.Click(chromedp.CSS(`a[href="/groups/`+gid+`"]`)), chromedp.WaitVisible(chromedp.ID(`group-link`)))
	if n := value(t, ctx, "count evenings", chromedp.Evaluate[int](`document.querySelectorAll('ul.evenings li').length`)); n != 2 {
		t.Fatalf("the group lists %d evenings", n)
	}
	run(t, ctx, "open the tab", chromedp.Click(chromedp.CSS(`nav a[href$="/tab"]`)), chromedp.WaitVisible(chromedp.CSS(`form.payment`)))
	if got := pageAmounts(t, ctx, `td[data-owed]`, "owed"); !sameAmounts(got, want) {
		shot(t, ctx, "tab")
		t.Fatalf("the tab shows %v, the evenings' ledgers sum to %v", got, want)
	}
	redWhenNegative(t, ctx, `td[data-owed]`)

	// Ben pays Anna 1,50 in cash.
	run(t, ctx, "record a payment",
		chromedp.SetValue(chromedp.CSS(`form.payment select[name=from]`), "Ben"),
		chromedp.SetValue(chromedp.CSS(`form.payment select[name=to]`), "Anna"),
		chromedp.SendKeys(chromedp.CSS(`form.payment input[name=amount]`), "1,50"),
		chromedp.SendKeys(chromedp.CSS(`form.payment input[name=note]`), "cash"),
		chromedp.Click(chromedp.CSS(`form.payment button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`payment-1`)))
	paid := map[string]decimal.Decimal{}
	for k, v := range want {
		paid[k] = v
	}
	paid["Ben"] = paid["Ben"].Add(decimal.RequireFromString("1.5"))
	paid["Anna"] = paid["Anna"].Sub(decimal.RequireFromString("1.5"))
	if got := pageAmounts(t, ctx, `td[data-owed]`, "owed"); !sameAmounts(got, paid) {
		shot(t, ctx, "tab-paid")
		t.Fatalf("after the payment the tab shows %v, want %v", got, paid)
	}
	// Voided, it no longer counts.
	run(t, ctx, "void the payment",
		chromedp.Click(chromedp.CSS(`#payment-1 summary`)),
		chromedp.SendKeys(chromedp.CSS(`#payment-1 input[name=reason]`), "paid twice"),
		chromedp.Click(chromedp.CSS(`#payment-1 button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payment-1.voided`)))
	if got := pageAmounts(t, ctx, `td[data-owed]`, "owed"); !sameAmounts(got, want) {
		shot(t, ctx, "tab-voided")
		t.Fatalf("after the void the tab shows %v, want %v", got, want)
	}

	// The stats: each player's net over the two evenings is the same sum,
	// their deals and declarations those counted from the deals.
	run(t, ctx, "open the stats", chromedp.Click(chromedp.CSS(`nav a[href$="/stats"]`)), chromedp.WaitVisible(chromedp.CSS(`.stat-cards`)))
	rows := value(t, ctx, "read the stats", chromedp.Evaluate[map[string]map[string]string](
		`Object.fromEntries([...document.querySelectorAll('.stat-cards li[data-player]')].map(r => [r.dataset.player,
			Object.fromEntries([...r.querySelectorAll('[data-stat]')].map(c => [c.dataset.stat, c.textContent.trim()]))]))`))
	for name, w := range want {
		r := rows[name]
		net, err := decimal.NewFromString(strings.NewReplacer("CHF", "", "−", "-", " ", "").Replace(r["net"]))
		if err != nil || !net.Equal(w) {
			t.Fatalf("%s's net on the stats page is %q, the ledgers sum to %s", name, r["net"], w)
		}
		if r["evenings"] != "2" || r["deals"] != fmt.Sprint(deals[name]) || r["declared"] != fmt.Sprintf("%d/%d", declared[name][0], declared[name][1]) {
			t.Fatalf("%s's stats %v; want 2 evenings, %d deals, %v declared", name, r, deals[name], declared[name])
		}
	}
	redWhenNegative(t, ctx, `h3 [data-stat=net]`)
	if n := value(t, ctx, "count chart lines", chromedp.Evaluate[int](`document.querySelectorAll('figure.chart path').length`)); n != 4 {
		t.Fatalf("the chart has %d lines", n)
	}

	// The start page lists what this phone opened: the group and both
	// evenings, newest first.
	run(t, ctx, "open the start page", chromedp.Navigate(base+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`#mine ul.mine li`)))
	hrefs := value(t, ctx, "read my evenings", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#mine a.mine-link')].map(a => a.getAttribute('href'))`))
	if fmt.Sprint(hrefs) != fmt.Sprint([]string{"/groups/" + gid, "/g/" + second, "/g/" + first}) {
		t.Fatalf("my evenings: %v", hrefs)
	}
	// Its form carries the token the evening's page handed over, since a
	// browser on plain HTTP may post it with "Origin: null".
	again := value(t, ctx, "read the again form", chromedp.Evaluate[[]string](
		`(f => [f.getAttribute('action'), (f.querySelector('input[name=form_token]') || {}).value || ''])(document.querySelector('#mine li:nth-child(2) form.mine-again'))`))
	if again[0] != "/g/"+second+"/again" || again[1] == "" {
		t.Fatalf("the again form of my evenings: action %q, token %q", again[0], again[1])
	}
	// Before the tap, the row says what it starts, in the start page's
	// language; so does the group's.
	abouts := value(t, ctx, "read what the taps start", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#mine li .mine-next')].map(p => p.hidden ? '' : p.textContent)`))
	if len(abouts) != 3 || abouts[1] != "Zuger Tapp again with Cleo, Dan, Anna, Ben: Cleo deals first." || !strings.Contains(abouts[0], "deals first") {
		shot(t, ctx, "mine-next")
		t.Fatalf("what my evenings' taps start: %q", abouts)
	}
	// "New evening, same players" from the list starts the third.
	run(t, ctx, "start evening 3 from my evenings",
		chromedp.Click(chromedp.CSS(`#mine li:nth-child(2) form.mine-again button`)),
		chromedp.WaitVisible(chromedp.ID(`live`)))
	loc = value(t, ctx, "location", chromedp.Location())
	third := loc[strings.LastIndex(loc, "/")+1:]
	var g3 struct {
		Players []string `json:"players"`
		Group   string   `json:"group"`
	}
	getJSON(t, direct+"/api/games/"+third, &g3)
	if third == second || g3.Group != gid || fmt.Sprint(g3.Players) != "[Cleo Dan Anna Ben]" {
		t.Fatalf("evening 3: %s %+v", third, g3)
	}
	// The same form posted as an insecure page may post it, Origin: null
	// with the token: the same third evening (the post is idempotent); with
	// another form's token it is refused.
	for _, c := range []struct {
		token string
		want  int
	}{{again[1], http.StatusSeeOther}, {forged(again[1]), http.StatusForbidden}} {
		// Straight to the handler: the browser's posts are the ones checked
		// for their Origin when the test ends.
		req := httptest.NewRequest(http.MethodPost, "http://tapp.test"+again[0], strings.NewReader(url.Values{"form_token": {c.token}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "null")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode != c.want || (c.want == http.StatusSeeOther && !strings.HasSuffix(res.Header.Get("Location"), "/g/"+third)) {
			t.Fatalf("again with Origin: null and token %q: %d to %q; want %d (to evening 3)", c.token, res.StatusCode, res.Header.Get("Location"), c.want)
		}
	}
}

// "My evenings" keeps one entry for an evening opened by its link and by
// its read-only link (the link that writes is the one kept), and names it
// in the start page's language, not the language it was opened in.
func TestBrowserMyEveningsOneEntryInThePagesLanguage(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	g := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"]}`), 201).json(t)
	id := g["id"].(string)
	read := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	ctx := browser(t, lanNames)
	run(t, ctx, "open the evening in German", chromedp.Navigate(base+"/g/"+id+"?lang=de"), chromedp.WaitVisible(chromedp.ID(`live`)))
	run(t, ctx, "open its read-only link", chromedp.Navigate(base+"/r/"+read+"?lang=de"), chromedp.WaitVisible(chromedp.ID(`live`)))
	run(t, ctx, "open the start page in Swedish", chromedp.Navigate(base+"/?lang=sv"), chromedp.WaitVisible(chromedp.CSS(`#mine ul.mine li`)))
	got := value(t, ctx, "read my evenings", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#mine li')].map(li =>
		li.querySelector('a.mine-link').getAttribute('href') + " " + li.querySelector('.mine-title').textContent)`))
	name := value(t, ctx, "the variant's Swedish name", chromedp.Evaluate[string](`document.querySelector('a[href="/new/old-tapp"] strong').textContent`))
	if want := []string{"/g/" + id + " " + name}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("my evenings: %q, want %q", got, want)
	}
	// On a phone each entry is a tap target of 44 px at least.
	run(t, ctx, "be a phone", asPhone("light"))
	if h := value(t, ctx, "the entry's height", chromedp.Evaluate[float64](`document.querySelector('#mine a.mine-link').getBoundingClientRect().height`)); h < 44 {
		t.Fatalf("an entry of my evenings is %.0f px tall, under 44", h)
	}
}

// forged is a token with its first character changed: another form's, or
// nobody's (a fixed "x" was the token itself one time in 64).
func forged(token string) string {
	if strings.HasPrefix(token, "x") {
		return "y" + token[1:]
	}
	return "x" + token[1:]
}

// Two newcomers at a group's evening, on a phone: asked about beside their
// names, then started by the second tap, both made members. (The names
// went back in one hidden field, one a line; a browser sends a line break
// as CRLF, and the first name never matched again: the evening could not
// be started at all.)
func TestBrowserTwoNewcomersStartAGroupsEvening(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	gid := createGroup(t, h, `{"name":"Thursday table","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)["id"].(string)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	run(t, ctx, "the group's evening with Erik and Fritz",
		chromedp.Navigate(base+"/new/zuger?group="+gid+"&lang=en"), chromedp.WaitVisible(chromedp.CSS(`fieldset.lineup`)),
		chromedp.Click(chromedp.CSS(tap("seat0", "Anna"))), chromedp.SendKeys(chromedp.CSS(`input[name=other1]`), "Erik"),
		chromedp.SendKeys(chromedp.CSS(`input[name=other2]`), "Fritz"), chromedp.Click(chromedp.CSS(tap("seat3", "Dan"))),
		chromedp.Click(chromedp.CSS(`form button.primary`)), chromedp.WaitVisible(chromedp.CSS(`#player1-error`)))
	if asked := text(t, ctx, `document.getElementById('player1-error').textContent + ' | ' + document.getElementById('player2-error').textContent`); asked != "“Erik” is not in this group yet: check the spelling, or tap “Start the evening” again to add Erik as a member. | “Fritz” is not in this group yet: check the spelling, or tap “Start the evening” again to add Fritz as a member." {
		t.Fatalf("asked: %q", asked)
	}
	run(t, ctx, "start it as asked", chromedp.Click(chromedp.CSS(`form button.primary`)),
		loaded(`location.pathname.startsWith('/g/')`))
	members := fmt.Sprint(do(t, h, "GET", "/api/groups/"+gid, "").json(t)["players"])
	if members != "[Anna Ben Cleo Dan Erik Fritz]" {
		t.Fatalf("the group's members after the evening started: %s", members)
	}
	gid2 := strings.TrimPrefix(text(t, ctx, `location.pathname`), "/g/")
	if seats := fmt.Sprint(do(t, h, "GET", "/api/games/"+gid2, "").json(t)["players"]); seats != "[Anna Erik Fritz Dan]" {
		t.Fatalf("the evening's seats: %s", seats)
	}
}
