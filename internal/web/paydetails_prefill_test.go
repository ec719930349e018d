package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The pay details form shows the chosen player's saved details, so that
// adding a way keeps the others (a save replaces them all), and says they
// were saved; on an evening's pay page and on a group's tab alike, by plain
// forms: ?player= chooses, no script.
func TestPayDetailsFormShowsWhatWasSaved(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, thursdayGroup)["id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	for _, c := range []struct{ page, post string }{
		{"/g/" + ev + "/pay", "/g/" + ev + "/pay/details"},
		{"/groups/" + gid + "/tab", "/groups/" + gid + "/pay/details"},
	} {
		r := form(t, h, c.post, url.Values{"player": {"Ben"}, "name": {"Ben Muster"}, "paypal": {"benmuster"}})
		loc := r.location
		if r.status != http.StatusSeeOther || !strings.Contains(loc, "player=Ben") || !strings.Contains(loc, "saved=1") {
			t.Fatalf("%s: %d to %q, want back to Ben's details, saved", c.post, r.status, loc)
		}
		for lang, says := range map[string]string{"en": "Saved how Ben is paid.", "de": "Gespeichert, wie Ben bezahlt wird.", "sv": "Sparat hur Ben får betalt."} {
			p := page(t, h, loc, lang)
			if !strings.Contains(words(p.body), says) || !strings.Contains(p.body, `name="paypal" value="benmuster"`) {
				t.Errorf("%s in %s after saving: no %q, or the PayPal name not in the form", c.page, lang, says)
			}
		}
		// Chosen again later, Ben's details are there; Cleo's are empty.
		if p := page(t, h, c.page+"?player=Ben", "en"); !strings.Contains(p.body, `name="name" value="Ben Muster"`) || strings.Contains(p.body, "Saved how") {
			t.Errorf("%s for Ben: the form does not hold his saved details", c.page)
		}
		if p := page(t, h, c.page+"?player=Cleo", "en"); !strings.Contains(p.body, `name="player" value="Cleo"`) || strings.Contains(p.body, "benmuster") {
			t.Errorf("%s for Cleo: not Cleo's form, or Ben's PayPal in it", c.page)
		}
	}
	// The evening's own details: adding an IBAN to the form as it now
	// stands keeps the PayPal name.
	mustStatus(t, form(t, h, "/g/"+ev+"/pay/details", url.Values{"player": {"Ben"}, "name": {"Ben Muster"}, "paypal": {"benmuster"}, "iban": {"CH9300762011623852957"}, "street": {"Bahnhofstrasse 1"}, "postcode": {"8000"}, "town": {"Zürich"}, "country": {"CH"}}), http.StatusSeeOther)
	if p := page(t, h, "/g/"+ev+"/pay?player=Ben", "en"); !strings.Contains(p.body, `name="iban" value="CH9300762011623852957"`) || !strings.Contains(p.body, `name="paypal" value="benmuster"`) {
		t.Errorf("after adding an IBAN, the form does not hold it and the PayPal name")
	}
}
