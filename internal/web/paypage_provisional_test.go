package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Before the close the pay page's amounts may still change: it says they
// are provisional, in the reader's language, and offers no QR code or
// PayPal link to pay them, while the settlement API still gives the
// transfers as they stand, with pay (api.md). Closed, the page pays.
func TestPayPageBeforeTheCloseIsProvisional(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, form(t, h, "/g/"+id+"/pay/details", url.Values{"player": {"Ben"}, "name": {"Ben Muster"}, "iban": {"DE89 3704 0044 0532 0130 00"}, "paypal": {"benmuster"}}), http.StatusSeeOther)
	if s := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/settlement", ""), http.StatusOK); !strings.Contains(s.body, `"pay"`) {
		t.Errorf("the settlement before the close lost its transfers' pay: %s", s.body)
	}
	for lang, says := range map[string]string{
		"en": "Provisional: this evening is not closed yet, so these amounts may still change.",
		"de": "Vorläufig: Dieser Abend ist noch nicht abgeschlossen",
		"sv": "Preliminärt: den här kvällen är inte avslutad än",
	} {
		p := page(t, h, "/g/"+id+"/pay", lang)
		if p.status != http.StatusOK || !strings.Contains(words(p.body), says) {
			t.Errorf("%s pay page before the close: %d, does not say %q", lang, p.status, says)
		}
		if strings.Contains(p.body, "pay-qr") || strings.Contains(p.body, "paypal.me") {
			t.Errorf("%s pay page offers to pay amounts that may still change", lang)
		}
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	p := page(t, h, "/g/"+id+"/pay", "en")
	if strings.Contains(p.body, "Provisional") || strings.Count(p.body, `class="pay-qr"`) != 3 || !strings.Contains(p.body, "paypal.me/benmuster") {
		t.Errorf("closed, the pay page does not pay: %s", words(p.body))
	}
}
