package web

import (
	"encoding/csv"
	"github.com/shopspring/decimal"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"tappbook/internal/events"
)

// The tests of issue #15 that need no browser (phone_browser_test.go has
// the rest): what the pages say and do after each tap.

// redirect posts a form and gives where it sends the browser.
func redirect(t *testing.T, h http.Handler, path string, v url.Values, headers ...string) string {
	t.Helper()
	req := postFrom(h, path, v, headers...)
	if req.Code != http.StatusSeeOther {
		t.Fatalf("%s: %d %s", path, req.Code, req.Body.String())
	}
	return req.Header().Get("Location")
}

// before reports whether a occurs in s, and before b.
func before(s, a, b string) bool {
	i, j := strings.Index(s, a), strings.Index(s, b)
	return i >= 0 && j >= 0 && i < j
}

var zugerSolo = url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}

// #15.1: a save opens the table at its top, not at the deal: the next
// Record button and the standings come first, the new deal is marked.
func TestSaveOpensTheTableAtItsTop(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	to := redirect(t, h, "/g/"+id+"/record", zugerSolo)
	if to != "/g/"+id+"?saved=1" {
		t.Fatalf("a save sends the browser to %q, want the table's top with the deal marked (no #fragment)", to)
	}
	body := page(t, h, to, "en").body
	if !before(body, `Record deal 2</a>`, `<table class="standings"`) || !before(body, `<table class="standings"`, `id="hand-1"`) {
		t.Fatal("the table does not put the Record button, then the standings, before the deals")
	}
	if !strings.Contains(body, `<li id="hand-1" class="fresh"`) {
		t.Fatal("the saved deal is not marked")
	}
	if !strings.Contains(body, "Deal 1 saved.") {
		t.Fatalf("no word of the save: %s", visibleText(body))
	}
	if strings.Contains(page(t, h, "/g/"+id, "en").body, `class="fresh"`) {
		t.Fatal("a deal is marked on the plain table")
	}
}

// #36.1: "Undo deal N" is one tap on the table, on every phone, for as long
// as it is the last deal, saying what it takes back: a retract (api.md), so
// the same number and dealer come next; the way back records it again.
func TestUndoInOneTap(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+id+"/record", zugerSolo)
	// Not only in the saved flash: the plain table, as another phone sees it.
	body := page(t, h, "/g/"+id, "en").body
	m := regexp.MustCompile(`action="(/g/[^"]+/hands/1/undo)"[^>]*>.*?name="idempotency_key" value="([^"]+)"[^>]*>\s*<button[^>]*aria-label="([^"]+)"[^>]*>Undo deal 1</button>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no one-tap undo on the table: %s", visibleText(body))
	}
	if !strings.HasPrefix(m[3], "Undo deal 1: Solo by Ben won") {
		t.Fatalf("the undo does not say what it takes back: %q", m[3])
	}
	undo := url.Values{"idempotency_key": {m[2]}}
	if to := redirect(t, h, m[1], undo); to != "/g/"+id+"?undone=1" {
		t.Fatalf("undo sends the browser to %q", to)
	}
	// The tap sent twice counts once.
	if r := postFrom(h, m[1], undo); r.Code != http.StatusSeeOther {
		t.Fatalf("the same undo again: %d %s", r.Code, r.Body.String())
	}
	if hands := listHands(t, h, id); len(hands) != 0 {
		t.Fatalf("after the undo: %v", hands)
	}
	evs := do(t, h, "GET", "/api/games/"+id+"/events", "").body
	if strings.Count(evs, `"hand.retracted"`) != 1 || strings.Contains(evs, `"hand.voided"`) {
		t.Fatalf("the undo is not one retract: %s", evs)
	}
	body = page(t, h, "/g/"+id+"?undone=1", "en").body
	if strings.Contains(visibleText(body), "opponent.. ") {
		t.Errorf("the undo's sentence has two full stops: %s", visibleText(body))
	}
	for _, want := range []string{"Deal 1 taken back: Solo by Ben won", "Anna deals deal 1 again.", "Bring deal 1 back", "Record deal 1"} {
		if !strings.Contains(body, want) {
			t.Fatalf("after the undo the table lacks %q: %s", want, visibleText(body))
		}
	}
	if de := page(t, h, "/g/"+id+"?undone=1", "de").body; !strings.Contains(de, "Spiel 1 zurückgenommen") {
		t.Fatal("the German table does not say the deal was taken back")
	}
	if audit := words(page(t, h, "/g/"+id+"/audit", "en").body); !strings.Contains(audit, "Deal taken back (undo)") {
		t.Fatalf("the History does not show the undo: %s", audit)
	}
	m = regexp.MustCompile(`action="(/g/[^"]+/hands/1/redo)"[^>]*>.*?name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no way back from the undo")
	}
	if to := redirect(t, h, m[1], url.Values{"idempotency_key": {m[2]}}); to != "/g/"+id+"?saved=1" {
		t.Fatalf("redo sends the browser to %q", to)
	}
	led := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)
	if led["balances"].(map[string]any)["Ben"] != "6" || led["hands"] != 1.0 {
		t.Fatalf("the deal is not back as it was: %v", led)
	}
	// A correction leaves the undo there: it takes the deal back as it now
	// stands, and says so.
	fix := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"80"}, "tricks": {"6"}, "reason": {"miscounted"}}
	redirect(t, h, "/g/"+id+"/hands/1", fix)
	if body := page(t, h, "/g/"+id+"?saved=1", "en").body; !strings.Contains(body, "Deal 1 corrected.") || !strings.Contains(body, "Undo deal 1: Solo by Ben won with 80") {
		t.Fatalf("after a correction: %s", visibleText(body))
	}
	// Once another deal follows, the undo is no longer offered for deal 1.
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"pass"}})
	if body := page(t, h, "/g/"+id, "en").body; strings.Contains(body, "Undo deal 1") || !strings.Contains(body, "Undo deal 2") {
		t.Fatalf("the undo after deal 2: %s", visibleText(body))
	}
	// A deal undone before undo was a retract (a void "undone") is brought
	// back as it was then.
	do(t, h, "POST", "/api/games/"+id+"/hands/2/void", `{"reason":"undone"}`)
	if to := redirect(t, h, "/g/"+id+"/hands/2/redo", url.Values{"idempotency_key": {"old-redo"}}); to != "/g/"+id+"?saved=2" {
		t.Fatalf("the old undo's way back sends the browser to %q", to)
	}
	if hands := listHands(t, h, id); len(hands) != 2 || hands[1]["voided"] != false {
		t.Fatalf("the old undo is not brought back: %v", hands)
	}
}

