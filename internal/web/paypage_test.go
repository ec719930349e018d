package web

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The pay page: bad details are refused in the page's language and nothing
// is kept; good ones give each transfer its QR code, which reads back as
// the EPC text; the payer marks it sent and the payee received, by forms.
func TestPayPage(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	before := eventCount(t, h, id)
	for _, c := range []struct {
		field, value, lang, says string
	}{
		{"iban", "DE88 3704 0044 0532 0130 00", "en", "check digits of DE88 3704 0044 0532 0130 00 do not match"},
		{"iban", "DE88 3704 0044 0532 0130 00", "de", "Die Prüfziffern von DE88 3704 0044 0532 0130 00 passen nicht"},
		{"iban", "DE88 3704 0044 0532 0130 00", "sv", "Kontrollsiffrorna i DE88 3704 0044 0532 0130 00 stämmer inte"},
		{"swish", "08-123 45 67", "en", "is not a Swish number"},
		{"swish", "08-123 45 67", "de", "ist keine Swish-Nummer"},
		{"swish", "08-123 45 67", "sv", "är inget Swishnummer"},
		{"paypal", "paypal.me/ben", "en", "has a slash"},
		{"paypal", "paypal.me/ben", "de", "enthält einen Schrägstrich"},
		{"paypal", "paypal.me/ben", "sv", "innehåller ett snedstreck"},
	} {
		r := form(t, h, "/g/"+id+"/pay/details", url.Values{"player": {"Ben"}, "name": {"Ben Muster"}, c.field: {c.value}}, "Accept-Language", c.lang)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(r.body), c.says) {
			t.Errorf("%s %q in %s: %d, want 422 saying %q", c.field, c.value, c.lang, r.status, c.says)
		}
		// The form comes back as typed, for Ben, with why beside it.
		kept := regexp.MustCompile(`(?s)<option value="Ben" selected>.*id="pay-error">[^<]*</p><form[^>]*id="pay-details".*name="player" value="Ben".*name="name" value="Ben Muster".*name="` + c.field + `" value="` + regexp.QuoteMeta(html.EscapeString(c.value)) + `"`)
		if !kept.MatchString(r.body) {
			t.Errorf("%s %q in %s: the form is not as typed, with its refusal beside it", c.field, c.value, c.lang)
		}
	}
	if n := eventCount(t, h, id); n != before {
		t.Fatalf("refused details kept %d events", n-before)
	}
	if r := form(t, h, "/g/"+id+"/pay/details", url.Values{"player": {"Ben"}, "name": {"Ben Muster"}, "iban": {"DE89 3704 0044 0532 0130 00"}}); r.status != http.StatusSeeOther {
		t.Fatalf("details: %d %s", r.status, r.body)
	}
	p := page(t, h, "/g/"+id+"/pay", "en")
	if p.status != http.StatusOK || strings.Count(p.body, `class="pay-qr"`) != 3 {
		t.Fatalf("pay page %d without three QR codes", p.status)
	}
	img := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/pay/1.png", ""), http.StatusOK)
	if text := decodeQR(t, []byte(img.body)); !strings.HasPrefix(text, "BCD\n002\n1\nSCT\n\nBen Muster\nDE89370400440532013000\nEUR1.00") {
		t.Fatalf("QR reads %q", text)
	}
	from := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/settlement", ""), http.StatusOK).json(t)["transfers"].([]any)[1].(map[string]any)["from"].(string)
	if r := form(t, h, "/g/"+id+"/pay/1/paid", url.Values{"by": {"Ben"}}, "Accept-Language", "de"); r.status != http.StatusConflict || !strings.Contains(r.body, "nur "+from+" kann sagen") {
		t.Errorf("paid by the payee: %d", r.status)
	}
	mustStatus(t, form(t, h, "/g/"+id+"/pay/1/paid", url.Values{"by": {from}}), http.StatusSeeOther)
	mustStatus(t, form(t, h, "/g/"+id+"/pay/1/confirmed", url.Values{"by": {"Ben"}}), http.StatusSeeOther)
	if p := page(t, h, "/g/"+id+"/pay", "sv"); !strings.Contains(p.body, `data-state="confirmed">mottagen`) {
		t.Error("the page does not say the transfer was received")
	}
	if r := form(t, h, "/g/"+id+"/pay/1/confirmed", url.Values{"by": {"Ben"}}); r.status != http.StatusConflict {
		t.Errorf("confirmed twice: %d", r.status)
	}
}
