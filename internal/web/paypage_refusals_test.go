package web

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A transfer marked sent by someone else than its payer, or confirmed
// twice, is a 409 that says why in each of the three languages, and keeps
// nothing.
func TestPayPageRefusesMarksInThreeLanguages(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)
	tr := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK).json(t)["transfers"].([]any)[0].(map[string]any)
	from, to := tr["from"].(string), tr["to"].(string)
	before := eventCount(t, h, id)
	for lang, says := range map[string]string{
		"en": "so only " + from + " can say it is sent, not " + to,
		"de": "nur " + from + " kann sagen, dass es gesendet ist, nicht " + to,
		"sv": "bara " + from + " kan säga att det är skickat, inte " + to,
	} {
		if r := form(t, h, "/g/"+id+"/pay/0/paid", url.Values{"by": {to}}, "Accept-Language", lang); r.status != http.StatusConflict || !strings.Contains(html.UnescapeString(r.body), says) {
			t.Errorf("sent by the payee, %s: %d, want 409 saying %q", lang, r.status, says)
		}
	}
	if n := eventCount(t, h, id); n != before {
		t.Fatalf("refused marks kept %d events", n-before)
	}
	mustStatus(t, form(t, h, "/g/"+id+"/pay/0/paid", url.Values{"by": {from}}), http.StatusSeeOther)
	mustStatus(t, form(t, h, "/g/"+id+"/pay/0/confirmed", url.Values{"by": {to}}), http.StatusSeeOther)
	before = eventCount(t, h, id)
	for lang, says := range map[string]string{
		"en": to + " already said " + from + "'s",
		"de": to + " hat schon gesagt, dass die",
		"sv": to + " har redan sagt att",
	} {
		if r := form(t, h, "/g/"+id+"/pay/0/confirmed", url.Values{"by": {to}}, "Accept-Language", lang); r.status != http.StatusConflict || !strings.Contains(html.UnescapeString(r.body), says) {
			t.Errorf("confirmed twice, %s: %d, want 409 saying %q", lang, r.status, says)
		}
	}
	if n := eventCount(t, h, id); n != before {
		t.Fatalf("a second confirmation kept %d events", n-before)
	}
}
