package web

import (
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/tapp"
)

// The History alone shows every number: what each deal moved by player
// and for the pot, and for a correction, a void and a re-scoring what the
// deal moved before beside what it moves after. Numbers by rules.md,
// old-tapp (stake 2, the pot carries): the same evening as the table's.
func TestHistoryShowsWhatEachChangeMoved(t *testing.T) {
	h := newServer(t)
	id := oldTappEveningCorrected(t, h)
	audit := words(page(t, h, "/g/"+id+"/audit", "en").body)
	for _, want := range []string{
		// Deal 2 as recorded: Anna's lost Coeurfrage, 3 of it into the pot.
		"Anna −9 Ben +1 Cleo +3 Pot +5 (5 after this deal)",
		// Deal 4 takes the pot of 9.
		"Anna −22 Ben −20 Cleo +49 Pot −7 (0 after this deal)",
		// Deal 2 corrected: won now; every amount that changed, before → after.
		"Anna −9 → +4 Ben +1 → −4 Cleo +3 → −2 Pot +5 → +2 (2 after this deal)",
		// Deal 4 re-scored: the pot it took is 6 now; only Cleo's and the pot's changed.
		"Anna −22 Ben −20 Cleo +49 → +46 Pot −7 → −4 (0 after this deal)",
		// Deal 3, all passed, is not re-scored (its own amounts stay), but
		// the pot it left is 3 less: the correction says so, for its entry
		// still says 7 (a tester read 7, then deal 4 taking 6).
		"(2 after this deal) Pot after deal 3: 7 → 4 ",
		// Deal 3, all passed, voided: a misdeal was dealt, so Cleo's stake
		// stays in the pot (rules.md "Decisions") and nothing changes.
		"Deal voided · ", "Deal 3: Misdeal Anna 0 Ben 0 Cleo −2 Pot +2 ",
		// A re-scoring names the deal whose change caused it.
		"Deal re-scored · ", "Deal 4, because deal 2 changed: Coeursolo by Cleo won with 80 points",
	} {
		if !strings.Contains(audit, want) {
			t.Errorf("the History lacks %q:\n%s", want, audit)
		}
	}
	if de := words(page(t, h, "/g/"+id+"/audit", "de").body); !strings.Contains(de, "Pott +5 → +2 (nach diesem Spiel 2) Pott nach Spiel 3: 7 → 4") {
		t.Errorf("the German History does not say the pot's change: %s", de)
	}
	// The amounts are units, not money: said once at the top (a tester
	// read "Anna −6" on an evening at 0.50 a unit as francs).
	if de := words(page(t, h, "/g/"+id+"/audit", "de").body); !strings.Contains(de, "Die Beträge unten sind Einheiten des Spiels, je 0,50 € wert.") {
		t.Errorf("the German History does not say what its amounts count: %s", de)
	}
	w := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	if en := words(page(t, h, "/g/"+w+"/audit", "en").body); !strings.Contains(en, "The amounts below are cents of the game, each worth €0.50.") {
		t.Errorf("a Württemberg History does not say it counts in cents: %s", en)
	}
	// Only where a deal's own entry no longer says the pot it left: deal 4
	// says its own, and after the void no later pot changed.
	if n := strings.Count(audit, "Pot after deal"); n != 1 {
		t.Errorf("the History says a later pot %d times, want once: %s", n, audit)
	}

	// A lost coeurfrage and two deals all passed, the first voided: its 3
	// into the pot go, its stake stays, so the two after it left 3 less
	// each, said once for the run.
	passes := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	lost := `{"contract":"coeurfrage","declarer":"Anna","points":50}`
	for _, deal := range []string{lost, `{"contract":"pass"}`, `{"contract":"pass"}`} {
		mustStatus(t, do(t, h, "POST", "/api/games/"+passes+"/hands", deal), 201)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+passes+"/hands/1/void", `{"reason":"misdeal"}`), 200)
	if w := words(page(t, h, "/g/"+passes+"/audit", "en").body); !strings.Contains(w, "Anna −11 → −2 Ben +3 → 0 Cleo +3 → 0 Pot +5 → +2 Pot after deals 2 to 3: −3 each") {
		t.Errorf("the void of a coeurfrage before two passes: %s", w)
	}
	if w := words(page(t, h, "/g/"+passes+"/audit", "sv").body); !strings.Contains(w, "Pott efter giv 2 till 3: −3 vardera") {
		t.Errorf("in Swedish: %s", w)
	}
	// A voided deal put back as it was is brought back, not corrected; put
	// back otherwise, both (a tester read "Deal corrected" for a deal whose
	// record had not changed).
	mustStatus(t, do(t, h, "PUT", "/api/games/"+passes+"/hands/1", lost), 200)
	mustStatus(t, do(t, h, "POST", "/api/games/"+passes+"/hands/2/void", `{"reason":"misdeal"}`), 200)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+passes+"/hands/2", `{"contract":"coeurfrage","declarer":"Anna","points":65}`), 200)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+passes+"/hands/2", `{"contract":"coeurfrage","declarer":"Anna","points":70}`), 200)
	var types []string
	for _, m := range regexp.MustCompile(`<p class="meta">\s*<strong>([^<]*)</strong>`).FindAllStringSubmatch(page(t, h, "/g/"+passes+"/audit", "en").body, -1) {
		types = append(types, m[1])
	}
	if got := strings.Join(types[4:], ", "); got != "Deal voided, Deal brought back, Deal voided, Deal corrected and brought back, Deal corrected" {
		t.Errorf("the History's events after the three passes: %s", got)
	}
	// The table says it as the History does: deal 1 brought back, not
	// corrected; deal 2 corrected.
	table := page(t, h, "/g/"+passes+"?all=1", "en").body
	deal1 := words(regexp.MustCompile(`(?s)<li id="hand-1".*?Correct or void`).FindString(table))
	if strings.Contains(deal1, "corrected") || !strings.Contains(deal1, "brought back") {
		t.Errorf("the table's deal 1, brought back as it was: %s", deal1)
	}
	if deal2 := words(regexp.MustCompile(`(?s)<li id="hand-2".*?<li id="hand-1"`).FindString(table)); !strings.Contains(deal2, "corrected") {
		t.Errorf("the table's deal 2, corrected: %s", deal2)
	}
	// A tout of false is no tout: the deal entered again with it is the
	// same deal, brought back (with the reason given, on the table).
	solo := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+solo+"/hands", `{"contract":"solo","declarer":"Ben","trump":"clubs","points":70}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+solo+"/hands/1/void", `{"reason":"oops"}`), 200)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+solo+"/hands/1", `{"contract":"solo","declarer":"Ben","trump":"clubs","points":70,"tout":false,"reason":"was fine"}`), 200)
	if w := words(page(t, h, "/g/"+solo+"/audit", "en").body); !strings.Contains(w, "Deal brought back") || strings.Contains(w, "Deal corrected") {
		t.Errorf("a solo brought back with tout false: %s", w)
	}
	if w := words(page(t, h, "/g/"+solo, "sv").body); !strings.Contains(w, "återställd: was fine") || strings.Contains(w, "rättad") {
		t.Errorf("the Swedish table of a solo brought back: %s", w)
	}

	// A Zuger evening has no pot: its History names none.
	z := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+z+"/record", zugerSolo)
	if zh := page(t, h, "/g/"+z+"/audit", "en").body; !strings.Contains(words(zh), "Anna −2 Ben +6 Cleo −2 Dan −2") || strings.Contains(zh, `class="pot"`) {
		t.Errorf("a Zuger deal in the History: %s", zh)
	}
}

// words is a page's visible text with its white space collapsed.
func words(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(visibleText(page))), " ")
}

// The table's deal list shows the pot before and after each counted deal
// of an old-tapp evening (a voided deal, which leaves it as it was, what
// it moved); the CSV and the API's list of deals give the pot after each.
func TestTableShowsThePotEachDealMet(t *testing.T) {
	h := newServer(t)
	id := oldTappEveningCorrected(t, h)
	body := page(t, h, "/g/"+id+"?all=1", "en").body
	pots := map[string]string{}
	for _, m := range regexp.MustCompile(`(?s)<li id="hand-(\d+)".*?</li>`).FindAllStringSubmatch(body, -1) {
		if p := regexp.MustCompile(`<span class="pot">([^<]*)</span>`).FindStringSubmatch(m[0]); p != nil {
			pots[m[1]] = p[1]
		}
	}
	// Deal 4 is tagged re-scored (its amounts changed though nobody
	// entered it again); deal 2 is corrected, not re-scored.
	for n, tags := range map[string]string{"2": "corrected", "4": "re-scored"} {
		meta := regexp.MustCompile(`(?s)<li id="hand-` + n + `".*?</p>`).FindString(body)
		if got := strings.Join(regexp.MustCompile(`<em>([^<]*)</em>`).FindAllString(meta, -1), " "); got != "<em>"+tags+"</em>" {
			t.Errorf("deal %s is tagged %q, want %s", n, got, tags)
		}
	}
	// The voided deal 3 shows, struck through as its amounts are, the
	// pot's part of what it moved.
	want := map[string]string{"1": "Pot 0", "2": "Pot 0 → 2", "3": "Pot +2", "4": "Pot 4 → 0"}
	if len(pots) != len(want) {
		t.Fatalf("the deals' pots: %v, want %v", pots, want)
	}
	for n, p := range want {
		if pots[n] != p {
			t.Errorf("deal %s: %q, want %q", n, pots[n], p)
		}
	}
	// What happened to deal 4, re-scored once (the void of deal 3 kept its
	// stake in the pot): the before and after say the pot too, without
	// which the players' amounts do not add up (a tester saw Ben −259 →
	// −242 and nowhere the 17 units).
	deal4 := words(regexp.MustCompile(`(?s)<li id="hand-4".*?<li id="hand-3"`).FindString(body))
	for want, n := range map[string]int{"Anna −22 Ben −20 Cleo +49 Pot −7 after": 1, "Cleo +46 Pot −4 Correct or void": 1, "Cleo +46 Pot 4 → 0": 1} {
		if strings.Count(deal4, want) != n {
			t.Errorf("what happened to deal 4 lacks %q (%d times): %s", want, n, deal4)
		}
	}
	// The CSV gives the pot after each deal too, beside what it moved.
	rows, col := dealsCSV(t, h, id)
	var after []string
	for _, r := range rows[1:] {
		after = append(after, r[col["pot"]]+" "+r[col["pot_after"]])
	}
	if got := strings.Join(after, ", "); got != "0 0, 2 2, 2 4, -4 0" {
		t.Errorf("the CSV's pot and pot_after by deal: %s", got)
	}
	// And the API's list of deals, beside pot_delta (the voided deal 3
	// moves the stake it kept: each pot is the last one plus its pot_delta).
	var hands []struct {
		PotDelta string `json:"pot_delta"`
		Pot      string `json:"pot"`
	}
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/games/"+id+"/hands", "").body), &hands); err != nil {
		t.Fatal(err)
	}
	var api []string
	for _, hd := range hands {
		api = append(api, hd.PotDelta+" "+hd.Pot)
	}
	if got := strings.Join(api, ", "); got != "0 0, 2 2, 2 4, -4 0" {
		t.Errorf("GET /hands: pot_delta and pot by deal: %s", got)
	}

	z := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+z+"/record", zugerSolo)
	if strings.Contains(page(t, h, "/g/"+z, "en").body, `class="pot"`) {
		t.Error("a Zuger deal shows a pot")
	}
	if _, col := dealsCSV(t, h, z); col["pot_after"] > 0 {
		t.Error("a Zuger evening's CSV has a pot_after column")
	}
}

// oldTappEveningCorrected is an old-tapp evening of four deals
// (oldTappFourDeals) whose deal 2 was corrected from lost to won and deal 3
// voided: deal 4, which took the pot, is re-scored twice.
func oldTappEveningCorrected(t *testing.T, h http.Handler) string {
	t.Helper()
	id := oldTappFourDeals(t, h)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/2", `{"contract":"coeurfrage","declarer":"Anna","points":65}`), 200)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/3/void", `{"reason":"misdeal"}`), 200)
	return id
}

// oldTappFourDeals is an old-tapp evening of Anna, Ben and Cleo (stake 2):
// Ben's solo won, Anna's coeurfrage lost (3 into the pot), all passed, and
// Cleo's coeursolo, which takes the pot of 9.
func oldTappFourDeals(t *testing.T, h http.Handler) string {
	t.Helper()
	id := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	for _, deal := range []string{
		`{"contract":"solo","declarer":"Ben","trump":"clubs","points":70}`,
		`{"contract":"coeurfrage","declarer":"Anna","points":50}`,
		`{"contract":"pass"}`,
		`{"contract":"coeursolo","declarer":"Cleo","points":80}`,
	} {
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", deal), 201)
	}
	return id
}

// A Württemberg evening counts in cents (rules.md "Units"); played for a
// group's unit of 0.10 its Cents column is not money, so the table says
// what one cent of the game is worth. At 0.01, and in a game that counts
// in plain units, there is nothing to say.
func TestTableSaysWhatACentIsWorth(t *testing.T) {
	h := newServer(t)
	grp, _ := do(t, h, "POST", "/api/groups", `{"name":"Thursday","players":["Anna","Ben","Cleo"],"unit":"0.10","currency":"EUR"}`).json(t)["id"].(string)
	w, _ := do(t, h, "POST", "/api/games", `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"],"group":"`+grp+`"}`).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+w+"/hands", `{"contract":"bettel","declarer":"Anna","tricks":0}`), 201)
	for lang, want := range map[string]string{"en": "This game counts in cents, each worth €0.10 here.", "de": "Dieses Spiel zählt in Cent, jeder hier 0,10 € wert."} {
		if text := words(page(t, h, "/g/"+w, lang).body); !strings.Contains(text, want) {
			t.Errorf("%s: %s", lang, text)
		}
	}
	cents, _ := do(t, h, "POST", "/api/games", `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"],"unit":"0.01","currency":"EUR"}`).json(t)["id"].(string)
	zuger, _ := do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`).json(t)["id"].(string)
	// The API's defaults: unit 1, no currency; no money to say a cent's
	// worth in ("each worth 1 here" said nothing).
	plain, _ := do(t, h, "POST", "/api/games", `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"]}`).json(t)["id"].(string)
	for _, id := range []string{cents, zuger, plain} {
		if body := page(t, h, "/g/"+id, "en").body; strings.Contains(body, "unit-worth") {
			t.Errorf("%s says what a unit is worth: %s", id, words(body))
		}
	}
}

