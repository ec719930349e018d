package web

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// reopenCase is an evening whose first deal was recorded wrong: its deals,
// and the deal as it should have been.
type reopenCase struct {
	variant, start string
	deals          []string
	right          string
	extra          string // a deal recorded after the reopen; deals[0] when ""
}

var reopenCases = []reopenCase{
	{"zuger", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`,
		[]string{tappDeal("Anna", 70), tappDeal("Ben", 50)}, tappDeal("Anna", 40), ""},
	// The pot carries: the corrected first deal changes what the later
	// deals met, and the close shares out another pot.
	{"old-tapp", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"0.10","currency":"EUR","rules":{"remainder":"biggest-loser"}}`,
		[]string{`{"contract":"pass"}`, `{"contract":"coeurfrage","declarer":"Anna","points":73}`, `{"contract":"coeursolo","declarer":"Anna","points":55}`},
		`{"contract":"coeurfrage","declarer":"Ben","points":60}`, ""},
	{"matzlfangen", `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`,
		[]string{`{"contract":"rufen","partner":"Dan","points":70,"tricks":5}`, `{"contract":"rufen","declarer":"Cleo","partner":"Anna","points":40,"tricks":3,"kontra":1}`},
		`{"contract":"rufen","partner":"Dan","points":40,"tricks":3}`, `{"contract":"treiben","declarer":"Anna","trump":"clubs","points":80,"tricks":5}`},
	{"wuerttemberg", `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"],"unit":"0.01","currency":"EUR"}`,
		[]string{`{"contract":"suit","declarer":"Anna","trump":"clubs","points":61}`, `{"contract":"suit","declarer":"Ben","trump":"hearts","points":50}`},
		`{"contract":"suit","declarer":"Anna","trump":"clubs","points":55}`, ""},
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (r resp) jsonList(t *testing.T) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := json.Unmarshal([]byte(r.body), &l); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return l
}

func playDeals(t *testing.T, h http.Handler, id string, deals ...string) {
	t.Helper()
	for i, d := range deals {
		if r := do(t, h, "POST", "/api/games/"+id+"/hands", d); r.status != http.StatusCreated {
			t.Fatalf("deal %d %s: %d %s", i+1, d, r.status, r.body)
		}
	}
}

// api.md "Closing the evening": a closed evening reopened with a reason
// stands as before its close, takes a correction and a new deal, and closes
// again to exactly what an evening recorded right from the start closes
// to. Every variant: old-tapp's pot goes back and carries to the later
// deals.
func TestReopenCorrectAndCloseAgain(t *testing.T) {
	for _, c := range reopenCases {
		t.Run(c.variant, func(t *testing.T) {
			h := newServer(t)
			id := createGame(t, h, c.start)
			playDeals(t, h, id, c.deals...)
			open := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger", ""), 200).body
			mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":"deal 1 was wrong"}`), 409)
			first := closeAndCheck(t, h, id, `{}`)
			mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", c.right), 409)

			// Refused: no reason, or a body that is not one.
			if e := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", ``), 422).json(t)["error"]; !strings.Contains(e.(string), "why the evening is reopened") {
				t.Fatalf("reopen without a reason: %v", e)
			}
			mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":7}`), 400)
			mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":"x","why":"y"}`), 422)

			reopened := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":"deal 1 was wrong"}`), 200)
			if reopened.body != open {
				t.Fatalf("reopened, the ledger is\n%s\nwant it as before the close\n%s", reopened.body, open)
			}
			mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", c.right), 200)
			extra := cmp.Or(c.extra, c.deals[0])
			playDeals(t, h, id, extra)
			again := closeAndCheck(t, h, id, `{}`)

			// The same evening recorded right from the start.
			twin := createGame(t, h, c.start)
			playDeals(t, h, twin, append(append([]string{c.right}, c.deals[1:]...), extra)...)
			straight := closeAndCheck(t, h, twin, `{}`)
			if g, w := jsonText(t, again), jsonText(t, straight); g != w {
				t.Fatalf("closed again: %s\nwant what the evening recorded right closes to: %s", g, w)
			}
			if jsonText(t, again) == jsonText(t, first) {
				t.Fatalf("the close after the correction settles as the first one did: %s", jsonText(t, first))
			}

			// The history shows the close, the reopen and its reason, and
			// the close again.
			var kinds []string
			for _, e := range mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).jsonList(t) {
				kinds = append(kinds, e["type"].(string))
				if e["type"] == "game.reopened" && e["data"].(map[string]any)["reason"] != "deal 1 was wrong" {
					t.Fatalf("the reopen's event: %v", e)
				}
			}
			if got := strings.Join(kinds, " "); !strings.Contains(got, "game.closed game.reopened hand.corrected") || !strings.HasSuffix(got, "hand.recorded game.closed") {
				t.Fatalf("events: %s", got)
			}
		})
	}
}

// api.md: a group's tab counts an evening only while it is closed; the
// payments recorded stay, and the close after a correction counts the new
// money.
func TestReopenedEveningLeavesTheTabUntilClosedAgain(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, thursdayGroup)["id"].(string)
	id := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	playDeals(t, h, id, tappDeal("Anna", 70))
	closeAndCheck(t, h, id, `{}`)
	tab := func() string {
		t.Helper()
		owed := sumOwed(t, mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), 200).json(t))
		return fmt.Sprintf("Anna %s Ben %s Cleo %s Dan %s", owed["Anna"], owed["Ben"], owed["Cleo"], owed["Dan"])
	}
	// A tapp won with 70 (rules.md zuger: base 1): Anna +3, the others −1,
	// at 0.50 a unit.
	if got := tab(); got != "Anna 1.5 Ben -0.5 Cleo -0.5 Dan -0.5" {
		t.Fatalf("tab after the close: %s", got)
	}
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"0.50","note":"cash"}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":"Anna had 40"}`), 200)
	if got := tab(); got != "Anna -0.5 Ben 0.5 Cleo 0 Dan 0" {
		t.Fatalf("tab with the evening reopened (the payment stays): %s", got)
	}
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", tappDeal("Anna", 40)), 200)
	closeAndCheck(t, h, id, `{}`)
	// A tapp lost with 40: Anna −3, the others +1; less Ben's payment.
	if got := tab(); got != "Anna -2 Ben 1 Cleo 0.5 Dan 0.5" {
		t.Fatalf("tab after closing again: %s", got)
	}
}
