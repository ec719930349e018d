package web

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Once every Zwangsramsch is played, the writing table asks to end the
// evening; the read-only link (its table and its board), which cannot end
// it, says in every language that the evening is over, and never tells its
// reader to end it.
func TestReadOnlyEveningOverIsNotAskedToEndIt(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	suit := url.Values{"contract": {"suit"}, "declarer": {"Anna"}, "trump": {"clubs"}, "points": {"70"}}
	ramsch := url.Values{"contract": {"ramsch"}, "ramsch_points_0": {"50"}, "ramsch_tricks_0": {"5"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"4"}, "ramsch_points_2": {"30"}, "ramsch_tricks_2": {"2"}}
	post := func(path string, v url.Values) {
		t.Helper()
		if r := form(t, h, "/g/"+id+path, v); r.status != http.StatusSeeOther {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
	post("/record", suit) // deal 1, Anna deals
	post("/herz-as", url.Values{})
	post("/record", suit)                                   // deal 2, Ben deals
	post("/herz-as/holder", url.Values{"player": {"Cleo"}}) // Cleo deals deal 3: the last regular one
	post("/record", suit)
	for range 3 {
		post("/record", ramsch)
	}
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	text := func(path, lang string) string {
		return strings.Join(strings.Fields(html.UnescapeString(visibleText(page(t, h, path, lang).body))), " ")
	}
	if s := text("/g/"+id, "en"); !strings.Contains(s, "Every Zwangsramsch is played: end the evening.") {
		t.Fatalf("the writing table does not ask to end the evening: %s", s)
	}
	for lang, want := range map[string][2]string{
		"en": {"the evening is over", "end the evening"},
		"de": {"Der Abend ist vorbei", "Abend beenden"},
		"sv": {"kvällen är slut", "avsluta kvällen"},
	} {
		for _, path := range []string{"/r/" + ro, "/r/" + ro + "/board"} {
			s := text(path, lang)
			if !strings.Contains(s, want[0]) || strings.Contains(s, want[1]) {
				t.Errorf("%s in %s: want %q and not %q: %s", path, lang, want[0], want[1], s)
			}
		}
	}
}