// #15.3: another contract keeps what was tapped and typed, on record and
// on correct (the script carries the values in the link; the server fills
// them in).
func TestAnotherContractKeepsTheForm(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	body := page(t, h, "/g/"+id+"/record?contract=super&declarer=Ben&points=70&tricks=5", "en").body
	for _, want := range []string{`name="declarer" value="Ben" checked`, `name="points" value="70"`, `name="tricks" value="5" checked`} {
		if !strings.Contains(body, want) {
			t.Fatalf("the super form lost %q", want)
		}
	}
	redirect(t, h, "/g/"+id+"/record", zugerSolo)
	body = page(t, h, "/g/"+id+"/hands/1?contract=vice", "en").body
	for _, want := range []string{`name="contract" value="vice"`, `name="declarer" value="Ben" checked`, `name="points" value="70"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("correcting deal 1 as vice lost %q", want)
		}
	}
	body = page(t, h, "/g/"+id+"/hands/1?contract=vice&declarer=Dan", "en").body
	if !strings.Contains(body, `name="declarer" value="Dan" checked`) {
		t.Fatal("what was tapped on the correction is not kept over the record")
	}
}

// #15.4: on the end page a share from the pot is not coloured as a loss,
// and money does not wrap.
func TestEndPageColours(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"coeurfrage"}, "declarer": {"Ben"}, "points": {"40"}})
	body := page(t, h, "/g/"+id+"/close", "de").body
	if !strings.Contains(body, `<td class="num share">`) || strings.Contains(body, `class="num share bal"`) {
		t.Fatal("the pot's shares are not set apart from the balances")
	}
	css := page(t, h, "/static/app.css", "en").body
	if !strings.Contains(css, ".neg .bal{color:var(--bad)}") || strings.Contains(css, ".neg .num{color") {
		t.Fatal("the stylesheet colours every number of a losing row, the pot's share too")
	}
	if !strings.Contains(css, "td.num{white-space:nowrap}") {
		t.Fatal("money may wrap")
	}
}

// #15.5: Herz-As is asked again on a page of its own and can be taken
// back; the ♥A question takes the Record button's place and offers "in the
// tapp"; after the last Zwangsramsch the table's big button ends the
// evening.
func TestHerzAsConfirmUndoAndEnd(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	suit := url.Values{"contract": {"suit"}, "declarer": {"Anna"}, "trump": {"clubs"}, "points": {"70"}}
	redirect(t, h, "/g/"+id+"/record", suit)
	table := page(t, h, "/g/"+id, "en").body
	if !strings.Contains(table, `<a class="button" href="/g/`+id+`/herz-as">Announce Herz-As`) || strings.Contains(table, `action="/g/`+id+`/herz-as"`) {
		t.Fatal("Herz-As is not a link to its own page")
	}
	confirm := page(t, h, "/g/"+id+"/herz-as", "en")
	if confirm.status != 200 || !strings.Contains(confirm.body, "Herz-As was said after deal 1") || !strings.Contains(confirm.body, "whoever is dealt ♥A in deal 2") {
		t.Fatalf("the confirm page: %d %s", confirm.status, visibleText(confirm.body))
	}
	key := regexp.MustCompile(`name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(confirm.body)[1]
	redirect(t, h, "/g/"+id+"/herz-as", url.Values{"idempotency_key": {key}})
	redirect(t, h, "/g/"+id+"/herz-as", url.Values{"idempotency_key": {key}}) // sent twice: once
	table = page(t, h, "/g/"+id, "en").body
	// Taking it back is asked on a page of its own as well: a second tap
	// on Save lands where its link is, and must not take it back.
	if !strings.Contains(table, `<a class="button" href="/g/`+id+`/herz-as/withdraw">Take back Herz-As`) || strings.Contains(table, `action="/g/`+id+`/herz-as/withdraw"`) {
		t.Fatal("taking Herz-As back is not a link to its own page")
	}
	withdraw := page(t, h, "/g/"+id+"/herz-as/withdraw", "en")
	if withdraw.status != 200 || !strings.Contains(withdraw.body, "Take back Herz-As?") || !strings.Contains(withdraw.body, "as if Herz-As had not been said") {
		t.Fatalf("the page that takes Herz-As back: %d %s", withdraw.status, visibleText(withdraw.body))
	}
	if led := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); led["end"] == nil {
		t.Fatal("opening the page took Herz-As back")
	}
	key = regexp.MustCompile(`name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(withdraw.body)[1]
	redirect(t, h, "/g/"+id+"/herz-as/withdraw", url.Values{"idempotency_key": {key}})
	if led := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); led["end"] != nil {
		t.Fatalf("after taking Herz-As back: %v", led["end"])
	}
	redirect(t, h, "/g/"+id+"/herz-as", url.Values{})
	redirect(t, h, "/g/"+id+"/record", suit) // deal 2: who got ♥A?
	table = page(t, h, "/g/"+id, "en").body
	if !before(table, "Who was dealt ♥A in deal 2?", `<table class="standings"`) || strings.Contains(table, "Record deal 3") {
		t.Fatal("the ♥A question is not where the Record button was")
	}
	if !strings.Contains(table, `<button type="submit" class="pick" name="player" value="">in the tapp</button>`) {
		t.Fatal("the ♥A question does not offer \"in the tapp\"")
	}
	redirect(t, h, "/g/"+id+"/herz-as/holder", url.Values{"player": {""}})
	end := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["end"].(map[string]any)
	if end["holder"] != nil || end["question_hand"] != 3.0 {
		t.Fatalf("\"in the tapp\" did not pass the question on: %v", end)
	}
	redirect(t, h, "/g/"+id+"/record", suit)                                   // deal 3
	redirect(t, h, "/g/"+id+"/herz-as/holder", url.Values{"player": {"Anna"}}) // Anna deals 1, 4: 4 is the last regular deal
	ramsch := url.Values{"contract": {"ramsch"}, "ramsch_points_0": {"50"}, "ramsch_tricks_0": {"5"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"4"}}
	redirect(t, h, "/g/"+id+"/record", suit)
	for range 3 { // 5, 6, 7
		redirect(t, h, "/g/"+id+"/record", ramsch)
	}
	table = page(t, h, "/g/"+id, "en").body
	if !strings.Contains(table, `<a class="button primary big" href="/g/`+id+`/close">End the evening</a>`) || strings.Contains(table, "Record deal") {
		t.Fatalf("after the last Zwangsramsch: %s", visibleText(table))
	}
	// Correcting a Zwangsramsch offers Ramsch alone: another contract
	// would be refused only after it was filled in.
	if edit := page(t, h, "/g/"+id+"/hands/6", "en").body; strings.Contains(edit, `href="?contract=suit"`) || !strings.Contains(edit, `name="ramsch_points_0"`) {
		t.Fatalf("the correction form of a Zwangsramsch offers another contract: %s", visibleText(edit))
	}
	if edit := page(t, h, "/g/"+id+"/hands/4", "en").body; !strings.Contains(edit, `href="?contract=ramsch"`) {
		t.Fatal("the correction form of the last regular deal does not offer every contract")
	}
	// The record page, opened anyway (a bookmark, the back button), says
	// the evening is over before anything is typed.
	if r := page(t, h, "/g/"+id+"/record", "de"); r.status != http.StatusConflict || !strings.Contains(r.body, "Der Abend ist vorbei") || strings.Contains(r.body, `name="contract"`) {
		t.Fatalf("the record page after the last Zwangsramsch: %d %s", r.status, visibleText(r.body))
	}
	// Voiding the last Zwangsramsch keeps its turn taken: the evening stays
	// over, and the standings name nobody who deals next.
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/7/void", `{"reason":"misdeal"}`), 200)
	if body := page(t, h, "/g/"+id+"?saved=7", "en").body; strings.Contains(body, `<span class="tag">deals</span>`) || strings.Contains(body, "Record deal") {
		t.Fatalf("the standings mark a dealer of a deal that will never be dealt: %s", visibleText(body))
	}
	// Undoing it (a retract) takes it back as if never recorded: it is to
	// be dealt again, by the same player.
	saved := page(t, h, "/g/"+id, "en").body
	m := regexp.MustCompile(`action="(/g/[^"]+/hands/7/undo)"[^>]*>.*?name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(saved)
	if m == nil {
		t.Fatalf("no undo after the last Zwangsramsch: %s", visibleText(saved))
	}
	redirect(t, h, m[1], url.Values{"idempotency_key": {m[2]}})
	body := page(t, h, "/g/"+id+"?undone=7", "en").body
	if undone := visibleText(body); !strings.Contains(undone, "Deal 7 taken back: voided: Misdeal.") || !strings.Contains(undone, "deals deal 7 again") || !strings.Contains(undone, "Record deal 7") {
		t.Fatalf("after undoing the last Zwangsramsch: %s", undone)
	}
	// The history says each Herz-As fact in words, not only as data.
	audit := visibleText(page(t, h, "/g/"+id+"/audit", "en").body)
	for _, want := range []string{"Herz-As announced", "lay in the tapp; the question passes to the next deal.", "Deal 3: Anna was dealt ♥A."} {
		if !strings.Contains(audit, want) {
			t.Fatalf("the history does not say %q: %s", want, audit)
		}
	}
}

