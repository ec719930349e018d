package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// cutEvening is an old-tapp evening of Anna, Ben and Cleo whose two
// leftover pot units go by a cut: one deal passed, the pot of 2 among 3.
func cutEvening(t *testing.T, h http.Handler) string {
	t.Helper()
	v := players("Anna", "Ben", "Cleo")
	v.Set("remainder", "cut")
	id := startForm(t, h, "old-tapp", v)
	form(t, h, "/g/"+id+"/record", url.Values{"contract": {"pass"}})
	return id
}

// The close form asks who wins each leftover pot unit (rules.md, old Tapp,
// "Final split": the cut decides each unit left over); each unit is a radio
// group of its own, so two units can go to two players. A browser sends
// one value per group, as this test does.
func TestCloseFormCutEachUnitItsOwnChoice(t *testing.T) {
	h := newServer(t)
	id := cutEvening(t, h)
	body := page(t, h, "/g/"+id+"/close", "en").body
	groups := map[string]bool{}
	for _, m := range regexp.MustCompile(`type="radio" name="([^"]+)"`).FindAllStringSubmatch(body, -1) {
		groups[m[1]] = true
	}
	if len(groups) != 2 {
		t.Fatalf("the close form has radio groups %v, want one per leftover unit (2)", groups)
	}

	// Only one unit of two chosen, either one: refused (one name alone would
	// read as one winner for all), nothing closed.
	for _, only := range []string{"remainder_to.1", "remainder_to.2"} {
		r := form(t, h, "/g/"+id+"/close", url.Values{only: {"Cleo"}})
		if r.status != http.StatusUnprocessableEntity || errorNear(r.body, "") != "Choose who won each leftover unit." {
			t.Fatalf("only %s chosen: %d %q", only, r.status, errorNear(r.body, ""))
		}
		if !regexp.MustCompile(`name="` + regexp.QuoteMeta(only) + `" value="Cleo" checked`).MatchString(r.body) {
			t.Fatalf("the refused form lost the choice for %s", only)
		}
	}
	// A name not at the table for unit 2: refused, nothing closed, the
	// choice for unit 1 kept on the page.
	r := form(t, h, "/g/"+id+"/close", url.Values{"remainder_to.1": {"Ben"}, "remainder_to.2": {"Zoe"}})
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(r.body, ""), "Zoe") {
		t.Fatalf("a stranger wins unit 2: %d %q", r.status, errorNear(r.body, ""))
	}
	if !regexp.MustCompile(`name="remainder_to.1" value="Ben" checked`).MatchString(r.body) {
		t.Fatal("the refused form lost the choice for unit 1")
	}
	// A form about three leftover units (opened before another phone's
	// deal changed the pot) is about another pot: refused, not read as
	// the first two.
	r = form(t, h, "/g/"+id+"/close", url.Values{"remainder_to.1": {"Ben"}, "remainder_to.2": {"Cleo"}, "remainder_to.3": {"Anna"}})
	if r.status != http.StatusUnprocessableEntity || !strings.HasPrefix(errorNear(r.body, ""), "The pot has changed since this page was opened (a deal was recorded): 2 units are left over now.") {
		t.Fatalf("a choice for a third unit of two: %d %q", r.status, errorNear(r.body, ""))
	}
	if r := form(t, h, "/g/"+id+"/close", url.Values{"remainder_to.1": {"Ben"}, "remainder_to.2": {"Cleo"}}); r.status != http.StatusSeeOther {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	var s struct {
		RemainderTo []string `json:"remainder_to"`
	}
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/games/"+id+"/settlement", "").body), &s); err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.RemainderTo, ",") != "Ben,Cleo" {
		t.Fatalf("the cut went to %v, want Ben and Cleo one unit each", s.RemainderTo)
	}
	// The closed table and the history say where the pot went.
	for lang, want := range map[string]string{
		"en": "The pot of 2 went to the players: Anna 0, Ben 1, Cleo 1. The 2 leftover units went to Ben and Cleo.",
		"de": "Der Pott von 2 ging an die Spieler: Anna 0, Ben 1, Cleo 1. Die 2 übrig gebliebenen Einheiten gingen an Ben und Cleo.",
		"sv": "Potten på 2 gick till spelarna: Anna 0, Ben 1, Cleo 1. De 2 överblivna enheterna gick till Ben och Cleo.",
	} {
		for _, path := range []string{"/g/" + id, "/g/" + id + "/audit"} {
			if text := visibleText(page(t, h, path, lang).body); !strings.Contains(text, want) {
				t.Errorf("%s (%s) does not say %q: %s", path, lang, want, text)
			}
		}
	}
}

