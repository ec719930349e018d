package web

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// missingGroupText is a raw message key of the group pages, or a broken verb.
var missingGroupText = regexp.MustCompile(`%!|\b(group|tab|stats|mine|evening|new|table|close|share|err)\.[a-z-]+\b`)

// newGroupForm starts a group through its form and gives its id.
func newGroupForm(t *testing.T, h http.Handler, v url.Values) string {
	t.Helper()
	return strings.TrimPrefix(location(t, h, "/groups/new", v), "/groups/")
}

// location posts a form and gives where it redirects.
func location(t *testing.T, h http.Handler, path string, v url.Values) string {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("POST %s: %d %s", path, rec.Code, rec.Body.String())
	}
	return rec.Header().Get("Location")
}

func TestGroupPagesFlow(t *testing.T) {
	h := newServer(t)
	// The form says, where the unit is chosen, that Württemberg Tapp counts
	// it per cent (a group left at 1 played it for a hundred times the
	// usual), and the field is described by it.
	newForm := page(t, h, "/groups/new", "sv").body
	if !strings.Contains(words(newForm), "Württembergsk Tapp räknar i cent, så ett gäng som spelar den om ören skriver 0,01 här.") ||
		!regexp.MustCompile(`<input name="unit"[^>]*aria-describedby="unit-hint"`).MatchString(newForm) {
		t.Errorf("the group form's unit: %s", words(newForm))
	}
	key := url.Values{"idempotency_key": {"g1"}, "name": {"Thursday table"}, "player": {"Anna", "Ben", "", ""}, "unit": {"0,50"}, "currency": {"chf"}}
	gid := newGroupForm(t, h, key)
	// The same form sent twice starts one group.
	if again := strings.TrimPrefix(location(t, h, "/groups/new", key), "/groups/"); again != gid {
		t.Fatalf("a repeated form started group %s after %s", again, gid)
	}
	g := do(t, h, "GET", "/api/groups/"+gid, "").json(t)
	if g["unit"] != "0.50" || g["currency"] != "CHF" {
		t.Fatalf("group %v", g)
	}

	// An evening of the group from its start form, prefilled with the
	// members and the group's money.
	f := page(t, h, "/new/zuger?group="+gid, "en")
	if !strings.Contains(f.body, `name="group" value="`+gid+`"`) || !strings.Contains(f.body, `value="Anna"`) || !strings.Contains(f.body, `name="unit" value="0.50"`) {
		t.Fatalf("the start form of a group's evening: %s", f.body)
	}
	if strings.Contains(f.body, "counts in cents") {
		t.Fatal("a Zuger evening of the group is said to count in cents")
	}
	// The group's money is the evening's (api.md: it must match): said,
	// not offered as fields that could only be refused.
	if w := html.UnescapeString(visibleText(f.body)); !strings.Contains(w, "One unit is worth CHF 0.50: this group's money, the same every evening.") ||
		!strings.Contains(f.body, `<input type="hidden" name="unit" value="0.50">`) || !strings.Contains(f.body, `<input type="hidden" name="currency" value="CHF">`) {
		t.Fatalf("the group's money on its evening's start form: %s", f.body)
	}
	if de := visibleText(page(t, h, "/new/zuger?group="+gid, "de").body); !strings.Contains(de, "Eine Einheit ist CHF 0.50 wert: das Geld dieser Runde, an jedem Abend gleich.") {
		t.Fatalf("the group's money, in German: %s", de)
	}
	// A game that counts in cents says what the group's unit makes of a cent.
	if w := visibleText(page(t, h, "/new/wuerttemberg?group="+gid, "en").body); !strings.Contains(w, "This group plays for CHF 0.50 a unit, and this game counts in cents: here each cent of the game is worth CHF 0.50. A group that plays it for cents has 0.01 as its unit.") {
		t.Fatalf("the Württemberg start form of a group at 0.50 a unit: %s", w)
	}
	// A money without cents (yen) is not told to play for 0.01.
	yen := createGroup(t, h, `{"name":"Tokyo","players":["Anna","Ben","Cleo"],"unit":"10","currency":"JPY"}`)["id"].(string)
	if w := visibleText(page(t, h, "/new/wuerttemberg?group="+yen, "en").body); !strings.Contains(w, "here each cent of the game is worth") || strings.Contains(w, "0.01") {
		t.Fatalf("the Württemberg start form of a yen group: %s", w)
	}
	// A group that plays in a money of three places ("2.500" dinars): its
	// evening's form is prefilled so that it is not refused as a thousand.
	kwd := createGroup(t, h, `{"name":"Kuwait","players":["Anna","Ben","Cleo","Dan"],"unit":"2.500","currency":"KWD"}`)["id"].(string)
	if f := page(t, h, "/new/zuger?group="+kwd, "en"); !strings.Contains(f.body, `name="unit" value="2.5"`) {
		t.Fatalf("the start form of a 2.500 KWD group's evening: %s", visibleText(f.body))
	}
	startForm(t, h, "zuger", url.Values{"player": {"Anna", "Ben", "Cleo", "Dan"}, "unit": {"2.5"}, "currency": {"KWD"}, "group": {kwd}})
	// Prefilled as a person here types it: 0,50 on a Swedish page.
	for lang, want := range map[string]string{"sv": `name="unit" value="0,50"`, "en": `name="unit" value="0.50"`} {
		if f := page(t, h, "/new/zuger?group="+gid, lang); !strings.Contains(f.body, want) {
			t.Fatalf("the %s start form of a 0.50 group's evening: %s", lang, visibleText(f.body))
		}
	}
	// Cleo and Dan are not members yet: asked about once, beside their
	// names (a mistyped "Ana" would be a second Anna, and split the tab),
	// nothing started; sent again as asked, the evening starts and adds
	// them.
	evening := url.Values{"player": {"Anna", "Ben", "Cleo", "Dan"}, "unit": {"0.50"}, "currency": {"CHF"}, "group": {gid}}
	ask := form(t, h, "/new/zuger", evening)
	if said := errorNear(ask.body, "player2"); ask.status != http.StatusOK || said != "“Cleo” is not in this group yet: check the spelling, or tap “Start the evening” again to add Cleo as a member." || errorNear(ask.body, "player0") != "" {
		t.Fatalf("an evening with two newcomers: %d %q", ask.status, said)
	}
	if !strings.Contains(ask.body, `name="new_members" value="Cleo"`) || !strings.Contains(ask.body, `name="new_members" value="Dan"`) {
		t.Fatal("the form asking about the newcomers does not carry them")
	}
	if evenings := do(t, h, "GET", "/api/groups/"+gid, "").json(t)["evenings"].([]any); len(evenings) != 0 {
		t.Fatalf("asking about the newcomers started an evening: %v", evenings)
	}
	// Another newcomer typed meanwhile is asked about; the one asked
	// about already is not asked again.
	evening["new_members"] = []string{"Cleo", "Dan"}
	evening["player"] = []string{"Anna", "Ben", "Cleo", "Dana"}
	if ask := form(t, h, "/new/zuger", evening); ask.status != http.StatusOK || errorNear(ask.body, "player3") == "" || errorNear(ask.body, "player2") != "" {
		t.Fatalf("a name changed after the question: %d %q, %q", ask.status, errorNear(ask.body, "player3"), errorNear(ask.body, "player2"))
	}
	// A member's name written otherwise is said at the same time as the
	// question about a newcomer: one round of corrections.
	evening["new_members"], evening["player"] = nil, []string{"anna", "Ben", "Cleo", "Dan"}
	ask = form(t, h, "/new/zuger", evening)
	if errorNear(ask.body, "player0") != `"anna" is a member of this group written "Anna"; write the name the same way.` || errorNear(ask.body, "player2") == "" {
		t.Fatalf("a member written otherwise beside a newcomer: %q, %q", errorNear(ask.body, "player0"), errorNear(ask.body, "player2"))
	}
	// Corrected, and the newcomers as asked about (in any order): started.
	evening["new_members"], evening["player"] = []string{"Dan", "Cleo"}, []string{"Anna", "Ben", "Cleo", "Dan"}
	gameID := startForm(t, h, "zuger", evening)
	// A unit that is not the group's is refused on the form.
	r := form(t, h, "/new/zuger", url.Values{"player": {"Anna", "Ben", "Cleo", "Dan"}, "unit": {"1"}, "currency": {"CHF"}, "group": {gid}})
	if r.status != 422 || !strings.Contains(errorNear(r.body, "unit"), "One unit of this group's evenings is worth 0.50, not 1") {
		t.Fatalf("another unit: %d %s", r.status, errorNear(r.body, "unit"))
	}
	// In Swedish both amounts as they are typed there, with a decimal
	// comma, the group's as it was given.
	r = form(t, h, "/new/zuger", url.Values{"player": {"Anna", "Ben", "Cleo", "Dan"}, "unit": {"1,25"}, "currency": {"CHF"}, "group": {gid}}, "Accept-Language", "sv")
	if got := errorNear(r.body, "unit"); r.status != 422 || !strings.HasPrefix(got, "En enhet är värd 0,50 på det här gängets kvällar, inte 1,25;") {
		t.Fatalf("another unit, in Swedish: %d %s", r.status, got)
	}
	for _, d := range []string{`{"contract":"tapp","declarer":"Anna","points":70,"tricks":5}`, `{"contract":"solo","declarer":"Ben","points":40,"tricks":3}`} {
		mustStatus(t, do(t, h, "POST", "/api/games/"+gameID+"/hands", d), 201)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+gameID+"/close", "{}"), 200)
	// The evening's page links its group and offers the next evening,
	// saying beside the button which game it starts and who deals first.
	table := page(t, h, "/g/"+gameID, "en")
	if !strings.Contains(table.body, `href="/groups/`+gid+`"`) || !strings.Contains(table.body, `action="/g/`+gameID+`/again"`) {
		t.Fatalf("table: %s", table.body)
	}
	if !strings.Contains(visibleText(table.body), "Zuger Tapp again with Ben, Cleo, Dan, Anna: Ben deals first.") {
		t.Fatalf("the closed table does not say what the next evening is: %s", visibleText(table.body))
	}
	if de := page(t, h, "/g/"+gameID, "de"); !strings.Contains(visibleText(de.body), "Nochmals Zuger Tapp mit Ben, Cleo, Dan, Anna: Ben gibt zuerst.") {
		t.Fatalf("German closed table: %s", visibleText(de.body))
	}

	// The group's page lists it; the next evening passes the deal on, and
	// a second tap opens the same one.
	gp := page(t, h, "/groups/"+gid, "en")
	if !strings.Contains(gp.body, "Zuger Tapp again with Ben, Cleo, Dan, Anna: Ben deals first.") || !strings.Contains(gp.body, `href="/g/`+gameID+`"`) {
		t.Fatalf("group page: %s", visibleText(gp.body))
	}
	next := location(t, h, "/g/"+gameID+"/again", url.Values{})
	if again := location(t, h, "/g/"+gameID+"/again", url.Values{}); again != next {
		t.Fatalf("a second tap started %s after %s", again, next)
	}
	// The group's "next evening" follows its newest evening, now that one.
	third := location(t, h, "/groups/"+gid+"/again", url.Values{})
	if third == next || !strings.HasPrefix(third, "/g/") {
		t.Fatalf("the group's next evening: %s after %s", third, next)
	}
	// Nobody dealt in the second yet: the deal is not passed on again.
	if n := do(t, h, "GET", "/api/games/"+strings.TrimPrefix(third, "/g/"), "").json(t)["players"]; fmt.Sprint(n) != "[Ben Cleo Dan Anna]" {
		t.Fatalf("seats of the third evening: %v", n)
	}
	// Evenings of one day are told apart by their number, newest first.
	gp = page(t, h, "/groups/"+gid, "de")
	for n, href := range map[int]string{1: "/g/" + gameID, 2: next, 3: third} {
		if !strings.Contains(gp.body, fmt.Sprintf(`<a href="%s">Abend %d · <strong>Zuger Tapp</strong>`, href, n)) {
			t.Fatalf("evening %d (%s) in the group's list: %s", n, href, visibleText(gp.body))
		}
	}
	if i1, i3 := strings.Index(gp.body, "Abend 1 ·"), strings.Index(gp.body, "Abend 3 ·"); i3 > i1 {
		t.Fatal("the group's evenings are not listed newest first")
	}

	// Members: one added, one refused next to its field.
	location(t, h, "/groups/"+gid+"/members", url.Values{"player": {"Eva"}})
	r = form(t, h, "/groups/"+gid+"/members", url.Values{"player": {"eva"}})
	if r.status != 422 || !strings.Contains(errorNear(r.body, "player"), `"eva" is a member of this group written "Eva"`) {
		t.Fatalf("member refused: %d %q", r.status, errorNear(r.body, "player"))
	}
	// Named again: said so, not taken silently.
	if r := form(t, h, "/groups/"+gid+"/members", url.Values{"player": {"Eva"}}, "Accept-Language", "sv"); r.status != 422 || errorNear(r.body, "player") != "Eva är redan medlem." {
		t.Fatalf("a member named again: %d %q", r.status, errorNear(r.body, "player"))
	}
	// Left blank (without a script): the one field is asked for, not
	// "player 1".
	if r := form(t, h, "/groups/"+gid+"/members", url.Values{"player": {" "}}, "Accept-Language", "de"); r.status != 422 || errorNear(r.body, "player") != "Bitte den Namen des neuen Mitglieds schreiben." {
		t.Fatalf("a blank member: %d %q", r.status, errorNear(r.body, "player"))
	}

	// The tab: Anna +3 +2 = 5 units, Ben −1 −6 = −7, Cleo and Dan +1.
	tab := page(t, h, "/groups/"+gid+"/tab", "en")
	for name, want := range map[string]string{"Anna": "CHF 2.50", "Ben": "−CHF 3.50", "Cleo": "CHF 0.50", "Dan": "CHF 0.50"} {
		if !strings.Contains(tab.body, `data-owed="`+name+`">`+want+`<`) {
			t.Fatalf("%s is not owed %s: %s", name, want, visibleText(tab.body))
		}
	}
	// A payment typed the German way; a refused one keeps what was typed.
	location(t, h, "/groups/"+gid+"/payments", url.Values{"from": {"Ben"}, "to": {"Anna"}, "amount": {"2,50"}, "note": {"bar"}})
	r = form(t, h, "/groups/"+gid+"/payments", url.Values{"from": {"Ben"}, "to": {"Anna"}, "amount": {"0,005"}}, "Accept-Language", "de")
	if r.status != 422 || !strings.Contains(errorNear(r.body, "amount"), "mehr Nachkommastellen als das Geld dieser Runde (2)") || !strings.Contains(r.body, `value="0,005"`) {
		t.Fatalf("payment refused: %d %q", r.status, errorNear(r.body, "amount"))
	}
	// "1,000" is a thousand or one, by the keyboard: refused in words,
	// never recorded as either.
	for _, typed := range []string{"1,000", "1.000", "12.500"} {
		r = form(t, h, "/groups/"+gid+"/payments", url.Values{"from": {"Ben"}, "to": {"Anna"}, "amount": {typed}})
		if r.status != 422 || !strings.Contains(errorNear(r.body, "amount"), `"`+typed+`" could be a thousand or a number with decimals`) {
			t.Fatalf("a payment of %s: %d %q", typed, r.status, errorNear(r.body, "amount"))
		}
	}
	if r := form(t, h, "/groups/new", url.Values{"name": {"y"}, "player": {"Anna", "Ben"}, "unit": {"1.000"}}, "Accept-Language", "de"); r.status != 422 || !strings.Contains(errorNear(r.body, "unit"), "1.000“ könnte tausend") {
		t.Fatalf("a group's unit of 1.000: %d %q", r.status, errorNear(r.body, "unit"))
	}
	if sv := visibleText(page(t, h, "/groups/"+gid+"/tab", "sv").body); !strings.Contains(sv, "Vad den avslutade kvällen gav, minus") {
		t.Fatalf("the tab of one closed evening, in Swedish: %s", sv)
	}
	// The refused form's page switches language and theme on the tab's
	// address, which loads; the form's own would be refused.
	for _, switchTo := range []string{`/groups/` + gid + `/tab?lang=sv`, `/groups/` + gid + `/tab?theme=dark`} {
		if !strings.Contains(r.body, `href="`+html.EscapeString(switchTo)+`"`) {
			t.Fatalf("the refused payment's page does not switch on the tab (%s): %s", switchTo, r.body)
		}
		if got := page(t, h, switchTo, "de"); got.status != http.StatusOK {
			t.Fatalf("%s: %d", switchTo, got.status)
		}
	}
	r = form(t, h, "/groups/"+gid+"/payments", url.Values{"from": {"Ben"}, "to": {"Ben"}, "amount": {"1"}})
	if r.status != 422 || !strings.Contains(r.body, "Ben cannot pay themselves") {
		t.Fatalf("payment to oneself: %d %s", r.status, visibleText(r.body))
	}
	// The select at fault is marked and points at its message, as every
	// other refused field (the script clears both once it is changed).
	marked := regexp.MustCompile(`<select name="(from|to)"[^>]*aria-invalid="true"[^>]*aria-describedby="(from|to)-error"`).FindStringSubmatch(r.body)
	if marked == nil || marked[1] != marked[2] || !strings.Contains(errorNear(r.body, marked[1]), "Ben cannot pay themselves") {
		t.Fatalf("the refused payment's select is not marked with its message: %s", r.body)
	}
	if r := form(t, h, "/groups/"+gid+"/members", url.Values{"player": {"x\ty"}}); r.status != 422 || !strings.Contains(r.body, `href="/groups/`+gid+`?lang=de"`) {
		t.Fatalf("a refused member's page does not switch language on the group's page: %d %s", r.status, r.body)
	}
	tab = page(t, h, "/groups/"+gid+"/tab", "en")
	if !strings.Contains(tab.body, "Ben paid Anna CHF 2.50") || !strings.Contains(tab.body, `data-owed="Ben">−CHF 1.00<`) {
		t.Fatalf("tab after the payment: %s", visibleText(tab.body))
	}
	// Cash rounding shows rounded transfers and keeps the exact amounts.
	if cash := page(t, h, "/groups/"+gid+"/tab?cash=1", "en"); !strings.Contains(cash.body, "Rounded for cash, to CHF 0.05") {
		t.Fatalf("cash: %s", visibleText(cash.body))
	}
	// A void needs a reason, shown next to the payment's form.
	r = form(t, h, "/groups/"+gid+"/payments/1/void", url.Values{"reason": {" "}})
	if r.status != 422 || !strings.Contains(errorNear(r.body, "reason-1"), "Say why this payment is voided") {
		t.Fatalf("void without a reason: %d %q", r.status, errorNear(r.body, "reason-1"))
	}
	// Voided, the tab says so at its top, above what is owed now, as it
	// says a payment saved.
	voided := location(t, h, "/groups/"+gid+"/payments/1/void", url.Values{"reason": {"paid by mistake"}})
	if said := words(page(t, h, voided, "en").body); !regexp.MustCompile(`Payment 1 voided: Ben paid Anna CHF [0-9.]+\. It no longer counts in the tab\.`).MatchString(said) {
		t.Fatalf("after the void, at %s: %s", voided, said)
	}
	tab = page(t, h, "/groups/"+gid+"/tab", "en")
	if !strings.Contains(tab.body, "voided: paid by mistake") || !strings.Contains(tab.body, `data-owed="Ben">−CHF 3.50<`) {
		t.Fatalf("tab after the void: %s", visibleText(tab.body))
	}
	if r := form(t, h, "/groups/"+gid+"/payments/1/void", url.Values{"reason": {"again"}}); r.status != 409 {
		t.Fatalf("void twice: %d", r.status)
	} else if !strings.Contains(r.body, `href="/groups/`+gid+`/tab?lang=sv"`) || strings.Contains(r.body, `href="/g/`+gid) || !strings.Contains(r.body, ">Back to the group<") {
		// The error page of a group's post leads back to the group's tab,
		// not to an evening of the group's id, which there is not.
		t.Fatalf("a group's error page links elsewhere: %s", r.body)
	}
	// The void's address asked with a GET goes to the tab.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/groups/"+gid+"/payments/1/void?lang=de", nil))
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/groups/"+gid+"/tab?lang=de" {
		t.Fatalf("GET of a payment's void: %d %q", rec.Code, rec.Header().Get("Location"))
	}

	stats := page(t, h, "/groups/"+gid+"/stats", "en")
	if !strings.Contains(stats.body, `data-player="Anna"`) || !strings.Contains(stats.body, `<dd data-stat="declared">1/1</dd>`) ||
		!strings.Contains(stats.body, `data-line="Anna">Anna CHF 2.50<`) {
		t.Fatalf("stats: %s", stats.body)
	}
	// One closed evening is said as one, not "over the 1 closed evenings".
	if sv := words(page(t, h, "/groups/"+gid+"/stats", "sv").body); !strings.Contains(sv, "Gängets enda avslutade kväll.") {
		t.Errorf("the Swedish stats of one evening: %s", sv)
	}
	// What "won / declared" counts is said: how the deal ended at the table.
	if !strings.Contains(words(stats.body), "Won / declared counts each deal as it ended at the table") {
		t.Errorf("the stats page does not say what won / declared counts: %s", words(stats.body))
	}
	// #36: cards, no table to scroll sideways; the records say who, how
	// much and when.
	if strings.Contains(stats.body, `class="scroll"`) || !strings.Contains(words(stats.body), "Best evening Anna, CHF 2.50 (") {
		t.Fatalf("the stats cards: %s", words(stats.body))
	}
	// The chart has axes: the money at its top and bottom, written as the
	// legend writes it (a Swiss franc with a point, in German too), and
	// the day of the evening it ends with.
	evenings := do(t, h, "GET", "/api/groups/"+gid, "").json(t)["evenings"].([]any)
	started, err := time.Parse(time.RFC3339, evenings[0].(map[string]any)["started"].(string))
	if err != nil {
		t.Fatal(err)
	}
	// The group notes the evening a moment after the evening started: the
	// chart's instant is the group's, within a second of it.
	tick := regexp.MustCompile(`class="tick x" data-datetime="([^"]+)" data-show="date">([^<]+)</text>`)
	for lang, top := range map[string]string{"en": "2.50", "de": "2.50"} {
		chart := page(t, h, "/groups/"+gid+"/stats", lang).body
		m := tick.FindStringSubmatch(chart)
		if !strings.Contains(chart, `class="axis"`) || !strings.Contains(chart, `class="tick y">`+top+`</text>`) || m == nil {
			t.Fatalf("%s: the group's chart has no axes, no %s at its top or no day at its end: %s", lang, top, chart)
		}
		at, err := time.Parse(time.RFC3339, m[1])
		if err != nil || at.Sub(started).Abs() > 2*time.Second || m[2] != at.In(time.Local).Format("2006-01-02") {
			t.Fatalf("%s: the chart ends with %s at %s, the evening started at %s", lang, m[2], m[1], started)
		}
	}

	// Read-only: the group, its tab and stats, no form, no key that writes.
	rid := g["read_id"].(string)
	for _, path := range []string{"/r/" + rid, "/r/" + rid + "/tab", "/r/" + rid + "/stats"} {
		ro := page(t, h, path, "en")
		if ro.status != 200 || strings.Contains(ro.body, gid) || strings.Contains(ro.body, gameID) || strings.Contains(ro.body, "<form") {
			t.Fatalf("%s: %d %s", path, ro.status, ro.body)
		}
	}
	// Its page promises no more than its link gives: no word of starting
	// evenings or recording payments, a QR code said to be read-only.
	if ro := page(t, h, "/r/"+rid, "en").body; strings.Contains(ro, "can start evenings") || !strings.Contains(ro, `aria-label="QR code of the read-only link"`) {
		t.Fatalf("the read-only group page offers what it cannot give: %s", visibleText(ro))
	}
	if w := page(t, h, "/groups/"+gid, "en").body; !strings.Contains(w, "can start evenings") || !strings.Contains(w, `aria-label="QR code of the link to this group"`) {
		t.Fatalf("the group page does not say what its link gives: %s", visibleText(w))
	}
	if r := form(t, h, "/r/"+rid+"/payments", url.Values{"from": {"Ben"}, "to": {"Anna"}, "amount": {"1"}}); r.status < 400 {
		t.Fatalf("a payment through the read-only link: %d", r.status)
	}

	// Every page of a group speaks every language, with no key missing.
	for _, lang := range []string{"en", "de", "sv"} {
		for _, path := range []string{"/groups/new", "/groups/" + gid, "/groups/" + gid + "/tab", "/groups/" + gid + "/tab?cash=1", "/groups/" + gid + "/stats", "/r/" + rid, "/", "/g/" + gameID} {
			r := page(t, h, path, lang)
			if r.status != 200 {
				t.Fatalf("%s %s: %d", lang, path, r.status)
			}
			if m := missingGroupText.FindString(visibleText(r.body)); m != "" {
				t.Fatalf("%s %s shows %q", lang, path, m)
			}
		}
	}
}

