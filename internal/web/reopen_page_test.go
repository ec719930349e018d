package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Without a script: the close page says what ending the evening does
// before it is ended; once closed, it offers to reopen it with a reason,
// refuses one without, and reopens with one.
func TestReopenThroughTheClosePage(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	playDeals(t, h, id, tappDeal("Anna", 70))
	for lang, says := range map[string]string{"en": "settles the money", "de": "rechnet das Geld ab", "sv": "gör upp pengarna"} {
		if b := page(t, h, "/g/"+id+"/close", lang).body; !strings.Contains(b, says) || strings.Contains(b, `id="reopen-form"`) {
			t.Fatalf("the close page (%s) of an open evening does not say what ending it does, or offers to reopen it", lang)
		}
	}
	if r := form(t, h, "/g/"+id+"/close", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	closed := page(t, h, "/g/"+id+"/close", "en").body
	if !strings.Contains(closed, `id="reopen-form"`) || !strings.Contains(closed, "Reopen the evening") {
		t.Fatal("the close page of a closed evening offers no reopen")
	}
	r := form(t, h, "/g/"+id+"/reopen", url.Values{"reason": {"  "}}, "Accept-Language", "de")
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "warum der Abend wieder geöffnet wird") || !strings.Contains(r.body, `aria-invalid="true"`) {
		t.Fatalf("reopen without a reason: %d, want 422 saying why in German", r.status)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["closed"] != true {
		t.Fatal("a refused reopen opened the evening")
	}
	if r := form(t, h, "/g/"+id+"/reopen", url.Values{"reason": {"Anna had 40"}}); r.status != http.StatusSeeOther {
		t.Fatalf("reopen: %d %s", r.status, r.body)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["closed"] != false {
		t.Fatal("reopened through the page, the ledger still says closed")
	}
	audit := page(t, h, "/g/"+id+"/audit", "en").body
	if !strings.Contains(audit, "Evening reopened") || !strings.Contains(audit, "Anna had 40") {
		t.Fatal("the history does not show the reopen and its reason")
	}
	// Reopening again: the evening is open, said as such.
	if r := form(t, h, "/g/"+id+"/reopen", url.Values{"reason": {"again"}}); r.status != http.StatusConflict {
		t.Fatalf("reopening an open evening: %d", r.status)
	}
}