// One winner of the cut for both units, and a game with no pot to share,
// in words.
func TestWherePotWent(t *testing.T) {
	h := newServer(t)
	id := cutEvening(t, h)
	if r := form(t, h, "/g/"+id+"/close", url.Values{"remainder_to.1": {"Cleo"}, "remainder_to.2": {"Cleo"}}); r.status != http.StatusSeeOther {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	if text := visibleText(page(t, h, "/g/"+id, "de").body); !strings.Contains(text, "Die 2 übrig gebliebenen Einheiten gingen an Cleo (2).") {
		t.Errorf("both units to Cleo: %s", text)
	}
	// The closed evening's own page names the cut's winner too, not only
	// how many units were left over.
	if text := words(page(t, h, "/g/"+id+"/close", "en").body); !strings.Contains(text, "The 2 leftover units went to Cleo (2).") || strings.Contains(text, "left over.") {
		t.Errorf("the closed evening's close page: %s", text)
	}
	// Where the house rule gives the leftover units to the biggest loser,
	// the page says so and names whom before the evening is closed
	// (rules.md, old-tapp "End of the session": Anna −7, Ben +10, Cleo −5
	// before the split of a pot of 2).
	loser, _ := do(t, h, "POST", "/api/games", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":{"remainder":"biggest-loser"}}`).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+loser+"/hands", `{"contract":"solo","declarer":"Ben","trump":"clubs","points":70}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+loser+"/hands", `{"contract":"pass"}`), 201)
	if text := words(page(t, h, "/g/"+loser+"/close", "en").body); !strings.Contains(text, "By the house rule, the 2 leftover units go to the biggest loser: Anna (2).") {
		t.Errorf("the biggest loser's leftover units: %s", text)
	}
	// A pot that shares out equally leaves nothing over: said so, not "0
	// units left over".
	even := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	for range 3 {
		mustStatus(t, do(t, h, "POST", "/api/games/"+even+"/hands", `{"contract":"pass"}`), 201)
	}
	for lang, want := range map[string]string{"en": "The pot of 6 is shared equally, with nothing left over.", "sv": "Potten på 6 delas lika, och inget blir över."} {
		if text := visibleText(page(t, h, "/g/"+even+"/close", lang).body); !strings.Contains(text, want) {
			t.Errorf("%s: a pot of 6 among three: %s", lang, text)
		}
	}
	zuger := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+zuger+"/record", zugerSolo)
	redirect(t, h, "/g/"+zuger+"/close", url.Values{})
	if body := page(t, h, "/g/"+zuger, "en").body; strings.Contains(body, "pot-went") {
		t.Errorf("a game without a pot says where its pot went: %s", visibleText(body))
	}
	// The history's "Evening ended" says who paid whom, as the table does.
	if audit := visibleText(page(t, h, "/g/"+zuger+"/audit", "en").body); !strings.Contains(audit, "Anna pays Ben €1.00. Cleo pays Ben €1.00. Dan pays Ben €1.00.") {
		t.Errorf("the history of the closing does not say who pays whom: %s", audit)
	}
}

// The same on a phone, from a page loaded by a LAN name over plain HTTP:
// tapping Anna for unit 1 and Cleo for unit 2 gives each one unit.
func TestBrowserCutTwoUnitsToTwoPlayers(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "pass"})
	run(t, ctx, "end the evening with the cut",
		chromedp.Click(chromedp.CSS(`a[href$="/close"]`)),
		chromedp.WaitVisible(chromedp.CSS(`fieldset.picks`)),
		chromedp.Click(chromedp.CSS(tap("remainder_to.1", "Anna"))),
		chromedp.Click(chromedp.CSS(tap("remainder_to.2", "Cleo"))),
		cutShown(),
		chromedp.Click(chromedp.CSS(`form button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`p.closed`)))
	shot(t, ctx, "cut-two-units")
	var s struct {
		RemainderTo []string `json:"remainder_to"`
	}
	apiGet(t, base, "/api/games/"+id+"/settlement", &s)
	if strings.Join(s.RemainderTo, ",") != "Anna,Cleo" {
		t.Fatalf("tapping Anna, then Cleo gave the units to %v", s.RemainderTo)
	}
}

// Voiding a deal on its page says so on the table, and names the later
// deals re-scored because the pot before them changed (old-tapp: a solo
// takes the pot as it stands).
func TestVoidSaysWhatItChanged(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	// Anna's coeurfrage lost: 3 into the pot besides her stake, which a
	// void leaves there (rules.md "Decisions").
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Anna","points":50}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Cleo","trump":"clubs","points":70}`), 201)
	loc := location(t, h, "/g/"+id+"/hands/1/void", url.Values{"reason": {"misdeal"}})
	text := visibleText(page(t, h, loc, "en").body)
	if !strings.Contains(text, "Deal 1 voided (Misdeal): it no longer counts. Re-scored, since the pot before it changed: deal 2.") {
		t.Fatalf("the table after a void (%s): %s", loc, text)
	}
	// A correction that moves the pot says the same.
	loc = location(t, h, "/g/"+id+"/hands/1", url.Values{"contract": {"coeurfrage"}, "declarer": {"Anna"}, "points": {"50"}, "reason": {"it was played after all"}})
	if text := visibleText(page(t, h, loc, "de").body); !strings.Contains(text, "Spiel 1 zählt wieder. Neu berechnet, weil sich der Pott davor geändert hat: Spiel 2.") {
		t.Fatalf("the table after bringing it back: %s", text)
	}
}