// #15.6: where tricks alone decide, won or lost is one tap and the count is
// asked only when lost; Ramsch takes "no trick" in one tap and fills in the
// last player's points and tricks; the record kept is whole.
func TestQuickEntryRecordsWholeRecords(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo", "Dan"))
	record := func(v url.Values) int {
		t.Helper()
		v.Set("expected_hand", "")
		return postFrom(h, "/g/"+id+"/record", v).Code
	}
	form := page(t, h, "/g/"+id+"/record?contract=bettel", "en").body
	if !strings.Contains(form, `name="outcome" value="won"`) || strings.Contains(form, `name="tricks" value="0"`) || strings.Contains(form, `id="points"`) {
		t.Fatal("the bettel form does not ask won or lost, with the count (never 0) only for lost, and no points")
	}
	if c := record(url.Values{"contract": {"bettel"}, "declarer": {"Ben"}, "outcome": {"won"}}); c != http.StatusSeeOther {
		t.Fatalf("bettel won: %d", c)
	}
	// Lost is lost, whatever the count (api.md "won"): no count asked.
	if c := record(url.Values{"contract": {"durch"}, "declarer": {"Anna"}, "trump": {"spades"}, "outcome": {"lost"}}); c != http.StatusSeeOther {
		t.Fatalf("durch lost without a count: %d", c)
	}
	if hands := listHands(t, h, id); len(hands) != 2 || hands[1]["detail"].(map[string]any)["outcome"] != "lost" {
		t.Fatalf("durch lost is not recorded as lost: %v", hands)
	}
	if c := record(url.Values{"contract": {"durch"}, "declarer": {"Anna"}, "trump": {"spades"}, "outcome": {"lost"}, "tricks": {"6"}}); c != http.StatusSeeOther {
		t.Fatalf("durch lost with 6: %d", c)
	}
	if c := record(url.Values{"contract": {"rufer"}, "declarer": {"Cleo"}, "trump": {"hearts"}, "outcome": {"won"}, "tricks": {"3"}}); c != http.StatusSeeOther {
		t.Fatalf("rufer won: %d", c)
	}
	// Dan took no trick (one tap); Cleo's points and tricks follow.
	if c := record(url.Values{"contract": {"ramsch"}, "ramsch_points_0": {"50"}, "ramsch_tricks_0": {"3"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"3"},
		"ramsch_none_3": {"true"}}); c != http.StatusSeeOther {
		t.Fatalf("quick Ramsch: %d", c)
	}
	hands := listHands(t, h, id)
	recs := make([]map[string]any, len(hands))
	for i, x := range hands {
		recs[i] = x["record"].(map[string]any)
	}
	if recs[0]["tricks"] != 0.0 || recs[1]["won"] != false || recs[1]["tricks"] != nil || recs[2]["tricks"] != 6.0 || recs[3]["tricks"] != 8.0 {
		t.Fatalf("tricks kept: bettel %v, durch lost %v/%v, durch %v, rufer %v; want 0, lost without a count, 6 and every trick (8, not the 3 left behind by a lost tap)",
			recs[0]["tricks"], recs[1]["won"], recs[1]["tricks"], recs[2]["tricks"], recs[3]["tricks"])
	}
	ramsch := recs[4]["ramsch"].(map[string]any)
	want := map[string][2]float64{"Anna": {50, 3}, "Ben": {40, 3}, "Cleo": {30, 2}, "Dan": {0, 0}}
	for name, w := range want {
		s := ramsch[name].(map[string]any)
		if s["points"] != w[0] || s["tricks"] != w[1] {
			t.Fatalf("Ramsch %s: %v, want %v points and %v tricks", name, s, w[0], w[1])
		}
	}
	if d := hands[4]["deltas"].(map[string]any); d["Dan"] != "10" || d["Anna"] != "-20" {
		t.Fatalf("the Ramsch scored %v: Anna pays, Dan is a Jungfer", d)
	}
	ramschForm := page(t, h, "/g/"+id+"/record?contract=ramsch", "sv").body
	if !strings.Contains(ramschForm, "inget stick") || !strings.Contains(ramschForm, `data-total="120" data-tricks="8"`) {
		t.Fatal("the Swedish Ramsch form lacks \"no trick\" or what the last count is filled from")
	}
	// Zuger's count of tricks names its ends.
	z := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	zf := page(t, h, "/g/"+z+"/record?contract=solo", "en").body
	if !strings.Contains(zf, "<span>0 · none</span>") || !strings.Contains(zf, "<span>8 · all</span>") {
		t.Fatal("Zuger's tricks do not name no trick and every trick")
	}
}

