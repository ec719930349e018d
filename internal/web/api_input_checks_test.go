package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// rules.md "Input checks" the issue #36 re-reading found missing: each is
// a 422 from the API saying what to check, and nothing is recorded.
func TestInputChecksAPI(t *testing.T) {
	h := newServer(t)
	zuger := createGame(t, h, zugerGame)
	w3 := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"]}`)
	w4 := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"]}`)
	m := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	for _, c := range []struct{ name, id, body, says string }{
		{"points.no-cards: a talon of 4 holding 38", zuger, `{"contract":"tapp","declarer":"Ben","points":38,"tricks":0}`,
			"no 4 cards of the pack are worth exactly 38 points"},
		{"points.no-cards: a tapp of 3 holding 28", w3, `{"contract":"suit","declarer":"Ben","trump":"clubs","points":28,"tricks":0}`,
			"no 3 cards of the pack are worth exactly 28 points"},
		{"matzl.declarer-few-points", m, `{"contract":"treiben","declarer":"Ben","trump":"hearts","points":8,"tricks":1,"matzl":"declarer"}`,
			"the declarer's side has 8 points, but the matzl (the trump ten) alone is worth 10"},
		{"matzl.defenders-few-points", m, `{"contract":"treiben","declarer":"Ben","trump":"hearts","points":125,"tricks":7,"matzl":"defenders"}`,
			"the defenders have 5 points, but the matzl (the trump ten) alone is worth 10"},
		{"tricks.money: a solo of 120 without its tricks", zuger, `{"contract":"solo","declarer":"Ben","points":120}`,
			"with these points the number of tricks changes the payment"},
		{"won.tricks: a won bettel with 2 tricks", w4, `{"contract":"bettel","declarer":"Ben","won":true,"tricks":2}`,
			"2 tricks does not agree with won or lost as given"},
		{"ramsch.impossible", w4, `{"contract":"ramsch","ramsch":{"Anna":{"points":10,"tricks":6},"Ben":{"points":50,"tricks":1},"Cleo":{"points":60,"tricks":1},"Dan":{"points":0,"tricks":0}}}`,
			"no deal of the pack gives these points and tricks together"},
		// api.md: tricks left out are at least one each; two players' points cannot be left out.
		{"ramsch.impossible: no trick left for tricks left out", w4, `{"contract":"ramsch","ramsch":{"Anna":{"points":60,"tricks":6},"Ben":{"points":40,"tricks":2},"Cleo":{"points":20},"Dan":{"points":0,"tricks":0}}}`,
			"no deal of the pack gives these points and tricks together"},
		{"ramsch.points-missing: two left out", w4, `{"contract":"ramsch","ramsch":{"Anna":{"points":60},"Ben":{},"Cleo":{"points":20},"Dan":{}}}`,
			"enter Ben's card points"},
	} {
		r := do(t, h, "POST", "/api/games/"+c.id+"/hands", c.body)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, c.says) {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	for _, id := range []string{zuger, w3, w4, m} {
		if hands := listHands(t, h, id); len(hands) != 0 {
			t.Errorf("a refused deal was recorded: %v", hands)
		}
	}
	// The record form says it in the page's language.
	form := url.Values{"contract": {"tapp"}, "declarer": {"Ben"}, "points": {"38"}, "tricks": {"0"}}
	for lang, says := range map[string]string{
		"en": "no 4 cards of the pack are worth exactly 38 points",
		"de": "keine 4 Karten des Blatts sind genau 38 Augen wert",
		"sv": "inga 4 kort i leken är värda exakt 38 ögon",
	} {
		r := postFrom(h, "/g/"+zuger+"/record", form, "Accept-Language", lang)
		if r.Code != http.StatusUnprocessableEntity || !strings.Contains(r.Body.String(), says) {
			t.Errorf("%s: %d %s", lang, r.Code, visibleText(r.Body.String()))
		}
	}
}

// api.md "Recording a deal": a Ramsch with one player's points and the
// tricks but a Jungfer's 0 left out is recorded as given, pays as the
// whole record would, in the answer and the ledger.
func TestRamschLeftOutAPI(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"]}`)
	r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"ramsch","ramsch":{"Anna":{"points":50},"Ben":{"points":40},"Cleo":{},"Dan":{"points":0,"tricks":0}}}`)
	mustStatus(t, r, http.StatusCreated)
	got := r.json(t)["deltas"].(map[string]any)
	for name, want := range map[string]string{"Anna": "-20", "Ben": "5", "Cleo": "5", "Dan": "10"} {
		if got[name] != want {
			t.Errorf("%s: %v, want %s (all %v)", name, got[name], want, got)
		}
	}
	if b := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["balances"].(map[string]any); b["Anna"] != "-20" || b["Dan"] != "10" {
		t.Errorf("ledger: %v", b)
	}
}
