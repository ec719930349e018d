package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The reasons the table's undo and redo buttons give are the app's words:
// the history speaks them in the page's language, while a reason a player
// typed is shown as typed.
func TestHistorySpeaksUndoInThePagesLanguage(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	for range 2 {
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`), http.StatusCreated)
	}
	// The undo of before (a void "undone", brought back) as stored then.
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/2/void", `{"reason":"undone"}`), http.StatusOK)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/2", `{"contract":"pass","reason":"undo taken back"}`), http.StatusOK)
	// The undo of now: a retract, and the deal recorded again.
	redirect(t, h, "/g/"+id+"/hands/2/undo", url.Values{})
	redirect(t, h, "/g/"+id+"/hands/2/redo", url.Values{})
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":"wrong table"}`), http.StatusOK)
	for lang, want := range map[string][]string{
		"de": {"zurückgenommen", "Zurücknahme aufgehoben", "wrong table", "Spiel zurückgenommen (rückgängig)"},
		"sv": {"ångrad", "ångrandet togs tillbaka", "wrong table", "Giv ångrad"},
		"en": {"undone", "undo taken back", "wrong table", "Deal taken back (undo)"},
	} {
		text := visibleText(page(t, h, "/g/"+id+"/audit", lang).body)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s history: no %q in %s", lang, w, text)
			}
		}
		// (The events' own JSON, shown beside, keeps the stored words.)
		if lang != "en" && (strings.Contains(text, ": undone") || strings.Contains(text, "(undo taken back)")) {
			t.Errorf("%s history speaks English: %s", lang, text)
		}
	}
}