func TestGroupPagesRefusals(t *testing.T) {
	h := newServer(t)
	r := form(t, h, "/groups/new", url.Values{"name": {" "}, "player": {"Anna"}})
	if r.status != 422 || !strings.Contains(errorNear(r.body, "name"), "Give the group a name") || !strings.Contains(r.body, `value="Anna"`) {
		t.Fatalf("no name: %d %q", r.status, errorNear(r.body, "name"))
	}
	r = form(t, h, "/groups/new", url.Values{"name": {"x"}, "unit": {"zero"}})
	if r.status != 422 || errorNear(r.body, "unit") == "" {
		t.Fatalf("bad unit: %d %s", r.status, r.body)
	}
	// Every problem at once, each next to its field: no name, a name twice,
	// a unit that is no amount, a currency that is no code; nothing made.
	r = form(t, h, "/groups/new", url.Values{"name": {""}, "player": {"Erik", "", "erik"}, "unit": {"abc"}, "currency": {"SE"}})
	for field, says := range map[string]string{"name": "Give the group a name", "player2": "Erik", "unit": "abc", "currency": "SE"} {
		if got := errorNear(r.body, field); r.status != 422 || !strings.Contains(got, says) {
			t.Errorf("%s: %d %q, want it to mention %q", field, r.status, got, says)
		}
	}
	if errorNear(r.body, "player1") != "" {
		t.Error("a seat left empty is refused")
	}
	if r := page(t, h, "/groups/nosuchgroup", "en"); r.status != 404 || !strings.Contains(r.body, "There is no group with this id") && !strings.Contains(r.body, "there is no group with this id") {
		t.Fatalf("unknown group: %d %s", r.status, visibleText(r.body))
	}
	gid := newGroupForm(t, h, url.Values{"name": {"x"}})
	if r := form(t, h, "/groups/"+gid+"/again", url.Values{}); r.status != 409 {
		t.Fatalf("the next evening of a group with none: %d", r.status)
	}
}

