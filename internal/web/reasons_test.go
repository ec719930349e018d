package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Issue 36: a correction's or a void's reason is one tap, typing optional.
// A tapped reason is stored as the app's words (a code) and read in each
// page's language; words typed beside it are kept as given, after the
// tapped reason in the language of the page they were typed on.
func TestQuickReasons(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"]}`)
	for range 3 {
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Ben","points":73}`), 201)
	}
	// The deal's page offers the quick reasons, in its language, for the
	// correction and for the void; the words are optional.
	body := page(t, h, "/g/"+id+"/hands/1", "sv").body
	for _, want := range []string{`name="reason_quick" value="typo"`, `name="reason_quick" value="misdeal"`, "Skrivfel", "Felgiv", "Eller med egna ord (frivilligt)"} {
		if !strings.Contains(body, want) {
			t.Fatalf("the deal's page lacks %q", want)
		}
	}
	if strings.Contains(body, `name="reason" value="" required`) {
		t.Fatal("the reason's words are still required")
	}
	// A correction with a tap and nothing typed; one with a tap and words
	// (on a German page); a void with a tap only.
	fix := url.Values{"contract": {"coeurfrage"}, "declarer": {"Ben"}, "points": {"74"}}
	fix.Set("reason_quick", "typo")
	redirect(t, h, "/g/"+id+"/hands/1", fix)
	fix.Set("reason_quick", "wrong player")
	fix.Set("declarer", "Anna")
	fix.Set("reason", "Anna spielte")
	redirect(t, h, "/g/"+id+"/hands/2", fix, "Accept-Language", "de")
	redirect(t, h, "/g/"+id+"/hands/3/void", url.Values{"reason_quick": {"misdeal"}})
	events := do(t, h, "GET", "/api/games/"+id+"/events", "").body
	for _, want := range []string{`"reason":"typo"`, `"reason":"Falscher Spieler: Anna spielte"`, `"reason":"misdeal"`} {
		if !strings.Contains(events, want) {
			t.Errorf("the events lack %s", want)
		}
	}
	// Read in each page's language.
	for lang, want := range map[string][]string{
		"en": {"Typo", "Falscher Spieler: Anna spielte", "Misdeal"},
		"de": {"Tippfehler", "Vergeben"},
		"sv": {"Skrivfel", "Felgiv"},
	} {
		audit := visibleText(page(t, h, "/g/"+id+"/audit", lang).body)
		for _, w := range want {
			if !strings.Contains(audit, w) {
				t.Errorf("%s: the history lacks %q", lang, w)
			}
		}
	}
	// Neither a tap nor words: a correction is refused, saying what to do,
	// and a quick reason the form does not offer counts as none.
	none := url.Values{"contract": {"coeurfrage"}, "declarer": {"Ben"}, "points": {"80"}, "reason_quick": {"bored"}}
	if r := form(t, h, "/g/"+id+"/hands/1", none); r.status != http.StatusUnprocessableEntity ||
		errorNear(r.body, "reason") != "Tap a reason or say why this deal is corrected, for the history." {
		t.Fatalf("a correction without a reason: %d %q", r.status, errorNear(r.body, "reason"))
	}
	if r := form(t, h, "/g/"+id+"/hands/2/void", url.Values{}); r.status != http.StatusUnprocessableEntity {
		t.Fatalf("a void without a reason: %d", r.status)
	}
}
