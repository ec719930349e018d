package web

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// herzEvening is a Württemberg evening of Anna, Ben and Cleo, and a way
// to post its forms and to read a page's visible text.
func herzEvening(t *testing.T) (id, ro string, post func(string, url.Values), text func(string, string) string) {
	h := newServer(t)
	id = startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	ro = do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	post = func(path string, v url.Values) {
		t.Helper()
		if r := form(t, h, "/g/"+id+path, v); r.status != http.StatusSeeOther {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
	text = func(path, lang string) string {
		return strings.Join(strings.Fields(html.UnescapeString(visibleText(page(t, h, path, lang).body))), " ")
	}
	return id, ro, post, text
}

var (
	herzSuit   = url.Values{"contract": {"suit"}, "declarer": {"Anna"}, "trump": {"clubs"}, "points": {"70"}}
	herzRamsch = url.Values{"contract": {"ramsch"}, "ramsch_points_0": {"50"}, "ramsch_tricks_0": {"5"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"4"}, "ramsch_points_2": {"30"}, "ramsch_tricks_2": {"2"}}
)

// The read-only link follows the end of a Württemberg evening as the
// writing table does: Herz-As said, the last regular deal, Zwangsramsch k
// of n.
func TestReadOnlyFollowsHerzAs(t *testing.T) {
	_, ro, post, text := herzEvening(t)
	want := func(step, s string) {
		t.Helper()
		if got := text("/r/"+ro, "en"); !strings.Contains(got, s) {
			t.Fatalf("%s: the read-only table does not say %q: %s", step, s, got)
		}
	}
	post("/record", herzSuit) // deal 1, Anna deals
	post("/herz-as", url.Values{})
	want("Herz-As said", "Herz-As! Whoever is dealt ♥A in the next deal")
	post("/record", herzSuit) // deal 2, Ben deals
	want("the holder asked", "Herz-As: the table is to say who was dealt ♥A.")
	post("/herz-as/holder", url.Values{"player": {"Cleo"}})
	want("the holder named", "Last regular deal: deal 3, dealt by Cleo.")
	post("/record", herzSuit)
	want("the first Zwangsramsch", "Zwangsramsch 1 of 3")
}

// Once every Zwangsramsch is played, the writing table asks to end the
// evening; the read-only link (its table and its board), which cannot end
// it, says in every language that the evening is over, and never tells its
// reader to end it.
func TestReadOnlyEveningOverIsNotAskedToEndIt(t *testing.T) {
	id, ro, post, text := herzEvening(t)
	post("/record", herzSuit) // deal 1, Anna deals
	post("/herz-as", url.Values{})
	post("/record", herzSuit)                               // deal 2, Ben deals
	post("/herz-as/holder", url.Values{"player": {"Cleo"}}) // Cleo deals deal 3: the last regular one
	post("/record", herzSuit)
	for range 3 {
		post("/record", herzRamsch)
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