// "Paid" next to a payment of the plan records it in one tap, whatever
// letters the names hold (the form's key was made of the names, and a key
// must be ASCII: Jürgen could not pay).
func TestPaidInOneTapWithAnUmlaut(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, `{"name":"Donnerstag","players":["Jürgen","Åsa","Björn","Dan"],"unit":"0.50","currency":"CHF"}`)["id"].(string)
	game := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, "Jürgen", "Åsa", "Björn", "Dan")), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+game+"/hands", `{"contract":"solo","declarer":"Åsa","points":70,"tricks":5}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+game+"/close", "{}"), 200)
	tab := page(t, h, "/groups/"+gid+"/tab", "de").body
	m := regexp.MustCompile(`(?s)<li data-from="Jürgen" data-to="Åsa"[^>]*>.*?name="idempotency_key" value="([^"]+)".*?name="amount" value="([^"]+)"`).FindStringSubmatch(tab)
	if m == nil {
		t.Fatalf("no one-tap payment from Jürgen to Åsa on the tab: %s", visibleText(tab))
	}
	paid := url.Values{"idempotency_key": {html.UnescapeString(m[1])}, "from": {"Jürgen"}, "to": {"Åsa"}, "amount": {m[2]}}
	saved := location(t, h, "/groups/"+gid+"/payments", paid)
	if p := do(t, h, "GET", "/api/groups/"+gid+"/tab", "").body; !strings.Contains(p, `"Jürgen":"0.00"`) {
		t.Fatalf("after Jürgen paid, the tab: %s", p)
	}
	// The tab says it was saved, in a sentence that ends.
	if text := visibleText(page(t, h, saved, "de").body); !regexp.MustCompile(`Zahlung 1 gespeichert: Jürgen hat Åsa CHF [0-9.,]+ bezahlt\.`).MatchString(text) {
		t.Fatalf("the tab after paying (%s): %s", saved, text)
	}
	// A second phone showing the same tab taps the same "Paid" (at once,
	// or minutes later from its old page): the one payment, not two.
	if again := location(t, h, "/groups/"+gid+"/payments", paid); again != saved {
		t.Fatalf("the second tap: %s, the first: %s", again, saved)
	}
	if p := do(t, h, "GET", "/api/groups/"+gid+"/tab", "").body; !strings.Contains(p, `"Jürgen":"0.00"`) {
		t.Fatalf("after the second tap, the tab: %s", p)
	}
	// A tab rendered again on either phone offers the same keys: the same
	// tab, the same payment.
	again := regexp.MustCompile(`name="idempotency_key" value="(paid-[^"]+)"`).FindAllStringSubmatch(page(t, h, "/groups/"+gid+"/tab", "en").body, -1)
	same := regexp.MustCompile(`name="idempotency_key" value="(paid-[^"]+)"`).FindAllStringSubmatch(page(t, h, "/groups/"+gid+"/tab", "sv").body, -1)
	if len(again) == 0 || fmt.Sprint(again) != fmt.Sprint(same) {
		t.Fatalf("the tab's keys: %v and %v", again, same)
	}
}

