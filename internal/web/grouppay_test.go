package web

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A group's tab page pays as the evening's pay page does: each transfer
// shows its payee's QR code, the payer taps "I sent it" (a payment in state
// paid), the payee "it arrived"; confirmed by someone else or twice is a
// 409 saying why, in the reader's language. A read-only link shows the
// states but never how a member is paid, in its pages and its API alike.
func TestGroupTabPaysAndConfirms(t *testing.T) {
	h := newServer(t)
	grp := createGroup(t, h, thursdayGroup)
	gid, read := grp["id"].(string), grp["read_id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK)
	mustStatus(t, do(t, h, "PUT", "/api/groups/"+gid+"/members/Anna/pay",
		`{"name":"Anna Muster","iban":"CH9300762011623852957","address":{"street":"Bahnhofstrasse 1","postcode":"8000","town":"Zürich","country":"CH"}}`), http.StatusOK)
	tr := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t)["transfers"].([]any)[0].(map[string]any)
	from, amount := tr["from"].(string), tr["amount"].(string)

	tab := page(t, h, "/groups/"+gid+"/tab", "en")
	if tab.status != http.StatusOK || !strings.Contains(tab.body, `src="/api/groups/`+gid+`/pay/0.png"`) || !strings.Contains(tab.body, from+": I sent it") {
		t.Fatalf("tab page %d without the QR code and %s's button", tab.status, from)
	}
	// Read-only: the transfers, not the payee's bank details.
	if ro := page(t, h, "/r/"+read+"/tab", "en"); ro.status != http.StatusOK || strings.Contains(ro.body, "pay-qr") || strings.Contains(ro.body, "I sent it") {
		t.Errorf("read-only tab page %d shows how to pay or a button", ro.status)
	}
	if ro := mustStatus(t, do(t, h, "GET", "/api/r/"+read+"/tab", ""), http.StatusOK); strings.Contains(ro.body, `"pay"`) || strings.Contains(ro.body, "CH93") {
		t.Errorf("read-only tab API shows how to pay: %s", ro.body)
	}
	evRead := mustStatus(t, do(t, h, "GET", "/api/games/"+ev, ""), http.StatusOK).json(t)["read_id"].(string)
	if ro := mustStatus(t, do(t, h, "GET", "/api/r/"+evRead+"/settlement", ""), http.StatusOK); strings.Contains(ro.body, `"pay"`) || !strings.Contains(ro.body, `"state":"open"`) {
		t.Errorf("read-only settlement: %s, want states without pay", ro.body)
	}
	if s := mustStatus(t, do(t, h, "GET", "/api/games/"+ev+"/settlement", ""), http.StatusOK); !strings.Contains(s.body, `"pay"`) {
		t.Errorf("the evening's own settlement lost its pay: %s", s.body)
	}

	mustStatus(t, form(t, h, "/groups/"+gid+"/payments", url.Values{"from": {from}, "to": {"Anna"}, "amount": {amount}, "state": {"paid"}, "idempotency_key": {"k1"}}), http.StatusSeeOther)
	tab = page(t, h, "/groups/"+gid+"/tab", "de")
	if !strings.Contains(tab.body, `data-state="paid">gesendet`) || !strings.Contains(tab.body, `action="/groups/`+gid+`/payments/1/confirm"`) {
		t.Fatalf("the tab does not show payment 1 sent, awaiting Anna:\n%s", tab.body)
	}
	for lang, says := range map[string]string{
		"en": "only Anna can say it arrived, not " + from,
		"de": "nur Anna kann sagen, dass sie angekommen ist, nicht " + from,
		"sv": "bara Anna kan säga att den har kommit fram, inte " + from,
	} {
		if r := form(t, h, "/groups/"+gid+"/payments/1/confirm", url.Values{"by": {from}}, "Accept-Language", lang); r.status != http.StatusConflict || !strings.Contains(html.UnescapeString(r.body), says) {
			t.Errorf("confirmed by the payer, %s: %d, want 409 saying %q", lang, r.status, says)
		}
	}
	mustStatus(t, form(t, h, "/groups/"+gid+"/payments/1/confirm", url.Values{"by": {"Anna"}}), http.StatusSeeOther)
	if p := page(t, h, "/groups/"+gid+"/tab?confirmed=1", "sv"); !strings.Contains(p.body, "Betalning 1 mottagen") || !strings.Contains(p.body, `data-state="confirmed">mottagen`) || strings.Contains(p.body, "/payments/1/confirm") {
		t.Errorf("the tab does not say payment 1 arrived, or still offers to confirm it")
	}
	for lang, says := range map[string]string{"en": "already", "de": "schon bestätigt", "sv": "redan bekräftad"} {
		if r := form(t, h, "/groups/"+gid+"/payments/1/confirm", url.Values{"by": {"Anna"}}, "Accept-Language", lang); r.status != http.StatusConflict || !strings.Contains(html.UnescapeString(r.body), says) {
			t.Errorf("confirmed twice, %s: %d, want 409 saying %q", lang, r.status, says)
		}
	}
}
