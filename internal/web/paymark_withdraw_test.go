package web

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A wrong "sent" or "arrived" is taken back by whoever tapped it, through
// the API and the pay page; the group's tab then counts the debt again,
// and the history says it in each language.
func TestAMarkIsTakenBackThroughTheAPIAndThePage(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, thursdayGroup)["id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	tr := mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK).json(t)["transfers"].([]any)[0].(map[string]any)
	from, to := tr["from"].(string), tr["to"].(string)
	api := "/api/games/" + ev + "/transfers/0/"
	mustStatus(t, do(t, h, "POST", api+"paid/withdraw", `{"by":"`+from+`"}`), http.StatusConflict)
	mustStatus(t, do(t, h, "POST", api+"paid", `{"by":"`+from+`"}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", api+"paid/withdraw", `{"by":"`+to+`"}`), http.StatusConflict)
	mustStatus(t, do(t, h, "POST", api+"sent/withdraw", `{"by":"`+from+`"}`), http.StatusNotFound)
	s := mustStatus(t, do(t, h, "POST", api+"paid/withdraw", `{"by":"`+from+`","reason":"wrong tap"}`), http.StatusOK).json(t)
	if st := s["transfers"].([]any)[0].(map[string]any)["state"]; st != "open" {
		t.Fatalf("state %v once the sent is taken back, want open", st)
	}
	if tab := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t); len(tab["transfers"].([]any)) == 0 || len(tab["unconfirmed_evenings"].([]any)) != 0 {
		t.Errorf("the tab does not count the debt again: %v", tab)
	}

	// The page: sent, then "not sent after all" by the payer.
	mustStatus(t, form(t, h, "/g/"+ev+"/pay/0/paid", url.Values{"by": {from}}), http.StatusSeeOther)
	p := page(t, h, "/g/"+ev+"/pay", "en").body
	if !strings.Contains(p, `action="/g/`+ev+`/pay/0/paid/withdraw"`) || !strings.Contains(p, from+": not sent after all") {
		t.Fatalf("the pay page offers the payer no way to take back sent:\n%s", p)
	}
	for lang, says := range map[string]string{"en": "only " + from + " can take it back", "de": "nur " + from + " kann sie zurücknehmen", "sv": "bara " + from + " kan ta tillbaka den"} {
		if r := form(t, h, "/g/"+ev+"/pay/0/paid/withdraw", url.Values{"by": {to}}, "Accept-Language", lang); r.status != http.StatusConflict || !strings.Contains(html.UnescapeString(r.body), says) {
			t.Errorf("taken back by another, %s: %d, want 409 saying %q", lang, r.status, says)
		}
	}
	mustStatus(t, form(t, h, "/g/"+ev+"/pay/0/confirmed", url.Values{"by": {to}}), http.StatusSeeOther)
	if p := page(t, h, "/g/"+ev+"/pay", "en").body; !strings.Contains(p, `action="/g/`+ev+`/pay/0/confirmed/withdraw"`) || strings.Contains(p, "/pay/0/paid/withdraw") {
		t.Fatalf("a confirmed transfer offers other than its payee's taking back:\n%s", p)
	}
	mustStatus(t, form(t, h, "/g/"+ev+"/pay/0/confirmed/withdraw", url.Values{"by": {to}, "reason": {"not on my account"}}), http.StatusSeeOther)
	if st := mustStatus(t, do(t, h, "GET", "/api/games/"+ev+"/settlement", ""), http.StatusOK).json(t)["transfers"].([]any)[0].(map[string]any)["state"]; st != "paid" {
		t.Errorf("state %v once the arrival is taken back, want paid", st)
	}
	for lang, says := range map[string]string{"en": "Mark taken back", "de": "Markierung zurückgenommen", "sv": "Markering tillbakatagen"} {
		a := html.UnescapeString(page(t, h, "/g/"+ev+"/audit", lang).body)
		if !strings.Contains(a, says) || !strings.Contains(a, "wrong tap") || !strings.Contains(a, "not on my account") {
			t.Errorf("the %s history does not show the marks taken back (%q)", lang, says)
		}
	}
}