// Rounded for cash to whole kronor, 0.40 owed is nothing to pay in coins;
// the tab says so, not that everyone is square (the exact tab still has
// it owed).
func TestCashRoundingSaysWhatIsStillOwed(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, `{"name":"Torsdag","players":["Anna","Ben"],"unit":"0.10","currency":"SEK"}`)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Anna","to":"Ben","amount":"0.40"}`), 201)
	cash := visibleText(page(t, h, "/groups/"+gid+"/tab?cash=1", "sv").body)
	if strings.Contains(cash, "Alla är kvitt") || !strings.Contains(cash, "Avrundat till") || !strings.Contains(cash, "finns inget kvar att betala kontant") {
		t.Fatalf("the cash tab with 0,40 owed: %s", cash)
	}
	if exact := visibleText(page(t, h, "/groups/"+gid+"/tab", "sv").body); strings.Contains(exact, "Alla är kvitt") {
		t.Fatalf("the exact tab with 0,40 owed: %s", exact)
	}
}

// An evening started by mistake and closed with nothing played does not
// pass the deal on: the next evening's first dealer is the one it had.
func TestNextEveningAfterAnEmptyOne(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, `{"name":"T","players":["Anna","Ben","Cleo","Dan"]}`)["id"].(string)
	first := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Ben","Cleo","Dan","Anna"],"group":"`+gid+`"}`), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/close", "{}"), 200)
	if text := visibleText(page(t, h, "/g/"+first, "en").body); !strings.Contains(text, "Zuger Tapp again with Ben, Cleo, Dan, Anna: Ben deals first.") {
		t.Fatalf("the closed empty evening: %s", text)
	}
	next := mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/again", ""), 201).json(t)
	if fmt.Sprint(next["players"]) != "[Ben Cleo Dan Anna]" {
		t.Fatalf("the evening after an empty one: %v", next["players"])
	}
}

