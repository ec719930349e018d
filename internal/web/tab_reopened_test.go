package web

import (
	"net/http"
	"strings"
	"testing"
)

// While an evening is reopened its money is out of the tab but what was
// paid on it is in, so the tab's transfers pay that back. The tab page
// says so at the top, naming the evening and linking to it, and holds its
// transfers back (no QR code, PayPal link or "I sent it"); the API lists
// the evening as reopened. Closed again, the tab pays as before.
func TestTabSaysAnEveningIsReopenedAndHoldsItsTransfersBack(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, thursdayGroup)["id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	first := mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK).json(t)["transfers"].([]any)[0].(map[string]any)
	payer := first["from"].(string)
	for _, who := range []string{"Anna", payer} {
		mustStatus(t, do(t, h, "PUT", "/api/groups/"+gid+"/members/"+who+"/pay", `{"paypal":"`+strings.ToLower(who)+`muster"}`), http.StatusOK)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/transfers/0/paid", `{"by":"`+payer+`"}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/reopen", `{"reason":"deal 1 was wrong"}`), http.StatusOK)

	api := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK)
	if !strings.Contains(api.body, `"reopened":[1]`) || !strings.Contains(api.body, `{"from":"Anna","to":"`+payer+`"`) {
		t.Errorf("reopened, the tab API does not list evening 1 as reopened, or Anna paying %s back: %s", payer, api.body)
	}
	for lang, says := range map[string][]string{
		"en": {"Reopened: evening 1.", "include paying that back", "Not yet: wait until evening 1 is closed again"},
		"de": {"Wieder geöffnet: Abend 1.", "Noch nicht: warten, bis Abend 1 wieder abgeschlossen ist"},
		"sv": {"Återöppnad: kväll 1.", "Inte än: vänta tills kväll 1 är avslutad igen"},
	} {
		tab := page(t, h, "/groups/"+gid+"/tab", lang)
		for _, w := range says {
			if !strings.Contains(words(tab.body), w) {
				t.Errorf("%s tab while evening 1 is reopened does not say %q: %s", lang, w, words(tab.body))
			}
		}
		if !strings.Contains(tab.body, `href="/g/`+ev+`"`) {
			t.Errorf("%s tab does not link to the reopened evening", lang)
		}
		for _, offer := range []string{"pay-qr", "paypal.me", `class="mark-paid"`} {
			if strings.Contains(tab.body, offer) {
				t.Errorf("%s tab offers to pay back (%s) while evening 1 is reopened", lang, offer)
			}
		}
	}

	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK)
	if api := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK); strings.Contains(api.body, `"reopened"`) {
		t.Errorf("closed again, the tab API still lists a reopened evening: %s", api.body)
	}
	tab := page(t, h, "/groups/"+gid+"/tab", "en")
	if strings.Contains(tab.body, "Reopened:") || strings.Contains(tab.body, "Not yet") || !strings.Contains(tab.body, `class="mark-paid"`) {
		t.Errorf("closed again, the tab still holds its transfers back: %s", words(tab.body))
	}
}
