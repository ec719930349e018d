package web

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A member says on the group's tab how they are paid, in every evening of
// the group, as an evening's pay page lets a player: an IBAN with a wrong
// check digit, a Swish number that is not one, a PayPal name with a slash
// are refused in the page's language (en, de, sv) and nothing is kept;
// good details give the tab's transfers to that member a QR code, which
// reads as the Swiss QR-bill. A read-only link has no such form.
func TestTabPayDetails(t *testing.T) {
	h := newServer(t)
	grp := createGroup(t, h, thursdayGroup)
	gid, read := grp["id"].(string), grp["read_id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK)
	events := func() int {
		return strings.Count(mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/events", ""), http.StatusOK).body, `"seq"`)
	}
	if tab := page(t, h, "/groups/"+gid+"/tab", "en"); !strings.Contains(tab.body, `action="/groups/`+gid+`/pay/details"`) || strings.Contains(tab.body, "pay-qr") {
		t.Fatalf("the tab has no form for how a member is paid, or a QR code before anyone said how: %d", tab.status)
	}
	before := events()
	zurich := url.Values{"street": {"Bahnhofstrasse 1"}, "postcode": {"8000"}, "town": {"Zürich"}, "country": {"CH"}}
	for _, c := range []struct {
		field, value, lang, says string
	}{
		{"iban", "CH93 0076 2011 6238 5295 8", "en", "check digits of CH93 0076 2011 6238 5295 8 do not match"},
		{"iban", "CH93 0076 2011 6238 5295 8", "de", "Die Prüfziffern von CH93 0076 2011 6238 5295 8 passen nicht"},
		{"iban", "CH93 0076 2011 6238 5295 8", "sv", "Kontrollsiffrorna i CH93 0076 2011 6238 5295 8 stämmer inte"},
		{"swish", "08-123 45 67", "en", "is not a Swish number"},
		{"swish", "08-123 45 67", "de", "ist keine Swish-Nummer"},
		{"swish", "08-123 45 67", "sv", "är inget Swishnummer"},
		{"paypal", "paypal.me/anna", "en", "has a slash"},
		{"paypal", "paypal.me/anna", "de", "enthält einen Schrägstrich"},
		{"paypal", "paypal.me/anna", "sv", "innehåller ett snedstreck"},
	} {
		v := url.Values{"player": {"Anna"}, "name": {"Anna Muster"}, c.field: {c.value}}
		if c.field == "iban" {
			for k, x := range zurich {
				v[k] = x
			}
		}
		r := form(t, h, "/groups/"+gid+"/pay/details", v, "Accept-Language", c.lang)
		if body := html.UnescapeString(r.body); r.status != http.StatusUnprocessableEntity || !strings.Contains(body, c.says) || !strings.Contains(body, `id="pay-error"`) {
			t.Errorf("%s %q in %s: %d, want 422 saying %q", c.field, c.value, c.lang, r.status, c.says)
		}
	}
	if n := events(); n != before {
		t.Fatalf("refused details kept %d events", n-before)
	}
	good := url.Values{"player": {"Anna"}, "name": {"Anna Muster"}, "iban": {"CH93 0076 2011 6238 5295 7"}}
	for k, x := range zurich {
		good[k] = x
	}
	mustStatus(t, form(t, h, "/groups/"+gid+"/pay/details", good), http.StatusSeeOther)
	if tab := page(t, h, "/groups/"+gid+"/tab", "en"); !strings.Contains(tab.body, `src="/api/groups/`+gid+`/pay/0.png"`) {
		t.Fatalf("the tab shows no QR code once Anna said how she is paid")
	}
	lines := strings.Split(decodeQR(t, []byte(mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/pay/0.png", ""), http.StatusOK).body)), "\n")
	if len(lines) != 31 || lines[0] != "SPC" || lines[3] != "CH9300762011623852957" || lines[5] != "Anna Muster" || lines[9] != "Zürich" || lines[19] != "CHF" {
		t.Fatalf("the tab's QR code reads %q, not a QR-bill to Anna Muster", lines)
	}
	if ro := page(t, h, "/r/"+read+"/tab", "en"); strings.Contains(ro.body, "pay-details") {
		t.Error("the read-only tab offers to change how a member is paid")
	}
}