// A correction page shows the deal as it counts now. A closed evening's
// deals cannot be changed: a correction page opened from an old link says
// so before anything is typed, with no form to fill in (it offered the
// whole form, refused only on saving).
func TestClosedEveningOffersNoCorrection(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	redirect(t, h, "/g/"+id+"/record", zugerSolo)
	// Open, it says who dealt (past: the deal was played) and shows the
	// deal as it counts now beside the form that changes it.
	if r := page(t, h, "/g/"+id+"/hands/1", "en"); r.status != http.StatusOK || !strings.Contains(r.body, `name="reason"`) ||
		!strings.Contains(words(r.body), "Anna dealt · Ben was forehand As it counts now Solo by Ben won with 70 points") || !strings.Contains(words(r.body), "Ben +6") {
		t.Fatalf("an open evening's correction page: %d %s", r.status, words(r.body))
	}
	redirect(t, h, "/g/"+id+"/close", url.Values{})
	r := page(t, h, "/g/"+id+"/hands/1", "en")
	if r.status != http.StatusConflict || !strings.Contains(words(r.body), "This evening is closed") || strings.Contains(r.body, `name="reason"`) {
		t.Errorf("a closed evening's correction page: %d %s", r.status, words(r.body))
	}
}

// After a change that re-scores later deals, the table says what it did
// to the standings in all, not only which deals changed: old-tapp deal 2
// corrected from lost to won (Anna −9 → +4, Ben +1 → −4, Cleo +3 → −2)
// makes deal 4 take a pot of 6 instead of 9 (Cleo +49 → +46).
func TestCorrectionSaysWhatItChangedInAll(t *testing.T) {
	h := newServer(t)
	id := oldTappFourDeals(t, h)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/2", `{"contract":"coeurfrage","declarer":"Anna","points":65}`), 200)
	if text := words(page(t, h, "/g/"+id+"?saved=2", "en").body); !strings.Contains(text, "Re-scored, since the pot before it changed: deal 4. Together that changes the standings by: Anna +13, Ben −5, Cleo −8, and the pot by 0.") {
		t.Errorf("after the correction: %s", text)
	}
	// Corrected again, won with more points: the pot it leaves is the
	// same, nothing later is re-scored, and the re-scoring of the first
	// correction is not this one's (it was said to be, and its −3 for Cleo
	// counted again).
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/2", `{"contract":"coeurfrage","declarer":"Anna","points":77}`), 200)
	if text := words(page(t, h, "/g/"+id+"?saved=2", "en").body); !strings.Contains(text, "Deal 2 corrected.") || strings.Contains(text, "Re-scored, since") || strings.Contains(text, "Together") {
		t.Errorf("after a correction that moved no pot: %s", text)
	}
	// Voiding the pass keeps Cleo's stake in the pot (a misdeal was
	// dealt): deal 4 takes what it took, nothing is re-scored.
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/3/void", `{"reason":"misdeal"}`), 200)
	if text := words(page(t, h, "/g/"+id+"?saved=3", "de").body); !strings.Contains(text, "Spiel 3 gestrichen (Vergeben)") || strings.Contains(text, "Zusammen") {
		t.Errorf("after the void: %s", text)
	}
	// The pot is part of it: Anna's coeurfrage of deal 1 corrected from
	// lost to won takes 6 out of the pot Ben's lost solo then doubled.
	o := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+o+"/hands", `{"contract":"coeurfrage","declarer":"Anna","points":50}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+o+"/hands", `{"contract":"solo","declarer":"Ben","trump":"clubs","points":40}`), 201)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+o+"/hands/1", `{"contract":"coeurfrage","declarer":"Anna","points":65}`), 200)
	if text := words(page(t, h, "/g/"+o+"?saved=1", "en").body); !strings.Contains(text, "Together that changes the standings by: Anna +13, Ben −2, Cleo −5, and the pot by −6.") {
		t.Errorf("a correction that changes the pot: %s", text)
	}
	// A change that re-scores nothing says nothing of the kind.
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/4", `{"contract":"coeursolo","declarer":"Cleo","points":85}`), 200)
	if text := words(page(t, h, "/g/"+id+"?saved=4", "en").body); strings.Contains(text, "Together") {
		t.Errorf("a change of the last deal: %s", text)
	}
}

// Whatever corrections, voids and deals brought back an old-tapp evening
// goes through, the pot after each counted deal as the History last said
// it — in the deal's own entry, or since in a correction's or void's "pot
// after deal n" — is the pot after it as the deals stand (GET /hands).
func TestHistoryLastSaysEachPotAsItStands(t *testing.T) {
	bodies := []string{
		`{"contract":"pass"}`,
		`{"contract":"coeurfrage","declarer":"Anna","points":50}`,
		`{"contract":"coeurfrage","declarer":"Ben","points":73}`,
		`{"contract":"coeurfrage","declarer":"Cleo","points":60}`,
		`{"contract":"solo","declarer":"Ben","trump":"clubs","points":70}`,
		`{"contract":"solo","declarer":"Anna","trump":"spades","points":40}`,
		`{"contract":"coeursolo","declarer":"Cleo","points":80}`,
		`{"contract":"coeursolo","declarer":"Anna","points":55}`,
		`{"contract":"solo","declarer":"Cleo","trump":"clubs","tout":true,"tricks":11}`,
	}
	names := []string{"Anna", "Ben", "Cleo"}
	runs := 0
	for seed := range uint64(8) {
		h := newServer(t)
		id := startForm(t, h, "old-tapp", players(names...))
		rng := rand.New(rand.NewPCG(seed, 17))
		deals, voided := 0, map[int]bool{}
		for range 40 {
			body := bodies[rng.IntN(len(bodies))]
			switch k := rng.IntN(20); {
			case deals == 0 || k < 12:
				mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", body), 201)
				deals++
			case k < 16: // a correction, which also brings a voided deal back
				n := 1 + rng.IntN(deals)
				mustStatus(t, do(t, h, "PUT", fmt.Sprintf("/api/games/%s/hands/%d", id, n), body), 200)
				voided[n] = false
			default:
				if n := 1 + rng.IntN(deals); !voided[n] {
					mustStatus(t, do(t, h, "POST", fmt.Sprintf("/api/games/%s/hands/%d/void", id, n), `{"reason":"misdeal"}`), 200)
					voided[n] = true
				}
			}
		}
		var evs []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).body), &evs); err != nil {
			t.Fatal(err)
		}
		decoded := make([]tapp.Payload, len(evs))
		for i, e := range evs {
			if e.Type != tapp.TypeGameStarted {
				p, err := tapp.Decode(e.Type, e.Data, names)
				if err != nil {
					t.Fatalf("event %d: %v", i+1, err)
				}
				decoded[i] = p
			}
		}
		said := map[int]decimal.Decimal{}
		var pots potLedger
		for i, p := range decoded {
			switch p := p.(type) {
			case tapp.HandRecorded:
				said[p.Hand] = p.PotAfter
			case tapp.HandCorrected:
				said[p.Hand] = p.PotAfter
			case tapp.HandRescored:
				said[p.Hand] = p.PotAfter
			}
			for _, r := range pots.apply(p, decoded[i+1:]) {
				runs++
				if !said[r.from].Equal(r.before) {
					t.Fatalf("seed %d, event %d: says the pot after deal %d was %s; the History said %s", seed, i+1, r.from, r.before, said[r.from])
				}
				for n := r.from; n <= r.to; n++ {
					said[n] = said[n].Add(r.by)
				}
			}
		}
		for _, hj := range listHands(t, h, id) {
			n := int(hj["hand"].(float64))
			if hj["voided"] == true {
				continue
			}
			if said[n].String() != hj["pot"] {
				t.Errorf("seed %d: the History last said the pot after deal %d is %s; it is %v", seed, n, said[n], hj["pot"])
			}
		}
	}
	if runs < 8 {
		t.Errorf("only %d later pots said to change in 8 evenings: the evenings test little", runs)
	}
}