// Who pays whom is seen before the evening is ended for good: with a
// winner chosen for every leftover unit, the close page shows what closing
// with that cut gives (the page's script asks for it as the radios are
// tapped), said as the cut chosen, not recorded; the close then fixes
// exactly that (rules.md, old-tapp "End of the session": until the cut is
// recorded nothing may pretend to know who wins it; here it is chosen).
func TestClosePreviewsTheCutAsChosen(t *testing.T) {
	h := newServer(t)
	id := cutEvening(t, h)
	pays := regexp.MustCompile(`<li data-from[^>]*>([^<]*)</li>`)
	transfers := func(body string) []string {
		var out []string
		for _, m := range pays.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		return out
	}
	if body := page(t, h, "/g/"+id+"/close?remainder_to.1=Ben", "en").body; len(transfers(body)) != 0 || !strings.Contains(words(body), "The cut is still undecided") {
		t.Fatalf("one unit of two chosen: %s", words(body))
	}
	preview := page(t, h, "/g/"+id+"/close?remainder_to.1=Ben&remainder_to.2=Cleo", "en").body
	if text := words(preview); !strings.Contains(text, "With the cut as chosen, the 2 leftover units go to Ben and Cleo: so the evening ends like this.") || strings.Contains(text, "undecided") {
		t.Fatalf("the cut as chosen: %s", text)
	}
	want := []string{"Anna pays Ben €0.50", "Anna pays Cleo €0.50"}
	if got := transfers(preview); strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("with the cut as chosen the page says %q, want %q", got, want)
	}
	if !regexp.MustCompile(`name="remainder_to.2" value="Cleo" checked`).MatchString(preview) {
		t.Fatal("the preview lost the choice for unit 2")
	}
	if r := do(t, h, "GET", "/api/games/"+id+"/ledger", ""); !strings.Contains(r.body, `"closed":false`) {
		t.Fatalf("a preview closed the evening: %s", r.body)
	}
	// A cut for more units than the pot leaves (chosen on a page opened
	// before another deal) is no preview.
	if body := page(t, h, "/g/"+id+"/close?remainder_to.1=Ben&remainder_to.2=Cleo&remainder_to.3=Ben", "en").body; strings.Contains(words(body), "as chosen") || len(transfers(body)) != 0 {
		t.Fatalf("a cut of three units previewed for a pot leaving two: %s", words(body))
	}
	redirect(t, h, "/g/"+id+"/close", url.Values{"remainder_to.1": {"Ben"}, "remainder_to.2": {"Cleo"}})
	if got := transfers(page(t, h, "/g/"+id+"/close", "en").body); strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("closed with the cut previewed, the evening says %q, want %q", got, want)
	}
}

