package web

import (
	"net/http"
	"strings"
	"testing"
)

// An evening's transfer marked sent counts on the group's tab from the
// mark, as a tab payment recorded as sent does, and so is shown as not yet
// confirmed: the tab said everyone was square, listed it as paid, and its
// "unconfirmed" was empty, with no way for the payee to confirm it there.
func TestTabShowsAnEveningTransferSentAsUnconfirmed(t *testing.T) {
	h := newServer(t)
	group := createGroup(t, h, thursdayGroup)
	gid, rid := group["id"].(string), group["read_id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	s := mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK).json(t)
	tr := s["transfers"].([]any)[1].(map[string]any)
	from, to, amount := tr["from"].(string), tr["to"].(string), tr["amount"].(string)
	if u := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t)["unconfirmed_evenings"]; u == nil || len(u.([]any)) != 0 {
		t.Fatalf("unconfirmed_evenings before any mark: %v, want []", u)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/transfers/1/paid", `{"by":"`+from+`"}`), http.StatusOK)

	tab := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t)
	u := tab["unconfirmed_evenings"].([]any)
	if len(u) != 1 {
		t.Fatalf("the tab does not show the evening's transfer sent as unconfirmed: %v", tab)
	}
	want := map[string]any{"game": ev, "transfer": 1.0, "from": from, "to": to, "amount": amount}
	for k, v := range want {
		if u[0].(map[string]any)[k] != v {
			t.Errorf("unconfirmed_evenings[0][%q] = %v, want %v (%v)", k, u[0].(map[string]any)[k], v, u[0])
		}
	}
	if n := tab["unconfirmed"].([]any); len(n) != 0 {
		t.Errorf("unconfirmed holds the tab's payment numbers only, got %v", n)
	}
	// A read-only link shows it too, without the evening's id.
	ro := mustStatus(t, do(t, h, "GET", "/api/r/"+rid+"/tab", ""), http.StatusOK).json(t)["unconfirmed_evenings"].([]any)
	if len(ro) != 1 || ro[0].(map[string]any)["game"] != nil || ro[0].(map[string]any)["read_id"] == "" {
		t.Errorf("read-only tab's unconfirmed_evenings: %v", ro)
	}

	// The page says it is not yet received and links the payee to the
	// transfer on the evening's pay page, where it is confirmed.
	link := `<a class="mark-received" href="/g/` + ev + `/pay#transfer-1">`
	for lang, says := range map[string]string{"en": "sent, not yet received", "de": "gesendet, noch nicht erhalten", "sv": "skickad, inte mottagen än"} {
		p := page(t, h, "/groups/"+gid+"/tab", lang)
		if !strings.Contains(p.body, `data-state="paid">`+says) || !strings.Contains(p.body, link) {
			t.Errorf("%s: the tab does not show %s→%s awaiting %s, with a link to confirm it:\n%s", lang, from, to, to, p.body)
		}
	}
	if p := page(t, h, "/r/"+rid+"/tab", "en"); !strings.Contains(p.body, `data-state="paid">`) || strings.Contains(p.body, "mark-received") {
		t.Error("a read-only tab offers to confirm")
	}

	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/transfers/1/confirmed", `{"by":"`+to+`"}`), http.StatusOK)
	if u := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t)["unconfirmed_evenings"].([]any); len(u) != 0 {
		t.Errorf("a confirmed transfer is still unconfirmed: %v", u)
	}
	if p := page(t, h, "/groups/"+gid+"/tab", "en"); !strings.Contains(p.body, `data-state="confirmed">received`) || strings.Contains(p.body, link) {
		t.Errorf("the tab does not show the transfer received, or still links to confirm it:\n%s", p.body)
	}
}
