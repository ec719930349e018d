package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// A correction or a void of a closed evening is refused with "unless it is
// reopened, with a reason": the refusal's page leads to the form that
// reopens it, in every language, whether the phone opened the deal's page
// or posted to it.
func TestClosedRefusalLeadsToReopen(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "matzlfangen", players("Anna", "Ben", "Cleo", "Dan"))
	deal := url.Values{"contract": {"rufen"}, "partner": {"Cleo"}, "points": {"80"}}
	if r := form(t, h, "/g/"+id+"/record", deal); r.status != http.StatusSeeOther {
		t.Fatalf("record: %d %s", r.status, r.body)
	}
	next := page(t, h, "/g/"+id+"/record", "en") // deal 2's form, open on a phone
	key := regexp.MustCompile(`name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(next.body)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	link := `href="/g/` + id + `/close#reopen-form"`
	// Deal 2 saved on that phone after another closed the evening.
	deal.Set("idempotency_key", key[1])
	deal.Set("expected_hand", "2")
	if r := form(t, h, "/g/"+id+"/record", deal); r.status != http.StatusConflict || !strings.Contains(r.body, link) {
		t.Errorf("a deal saved after the close: %d, its form does not lead to reopening: %s", r.status, visibleText(r.body))
	}
	for lang, label := range map[string]string{"en": "Reopen the evening", "de": "Abend wieder öffnen", "sv": "Öppna kvällen igen"} {
		for _, r := range []resp{
			page(t, h, "/g/"+id+"/hands/1", lang),
			form(t, h, "/g/"+id+"/hands/1/void", url.Values{"reason": {"misdeal"}}, "Accept-Language", lang),
		} {
			if r.status != http.StatusConflict {
				t.Fatalf("%s: %d, want 409", lang, r.status)
			}
			if !strings.Contains(r.body, link) || !strings.Contains(r.body, label) {
				t.Errorf("%s: the refusal does not lead to reopening (%s, %q): %s", lang, link, label, visibleText(r.body))
			}
		}
	}
	// The form it leads to is there, under that name.
	if body := page(t, h, "/g/"+id+"/close", "en").body; !strings.Contains(body, `id="reopen-form"`) {
		t.Fatal("the close page has no reopen form")
	}
}
