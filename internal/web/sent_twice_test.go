package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A deal form sent again with a key already used for another deal (a form
// the browser kept) is refused in words a player understands, with a new
// key: saved again, it records the deal. It once said "This
// Idempotency-Key was already used for a different request", and kept the
// key, so that every further tap said the same.
func TestPageFormSentTwice(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	deal := func(points, hand, key string) url.Values {
		return url.Values{"contract": {"tapp"}, "declarer": {"Ben"}, "points": {points}, "points_side": {"declarer"},
			"tricks": {"5"}, "expected_hand": {hand}, "idempotency_key": {key}}
	}
	if r := form(t, h, "/g/"+id+"/record", deal("70", "1", "form-1")); r.status != http.StatusSeeOther {
		t.Fatalf("deal 1: %d %s", r.status, visibleText(r.body))
	}
	for _, c := range []struct{ lang, says string }{
		{"en", "This form was already sent"},
		{"de", "Dieses Formular wurde schon gesendet"},
		{"sv", "Det här formuläret är redan skickat"},
	} {
		r := form(t, h, "/g/"+id+"/record", deal("80", "2", "form-1"), "Accept-Language", c.lang)
		text := visibleText(r.body)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(text, c.says) || strings.Contains(text, "Idempotency") {
			t.Fatalf("%s: the same form sent for another deal: %d %s", c.lang, r.status, text)
		}
		key := fieldOf(t, idemKeyRe, r.body, "idempotency key")
		if key == "form-1" {
			t.Fatalf("%s: the form shown again keeps the used key", c.lang)
		}
		if c.lang == "sv" {
			if r := form(t, h, "/g/"+id+"/record", deal("80", "2", key)); r.status != http.StatusSeeOther {
				t.Fatalf("saved again with the new key: %d %s", r.status, visibleText(r.body))
			}
		}
	}
	if hands := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)["hands"]; hands != 2.0 {
		t.Fatalf("the ledger has %v deals, want 2", hands)
	}
}