// On the phone, the payments show as the cut is tapped in, before the
// evening is ended: no page to load, the choices kept.
func TestBrowserCutShowsWhoPaysWhomBeforeTheEnd(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	id := cutEvening(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	run(t, ctx, "the end of the evening", chromedp.Navigate(base+"/g/"+id+"/close?lang=sv"), chromedp.WaitVisible(chromedp.CSS(`form[data-cut]`)))
	run(t, ctx, "unit 1 to Ben", chromedp.Click(chromedp.CSS(tap("remainder_to.1", "Ben"))))
	if n := text(t, ctx, `String(document.querySelectorAll('#settle ul.transfers li').length)`); n != "0" {
		t.Fatalf("with one unit of two chosen, %s payments are shown", n)
	}
	run(t, ctx, "unit 2 to Cleo", chromedp.Click(chromedp.CSS(tap("remainder_to.2", "Cleo"))),
		loaded(`document.querySelectorAll('#settle ul.transfers li').length === 2`))
	if got := text(t, ctx, `[...document.querySelectorAll('#settle ul.transfers li')].map(li => li.textContent).join('; ')`); got != "Anna betalar Ben 0,50 €; Anna betalar Cleo 0,50 €" {
		t.Fatalf("the payments with the cut as chosen: %q", got)
	}
	if where := text(t, ctx, `location.search + ' ' + document.querySelector('input[name="remainder_to.2"][value=Cleo]').checked`); where != "?lang=sv true" {
		t.Fatalf("after the choice: %q", where)
	}
	run(t, ctx, "end the evening", chromedp.Click(chromedp.CSS(`form[data-cut] button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`p.closed`)))
}

// A deal recorded on another phone after who pays whom was shown: the
// close is refused with the evening as it stands now (409), the cut kept
// where it still applies; ended from that page, it closes.
func TestCloseRefusesAnEveningChangedSinceShown(t *testing.T) {
	h := newServer(t)
	id := cutEvening(t, h)
	seen := regexp.MustCompile(`name="seen" value="(\d+)"`)
	shown := page(t, h, "/g/"+id+"/close?remainder_to.1=Ben&remainder_to.2=Cleo", "en").body
	m := seen.FindStringSubmatch(shown)
	if m == nil {
		t.Fatal("the close page does not carry the version it shows")
	}
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Ben","points":58,"tricks":4}`); r.status != 201 {
		t.Fatalf("another phone's deal: %d %s", r.status, r.body)
	}
	cut := url.Values{"remainder_to.1": {"Ben"}, "remainder_to.2": {"Cleo"}, "seen": {m[1]}}
	r := form(t, h, "/g/"+id+"/close", cut)
	if r.status != http.StatusConflict || !strings.Contains(errorNear(r.body, ""), "The evening has changed since who pays whom was shown") {
		t.Fatalf("closing on numbers shown before another deal: %d %q", r.status, errorNear(r.body, ""))
	}
	if ledger := do(t, h, "GET", "/api/games/"+id+"/ledger", "").body; !strings.Contains(ledger, `"closed":false`) {
		t.Fatalf("the refused close closed the evening: %s", ledger)
	}
	now := seen.FindStringSubmatch(r.body)
	if now == nil || now[1] == m[1] {
		t.Fatalf("the page after the refusal shows version %v, the one refused was %s", now, m[1])
	}
	// Ended with a cut the page did not show the payments of (a choice
	// changed while its answer was lost): shown first, not closed.
	cut.Set("seen", now[1])
	cut["seen_cut"] = []string{"Cleo", "Cleo"}
	r = form(t, h, "/g/"+id+"/close", cut)
	if r.status != http.StatusConflict || errorNear(r.body, "") != "Who pays whom with this cut is shown above: check it, then end the evening." {
		t.Fatalf("closing with a cut not shown: %d %q", r.status, errorNear(r.body, ""))
	}
	if !strings.Contains(r.body, `name="seen_cut" value="Ben"`) || !strings.Contains(words(r.body), "go to Ben and Cleo") {
		t.Fatalf("the cut sent is not the one shown now: %s", words(r.body))
	}
	// A seen that is no version never matches.
	cut["seen_cut"] = []string{"Ben", "Cleo"}
	cut.Set("seen", "abc")
	if r := form(t, h, "/g/"+id+"/close", cut); r.status != http.StatusConflict {
		t.Fatalf("closing with seen=abc: %d", r.status)
	}
	cut.Set("seen", now[1])
	redirect(t, h, "/g/"+id+"/close", cut)
	if ledger := do(t, h, "GET", "/api/games/"+id+"/ledger", "").body; !strings.Contains(ledger, `"closed":true`) {
		t.Fatalf("closed from the page as it stands: %s", ledger)
	}
	// Ended again from another tab: the evening is closed, said so.
	if r := form(t, h, "/g/"+id+"/close", cut); r.status != http.StatusConflict || errorNear(r.body, "") != "This evening is closed; nothing more can be recorded or changed unless it is reopened, with a reason." {
		t.Fatalf("ending a closed evening: %d %q", r.status, errorNear(r.body, ""))
	}
}