// #15.8: a correction's history shows the result before and after; one
// without a reason reads well; the audit and the CSV give local times and
// the CSV money as well as units; a closed table shows one set of balances.
func TestHistoryAuditAndCSV(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+id+"/record", zugerSolo)
	do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Ben","points":60,"tricks":4}`)
	do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Ben","points":60,"tricks":4,"reason":"Cleo recounted"}`)
	table := page(t, h, "/g/"+id, "en").body
	if strings.Contains(table, "corrected ()") || !regexp.MustCompile(`\d\d:\d\d</time> corrected\s*<div class="was-now">`).MatchString(table) {
		t.Fatal("a correction without a reason does not read well")
	}
	was := table[strings.Index(table, `<div class="was-now">`):]
	was = html.UnescapeString(was[:strings.Index(was, "</li>")])
	if !before(was, "before", "won with 70") || !before(was, "won with 70", "after") || !before(was, "after", "lost with 60") || !strings.Contains(was, "Ben +6") || !strings.Contains(was, "Ben −6") {
		t.Fatalf("the correction does not show before and after side by side: %s", visibleText(was))
	}
	audit := page(t, h, "/g/"+id+"/audit", "en").body
	if !regexp.MustCompile(`<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-show="second">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d</time>`).MatchString(audit) {
		t.Fatal("the audit does not show local times")
	}
	rows, col := dealsCSV(t, h, id)
	for _, c := range []string{"Ben", "pot", "recorded_at", "changed_at", "Ben (EUR)", "pot (EUR)"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("the CSV lacks the column %q: %v", c, rows[0])
		}
	}
	if r := rows[1]; r[col["Ben"]] != "-6" || r[col["Ben (EUR)"]] != "-3.00" || r[col["Anna (EUR)"]] != "1.00" ||
		!regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`).MatchString(r[col["changed_at"]]) || r[col["corrected_because"]] != "Cleo recounted" {
		t.Fatalf("the CSV's deal 1: %v", r)
	}
	// Its times are the server's clock, and the offset says which: together
	// they are the moment the deal was recorded, in any zone.
	for _, at := range []string{"recorded", "changed"} {
		if t0, err := time.Parse("2006-01-02 15:04:05 UTC-07:00", rows[1][col[at+"_at"]]+" "+rows[1][col[at+"_utc_offset"]]); err != nil || time.Since(t0).Abs() > 10*time.Minute {
			t.Fatalf("the CSV's deal 1 was %s at %q with the offset %q: %v, %v", at, rows[1][col[at+"_at"]], rows[1][col[at+"_utc_offset"]], t0, err)
		}
	}
	if _, ok := col["Ben ramsch points"]; ok {
		t.Fatal("a Zuger evening's CSV has Ramsch columns")
	}
	// A Ramsch deal can be checked from the CSV alone: each player's
	// points and tricks.
	w := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+w+"/hands", `{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":5},"Ben":{"points":40,"tricks":4},"Cleo":{"points":30,"tricks":2}}}`), 201)
	rows, col = dealsCSV(t, h, w)
	if r := rows[1]; r[col["Anna ramsch points"]] != "50" || r[col["Cleo ramsch tricks"]] != "2" || r[col["Ben ramsch tricks"]] != "4" {
		t.Fatalf("the CSV's Ramsch deal: %v / %v", rows[0], r)
	}

	// A closed evening with a pot: the chart ends where the standings do.
	o := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	redirect(t, h, "/g/"+o+"/record", url.Values{"contract": {"coeurfrage"}, "declarer": {"Ben"}, "points": {"40"}})
	// A deal voided: it moves nothing but Ben's stake, which stays in the
	// pot (a misdeal was dealt), in the CSV's columns too.
	mustStatus(t, do(t, h, "POST", "/api/games/"+o+"/hands", `{"contract":"solo","declarer":"Cleo","trump":"clubs","points":90}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+o+"/hands/2/void", `{"reason":"misdeal"}`), 200)
	redirect(t, h, "/g/"+o+"/close", url.Values{})
	closed := page(t, h, "/g/"+o, "en").body
	for _, name := range []string{"Anna", "Ben", "Cleo"} {
		units := regexp.MustCompile(`data-units="` + name + `">([^<]+)<`).FindStringSubmatch(closed)[1]
		if !strings.Contains(closed, `<span class="key seat`) || !regexp.MustCompile(`class="key seat\d" data-line="`+name+`">`+name+` `+regexp.QuoteMeta(units)+`</span>`).MatchString(closed) {
			t.Fatalf("%s: the standings say %s, the chart's legend something else: %s", name, units, visibleText(closed))
		}
	}
	// Deal 1, the stake deal 2 kept, and the close: the deal axis names
	// deal 1, then the pot shared out (the last step is no deal).
	if ticks := regexp.MustCompile(`class="tick x">([^<]*)<`).FindAllStringSubmatch(closed, -1); len(ticks) != 2 || ticks[0][1] != "1" || ticks[1][1] != "pot shared" {
		t.Errorf("two deals and the close on the deal axis: %v", ticks)
	}
	// The CSV ends with the close: the pot shared out, so that each
	// player's column adds up to the standings.
	rows, col = dealsCSV(t, h, o)
	last := rows[len(rows)-1]
	if len(rows) != 4 || last[col["hand"]] != "close" || last[col["Anna"]] != "3" || last[col["pot"]] != "-9" || last[col["Anna (EUR)"]] != "1.50" ||
		!strings.HasPrefix(last[col["explanation"]], "The pot of 9 went to the players: Anna 3, Ben 3, Cleo 3.") ||
		!regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`).MatchString(last[col["recorded_at"]]) {
		t.Fatalf("the CSV's close: %v / %v", rows[0], last)
	}
	for _, name := range []string{"Anna", "Ben", "Cleo"} {
		units := regexp.MustCompile(`data-units="` + name + `">([^<]+)<`).FindStringSubmatch(closed)[1]
		sum := decimal.Zero
		for _, r := range rows[1:] {
			sum = sum.Add(decimal.RequireFromString(r[col[name]]))
		}
		if strings.Replace(units, "−", "-", 1) != sum.String() {
			t.Errorf("%s's column adds up to %s, the standings say %s", name, sum, units)
		}
	}
	// An evening still open has no close row.
	if rows, _ = dealsCSV(t, h, w); rows[len(rows)-1][0] == "close" {
		t.Fatalf("an open evening's CSV has a close row: %v", rows)
	}
	// Closed, with its Ramsch columns: the close row has every column (the
	// reader refuses a row of another length).
	mustStatus(t, do(t, h, "POST", "/api/games/"+w+"/close", "{}"), 200)
	if rows, col = dealsCSV(t, h, w); rows[len(rows)-1][0] != "close" || rows[len(rows)-1][col["Anna ramsch points"]] != "" {
		t.Fatalf("a closed Württemberg evening's CSV: %v", rows)
	}
}

// dealsCSV reads a game's deals.csv: its rows, the header first, and the
// index of each column by its name.
func dealsCSV(t *testing.T, h http.Handler, id string) ([][]string, map[string]int) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(page(t, h, "/g/"+id+"/deals.csv", "en").body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	return rows, col
}

// #15.9: every small thing: the "Correct or void" link is a button, the
// chart has axes and writes "−2" as the table does, /favicon.ico, the
// theme switch, the read-only link's own QR code and share buttons, plural
// words that count.
func TestSmallThings(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"tapp"}, "declarer": {"Ben"}, "points": {"40"}, "tricks": {"1"}})
	table := page(t, h, "/g/"+id, "en").body
	if !strings.Contains(table, `<a class="button small" href="/g/`+id+`/hands/1">Correct or void</a>`) {
		t.Fatal("\"Correct or void\" is not a button")
	}
	if !strings.Contains(table, `class="tick y">−3</text>`) || strings.Contains(table, `>-1<`) || !strings.Contains(table, `class="axis"`) || !strings.Contains(table, `<span class="key seat1" data-line="Ben">Ben −3</span>`) {
		t.Fatalf("the chart has no axes or writes numbers otherwise than the table")
	}
	css := page(t, h, "/static/app.css", "en").body
	for _, dash := range []string{".chart .line.seat1{stroke-width:3.5;stroke-dasharray:9 4}", ".chart .line.seat2{stroke-width:2.2;stroke-dasharray:3 3}"} {
		if !strings.Contains(css, dash) {
			t.Errorf("lines that run together hide each other: the stylesheet lacks %s", dash)
		}
	}
	for lang, want := range map[string]string{"en": "lost with 40 points in 1 trick", "de": "mit 40 Augen in 1 Stich verloren", "sv": "1 stick"} {
		if !strings.Contains(page(t, h, "/g/"+id, lang).body, want) {
			t.Errorf("%s: the table does not say %q", lang, want)
		}
	}
	fav := doFull(h, "GET", "/favicon.ico", "")
	if fav.Code != 200 || fav.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("/favicon.ico: %d %s", fav.Code, fav.Header().Get("Content-Type"))
	}
	dark := doFull(h, "GET", "/g/"+id+"?theme=dark", "")
	if !strings.Contains(dark.Body.String(), `<html lang="en" data-theme="dark">`) || !strings.Contains(dark.Header().Get("Set-Cookie"), "theme=dark") {
		t.Fatal("?theme=dark does not switch the page to dark and remember it")
	}
	light := doFull(h, "GET", "/g/"+id, "", "Cookie", "theme=light")
	if !strings.Contains(light.Body.String(), `data-theme="light"`) || !strings.Contains(light.Body.String(), `href="/g/`+id+`?theme=auto"`) {
		t.Fatal("the remembered light theme is not kept, or the switch does not lead back to the phone's own")
	}
	if plain := page(t, h, "/g/"+id, "en").body; strings.Contains(plain, "data-theme") {
		t.Fatal("a page with no theme chosen does not follow the phone's dark mode")
	}
	share := page(t, h, "/g/"+id+"/share", "en").body
	if strings.Count(share, `<svg class="qr"`) != 2 || strings.Count(share, "data-share=") != 2 || !strings.Contains(share, "QR code of the read-only link") {
		t.Fatal("the read-only link lacks its own QR code or share button")
	}
}

// #14.4: the table carries the version and head hash a phone keeps as a
// witness, and where to ask about it; a closed evening shows its
// fingerprint and the command that confirms it, through the read-only link
// with the read-only key.
func TestTableCarriesItsWitness(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+id+"/record", zugerSolo)
	hashes := eventHashes(t, h, "/api/games/"+id+"/events")
	table := page(t, h, "/g/"+id, "en").body
	if !strings.Contains(table, `data-witness="/api/games/`+id+`/witness" data-version="2" data-head="`+hashes[1]+`"`) {
		t.Fatal("the table does not carry its version and head hash")
	}
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	if r := page(t, h, "/r/"+ro, "en").body; !strings.Contains(r, `data-witness="/api/r/`+ro+`/witness"`) || strings.Contains(r, id) {
		t.Fatal("the read-only table does not ask through its own link, or shows the writing id")
	}
	if strings.Contains(table, "Fingerprint") {
		t.Fatal("an open evening shows a fingerprint")
	}
	redirect(t, h, "/g/"+id+"/close", url.Values{})
	hashes = eventHashes(t, h, "/api/games/"+id+"/events")
	fp := events.Fingerprint(hashes[len(hashes)-1])
	// Paying after the close changes no money: the fingerprint is the
	// close's still, the one the players noted.
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/0/paid", `{"by":"Anna"}`), http.StatusOK)
	for _, c := range []struct{ path, key string }{{"/g/" + id, id}, {"/r/" + ro, ro}, {"/g/" + id + "/close", id}} {
		body := page(t, h, c.path, "en").body
		if !strings.Contains(body, `<strong class="fp">`+fp+`</strong>`) || !strings.Contains(body, "tappbook verify --game "+c.key+" --fingerprint "+fp) {
			t.Fatalf("%s does not show the fingerprint %s with its command: %s", c.path, fp, visibleText(body))
		}
		// The command is for whoever runs the server: folded away.
		if !regexp.MustCompile(`<details><summary>For whoever runs the server</summary><p><code class="cmd">tappbook verify `).MatchString(body) {
			t.Errorf("%s shows the verify command to every player", c.path)
		}
	}
	if strings.Contains(page(t, h, "/r/"+ro, "en").body, id) {
		t.Fatal("the closed read-only table shows the writing id")
	}
}

// Herz-As said before the first deal is said so in the history, not as
// "after deal 0".
func TestHerzAsBeforeAnyDealInTheHistory(t *testing.T) {
	h := newServer(t)
	id := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"]}`), 201).json(t)["id"].(string)
	if r := do(t, h, "POST", "/api/games/"+id+"/herz-as", `{}`); r.status != http.StatusOK {
		t.Fatalf("Herz-As before any deal: %d %s", r.status, r.body)
	}
	if audit := visibleText(page(t, h, "/g/"+id+"/audit", "en").body); !strings.Contains(audit, "Said before the first deal.") || strings.Contains(audit, "after deal 0") {
		t.Fatalf("the history of Herz-As before any deal: %s", audit)
	}
}

