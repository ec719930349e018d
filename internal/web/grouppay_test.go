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

// What was marked paid on an evening's own transfer is listed on its
// group's tab, which counts it (the payments shown explain the balances),
// and a group evening's pay page says a payment recorded on the tab is not
// shown there: a debt paid on the tab was offered again as open, and
// marking it there too counted it twice.
func TestTabListsWhatWasPaidOnAnEvening(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, thursdayGroup)["id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK)
	pay := page(t, h, "/g/"+ev+"/pay", "de")
	if !strings.Contains(pay.body, `id="group-tab-note"`) || !strings.Contains(pay.body, `<a href="/groups/`+gid+`/tab">Zur Rechnung der Runde</a>`) {
		t.Fatalf("a group evening's pay page does not point to the tab:\n%s", pay.body)
	}
	if tab := page(t, h, "/groups/"+gid+"/tab", "en"); strings.Contains(tab.body, "evening-payments") {
		t.Fatalf("the tab lists evening payments before any:\n%s", tab.body)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/transfers/0/paid", `{"by":"Ben"}`), http.StatusOK)
	tab := page(t, h, "/groups/"+gid+"/tab", "sv")
	if !strings.Contains(tab.body, "Betalt på en kvälls egna överföringar") || !strings.Contains(tab.body, `<a href="/g/`+ev+`/pay">Zuger Tapp</a>`) || !strings.Contains(tab.body, "Ben betalade Anna") {
		t.Fatalf("the tab does not list Ben's payment on the evening:\n%s", tab.body)
	}
	// A transfer marked sent no longer asks how its payee is paid.
	body := page(t, h, "/g/"+ev+"/pay", "en").body
	first, rest, _ := strings.Cut(body[strings.Index(body, `id="transfer-0"`):], `id="transfer-1"`)
	if strings.Contains(first, "has not said how to be paid") || !strings.Contains(rest, "Anna has not said how to be paid") {
		t.Errorf("the pay page asks how Anna is paid for a transfer sent, or not for one open:\n%s", body)
	}
	alone := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+alone+"/close", `{}`), http.StatusOK)
	if p := page(t, h, "/g/"+alone+"/pay", "en"); strings.Contains(p.body, "group-tab-note") {
		t.Errorf("an evening of no group points to a tab")
	}
}