// A tester started a second evening from the group's page while the last
// was still open, and the first was left out of the tab: while the newest
// evening is open, the page offers to go on with it first and says why.
func TestGroupPageOffersTheOpenEveningFirst(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, `{"name":"T","players":["Anna","Ben","Cleo","Dan"]}`)["id"].(string)
	first := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)

	open := page(t, h, "/groups/"+gid, "en").body
	if w := visibleText(open); !strings.Contains(w, "Evening 1 is still open: it counts in the tab once it is closed.") {
		t.Errorf("the group's page with an open evening: %s", w)
	}
	if !regexp.MustCompile(`<a class="button primary big" id="go-on" href="/g/` + first + `">Go on with evening 1</a>`).MatchString(open) {
		t.Errorf("no way on to the open evening first: %s", open)
	}
	// "New evening, same players" is still there, no longer the first choice.
	if !regexp.MustCompile(`<button type="submit" class="big" id="next-evening">`).MatchString(open) {
		t.Errorf("the next evening's button beside an open one: %s", open)
	}
	if w := visibleText(page(t, h, "/groups/"+gid, "de").body); !strings.Contains(w, "Abend 1 ist noch offen: Er zählt in der Rechnung, sobald er abgeschlossen ist.") {
		t.Errorf("in German: %s", w)
	}

	// The link to show a friend who should only read has a QR code too.
	if n := strings.Count(open, `<svg class="qr"`); n != 2 || !strings.Contains(open, `aria-label="QR code of the read-only link"`) {
		t.Errorf("%d QR codes on the group's page, want the group's and its read-only link's", n)
	}
	if ro := page(t, h, "/r/"+createdReadID(t, h, gid), "en").body; strings.Count(ro, `<svg class="qr"`) != 1 || strings.Contains(ro, "still open") {
		t.Errorf("the read-only group page: %s", words(ro))
	}

	// Evening 1 left open, evening 2 started and closed: evening 1 is
	// still said (a tester's case: the tab settled evening 2 alone).
	second := mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/again", ""), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+second+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+second+"/close", "{}"), 200)
	older := page(t, h, "/groups/"+gid, "en").body
	if w := words(older); !strings.Contains(w, "Evening 1 is still open") || !regexp.MustCompile(`id="go-on" href="/g/`+first+`">Go on with evening 1<`).MatchString(older) {
		t.Errorf("an older evening left open: %s", w)
	}
	// Two open: each is said, the newest is the one to go on with.
	third := mustStatus(t, do(t, h, "POST", "/api/games/"+second+"/again", ""), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+third+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)
	both := page(t, h, "/groups/"+gid, "en").body
	if w := words(both); !strings.Contains(w, "Evening 3 is still open") || !strings.Contains(w, "Evening 1 is still open") ||
		!regexp.MustCompile(`id="go-on" href="/g/`+third+`">Go on with evening 3<`).MatchString(both) {
		t.Errorf("two evenings open: %s", w)
	}

	for _, id := range []string{first, third} {
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", "{}"), 200)
	}
	closed := page(t, h, "/groups/"+gid, "en").body
	if strings.Contains(closed, `id="go-on"`) || strings.Contains(closed, "still open") ||
		!regexp.MustCompile(`<button type="submit" class="big primary" id="next-evening">`).MatchString(closed) {
		t.Errorf("the group's page once the evenings are closed: %s", closed)
	}
	// Three evenings of one day: the chart's ends say their times, as the
	// day alone would not tell them apart (a tester saw one date twice).
	stats := page(t, h, "/groups/"+gid+"/stats", "en").body
	// (Here they all started in one minute, so the chart marks its end.)
	if n := len(regexp.MustCompile(`class="tick x" data-datetime="[^"]+" data-show="minute">\d{4}-\d\d-\d\d \d\d:\d\d</text>`).FindAllString(stats, -1)); n == 0 || regexp.MustCompile(`class="tick x" data-datetime="[^"]+" data-show="date"`).MatchString(stats) {
		t.Errorf("the chart of three evenings of one day has %d ends with a time: %s", n, stats)
	}
}

// createdReadID is a group's read-only id, from the API.
func createdReadID(t *testing.T, h http.Handler, gid string) string {
	t.Helper()
	return mustStatus(t, do(t, h, "GET", "/api/groups/"+gid, ""), 200).json(t)["read_id"].(string)
}