// Two phones answer "who was dealt ♥A in deal 2?" at once with different
// players: the first is recorded; the second is told who was, in its
// language — not that a key was used for another request. The same answer
// from both is the one answer.
func TestHerzAsHolderAnsweredOnTwoPhones(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"suit"}, "declarer": {"Anna"}, "trump": {"clubs"}, "points": {"70"}})
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/herz-as", "{}"), 200)
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "trump": {"clubs"}, "points": {"70"}})
	table := page(t, h, "/g/"+id, "de").body
	m := regexp.MustCompile(`action="/g/[^"]+/herz-as/holder"[\s\S]*?name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(table)
	if m == nil {
		t.Fatalf("no ♥A question on the table: %s", visibleText(table))
	}
	redirect(t, h, "/g/"+id+"/herz-as/holder", url.Values{"idempotency_key": {m[1]}, "player": {"Cleo"}})
	redirect(t, h, "/g/"+id+"/herz-as/holder", url.Values{"idempotency_key": {m[1]}, "player": {"Cleo"}}) // the same answer: once
	r := form(t, h, "/g/"+id+"/herz-as/holder", url.Values{"idempotency_key": {m[1]}, "player": {"Ben"}}, "Accept-Language", "de")
	if text := visibleText(r.body); r.status != 409 || !strings.Contains(text, "Cleo") || !strings.Contains(text, "♥A") || strings.Contains(text, "Idempotency") {
		t.Fatalf("the second phone's answer: %d %s", r.status, text)
	}
	if end := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["end"].(map[string]any); end["holder"] != "Cleo" {
		t.Fatalf("holder %v", end["holder"])
	}
	// It was Ben, in fact: the table offers to change it while it can.
	table = page(t, h, "/g/"+id, "en").body
	ch := regexp.MustCompile(`Was someone other than Cleo dealt the ♥A in deal 2\? Change it[\s\S]*?name="idempotency_key" value="([^"]+)"[\s\S]*?name="change" value="true"`).FindStringSubmatch(table)
	if ch == nil {
		t.Fatalf("no way to change the ♥A holder: %s", visibleText(table))
	}
	redirect(t, h, "/g/"+id+"/herz-as/holder", url.Values{"idempotency_key": {ch[1]}, "change": {"true"}, "player": {"Ben"}})
	if end := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["end"].(map[string]any); end["holder"] != "Ben" {
		t.Fatalf("holder %v after the change", end["holder"])
	}

	// The first phone says the ♥A lay in the tapp; the second's "Ben" for
	// the same question is refused ("conflict.herz-as-in-tapp"), not
	// answered as saved: the question is now the next deal's.
	id = startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"suit"}, "declarer": {"Anna"}, "trump": {"clubs"}, "points": {"70"}})
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/herz-as", "{}"), 200)
	redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "trump": {"clubs"}, "points": {"70"}})
	m = regexp.MustCompile(`action="/g/[^"]+/herz-as/holder"[\s\S]*?name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(page(t, h, "/g/"+id, "en").body)
	if m == nil {
		t.Fatal("no ♥A question on the second table")
	}
	redirect(t, h, "/g/"+id+"/herz-as/holder", url.Values{"idempotency_key": {m[1]}, "player": {""}})
	r = form(t, h, "/g/"+id+"/herz-as/holder", url.Values{"idempotency_key": {m[1]}, "player": {"Ben"}}, "Accept-Language", "en")
	if text := visibleText(r.body); r.status != 409 || !strings.Contains(text, "The ♥A of deal 2 was already said to lie in the tapp, so the question is now who is dealt it in deal 3") {
		t.Fatalf("the second phone's answer after \"in the tapp\": %d %s", r.status, text)
	}
	if end := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["end"].(map[string]any); end["holder"] != nil {
		t.Fatalf("holder %v after the ♥A lay in the tapp", end["holder"])
	}
}

// The undo takes back the last deal: it stands beside a deal just
// recorded, never inside the notice of a correction or a void, which it
// would not undo (a phone at 390 px read "Deal 3 corrected. [Undo deal
// 10]"). A void's reason is said in the page's language.
func TestUndoIsNotOfferedAsUndoingACorrection(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	for range 2 {
		redirect(t, h, "/g/"+id+"/record", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}})
	}
	card := regexp.MustCompile(`(?s)<div class="saved card" role="status">(.*?)</div>`)
	saved := func(path, lang string) string {
		t.Helper()
		m := card.FindStringSubmatch(page(t, h, path, lang).body)
		if m == nil {
			t.Fatalf("%s: no notice of the save", path)
		}
		return m[1]
	}
	if s := saved("/g/"+id+"?saved=2", "en"); !strings.Contains(s, "/hands/2/undo") {
		t.Errorf("the notice of deal 2 just recorded has no undo: %s", s)
	}
	redirect(t, h, "/g/"+id+"/hands/1", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"80"}, "tricks": {"6"}, "reason": {"miscounted"}})
	if s := saved("/g/"+id+"?saved=1", "en"); strings.Contains(s, "/undo") {
		t.Errorf("the notice of deal 1 corrected offers the undo of deal 2: %s", s)
	}
	do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":"misdeal"}`)
	if s := saved("/g/"+id+"?saved=1", "de"); strings.Contains(s, "/undo") || strings.Contains(s, "misdeal") {
		t.Errorf("the notice of deal 1 voided: %s", s)
	}
	if body := page(t, h, "/g/"+id+"?saved=1", "en").body; !strings.Contains(body, "/hands/2/undo") {
		t.Error("the undo of deal 2 is gone from the table")
	}
}
