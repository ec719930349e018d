package web

import (
	"net/http"
	"strings"
	"tappbook/internal/tapp"
	"testing"
)

// api.md: payments already recorded stay through a reopen. Anna paid Ben
// her 1.00 and he confirmed it; the evening is reopened and Ben wins once
// more: closing again lists her payment first, confirmed, and has her pay
// 1.00 more, not 2.00; the receipt lists every payment.
func TestAPaymentStaysThroughAReopenThroughTheAPI(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	solo := `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", solo), http.StatusCreated)
	first := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK).body
	if !strings.Contains(first, `{"from":"Anna","to":"Ben","amount":"1.00"`) || strings.Index(first, `"from":"Anna"`) > strings.Index(first, `"from":"Cleo"`) {
		t.Fatalf("the close lists Anna's 1.00 to Ben other than first: %s", first)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/0/paid", `{"by":"Anna"}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/0/confirmed", `{"by":"Ben"}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":"one more"}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", solo), http.StatusCreated)

	again := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK).body
	for _, want := range []string{
		`"transfers":[{"from":"Anna","to":"Ben","amount":"1.00","state":"confirmed"}`,
		`{"from":"Anna","to":"Ben","amount":"1.00","state":"open"}`,
		`{"from":"Cleo","to":"Ben","amount":"2.00","state":"open"}`,
	} {
		if !strings.Contains(again, want) {
			t.Errorf("closed again: %s\nwant it to hold %s", again, want)
		}
	}
	receipt := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/receipt", ""), http.StatusOK).body
	if strings.Count(receipt, "\npay Anna Ben 1.00\n") != 2 || !strings.Contains(receipt, "\nAnna -2.00\n") {
		t.Errorf("the receipt does not list both of Anna's payments:\n%s", receipt)
	}
}

// The History says which transfer was marked, in money, and as what: not
// only a title with the amount in units in the raw data.
func TestHistorySaysWhatWasPaid(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/0/paid", `{"by":"Anna"}`), http.StatusOK)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/0/confirmed", `{"by":"Ben"}`), http.StatusOK)
	for lang, want := range map[string][]string{
		"en": {"Anna pays Ben €1.00: sent, not yet received", "Anna pays Ben €1.00: received"},
		"de": {"Anna zahlt Ben 1,00 €: gesendet, noch nicht erhalten", "Anna zahlt Ben 1,00 €: erhalten"},
	} {
		audit := words(page(t, h, "/g/"+id+"/audit", lang).body)
		for _, w := range want {
			if !strings.Contains(audit, w) {
				t.Errorf("the %s History does not say %q: %s", lang, w, audit)
			}
		}
	}
}

// A transfer's number in the path is written as transfers are numbered:
// "1.5" or "01" names none, and the refusal says what was asked, not "-1".
func TestATransferNumberThatNamesNone(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	for _, n := range []string{"1.5", "01", "-1"} {
		r := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/"+n+"/paid", `{"by":"Anna"}`), http.StatusNotFound)
		if want := tapp.Messages().NotFound("notfound.transfer-number", n).Error(); r.json(t)["error"] != want || !strings.Contains(want, `"`+n+`"`) {
			t.Errorf("transfer %s: %s, want it to say %s", n, r.body, want)
		}
	}
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/pay/x.png", ""), http.StatusNotFound)
}

// The next evening takes no field: one sent is refused as everywhere, and
// starts nothing.
func TestAgainRefusesAField(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/again", `{"players":["Zoe"]}`), http.StatusUnprocessableEntity)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/again", `{`), http.StatusBadRequest)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/again", `{}`), http.StatusCreated)
}
