package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Names that lie are refused through the API and the start form, each with
// a message that names what is wrong (in the reader's language on the
// form); names written differently are kept in one form.
func TestPlayerNamesThatLie(t *testing.T) {
	h := newServer(t)
	create := func(names ...string) resp {
		b, _ := json.Marshal(map[string]any{"variant": "old-tapp", "players": names})
		return do(t, h, "POST", "/api/games", string(b))
	}
	cases := []struct {
		names []string
		says  string
	}{
		{[]string{"Anna", "Anna\u200b", "Ben"}, `player 2's name "Anna\u200b" holds an invisible character (U+200B)`},
		{[]string{"Anna", "\u202e3+", "Ben"}, "U+202E, which changes the direction text is shown in"},
		{[]string{"Anna", "A\x00b", "Ben"}, "control character (U+0000)"},
		{[]string{"Anna", "Ben\nCleo", "Dan"}, "control character (U+000A)"},
		{[]string{"Anna", "\u200b\u200b", "Ben"}, "invisible character (U+200B)"},
		{[]string{"Anna", "anna", "Ben"}, `"Anna" and "anna" are the same name written differently`},
		{[]string{"Anna", "ＡＮＮＡ", "Ben"}, `"Anna" and "ANNA" are the same name written differently`},
		{[]string{"Anna", strings.Repeat("é", 41), "Ben"}, "is 41 characters long; a name may have at most 40 characters"},
	}
	for _, c := range cases {
		r := create(c.names...)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.json(t)["error"].(string), c.says) {
			t.Errorf("players %q: %d %s, want 422 saying %q", c.names, r.status, r.body, c.says)
		}
	}

	r := create("Anna  Lena", "Ben\u00a0Hur", "Zoe\u0308")
	if r.status != http.StatusCreated {
		t.Fatalf("names written differently: %d %s", r.status, r.body)
	}
	got := r.json(t)["players"].([]any)
	if got[0] != "Anna Lena" || got[1] != "Ben Hur" || got[2] != "Zoë" {
		t.Fatalf("names are kept as %q, want them normalized", got)
	}
	if r := create("Anna", strings.Repeat("é", 40), "Ben"); r.status != http.StatusCreated {
		t.Fatalf("a 40-character name: %d %s", r.status, r.body)
	}

	// The start form says it in German, and a 41st character is refused,
	// not cut off by the browser.
	v := players("Anna", "Anna\u200b", "Ben")
	f := form(t, h, "/new/old-tapp", v, "Accept-Language", "de")
	if f.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(f.body, "player1"), "unsichtbares Zeichen (U+200B)") {
		t.Fatalf("start form, German: %d %q", f.status, errorNear(f.body, "player1"))
	}
	f = form(t, h, "/new/old-tapp", players("Anna", "anna", "Ben"), "Accept-Language", "sv")
	if !strings.Contains(errorNear(f.body, "player1"), "är samma namn") {
		t.Fatalf("start form, Swedish: %q", errorNear(f.body, "player1"))
	}
	if blank := page(t, h, "/new/old-tapp", "en").body; strings.Contains(blank, `maxlength="40"`) {
		t.Fatal("the start form lets the browser cut a name at 40 characters instead of saying so")
	}
}

// A reason that lies is refused and nothing is recorded; a reason is kept
// normalized.
func TestReasonsThatLie(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	deal := `{"contract":"tapp","declarer":"Anna","points":70,"tricks":5}`
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", deal); r.status != http.StatusCreated {
		t.Fatalf("record: %d %s", r.status, r.body)
	}
	before := do(t, h, "GET", "/api/games/"+id+"/events", "").body
	bad := []struct{ reason, says string }{
		{"\u202ewon 3", "reason: the text holds U+202E"},
		{"typo\nhere", "reason: the text holds a control character (U+000A)"},
		{"\u200b", "reason: the text holds an invisible character (U+200B)"},
		{strings.Repeat("x", 201), "reason: 201 characters is more than the 200 allowed"},
		{"   ", "reason: say why this deal is voided"},
	}
	for _, c := range bad {
		b, _ := json.Marshal(map[string]string{"reason": c.reason})
		r := do(t, h, "POST", "/api/games/"+id+"/hands/1/void", string(b))
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, c.says) {
			t.Errorf("void with %q: %d %s, want 422 saying %q", c.reason, r.status, r.body, c.says)
		}
		if c.reason == "   " {
			continue // a correction's reason is optional
		}
		body := strings.TrimSuffix(deal, "}") + `,"reason":` + string(mustJSON(c.reason)) + "}"
		r = do(t, h, "PUT", "/api/games/"+id+"/hands/1", body)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, c.says) {
			t.Errorf("correct with %q: %d %s, want 422 saying %q", c.reason, r.status, r.body, c.says)
		}
	}
	if after := do(t, h, "GET", "/api/games/"+id+"/events", "").body; after != before {
		t.Fatal("a refused reason changed the game")
	}
	f := form(t, h, "/g/"+id+"/hands/1/void", url.Values{"reason": {"Tippfehler\u200b"}}, "Accept-Language", "de")
	if f.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(f.body, "void"), "unsichtbares Zeichen (U+200B)") {
		t.Fatalf("void form, German: %d %q", f.status, errorNear(f.body, "void"))
	}
	f = form(t, h, "/g/"+id+"/hands/1", url.Values{"contract": {"tapp"}, "declarer": {"Anna"}, "points": {"70"}, "tricks": {"5"}, "reason": {"\u202e3+"}}, "Accept-Language", "sv")
	if f.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(f.body, "reason"), "ändrar skrivriktningen") || errorNear(f.body, "void") != "" {
		t.Fatalf("correction form, Swedish: %d %q (void: %q)", f.status, errorNear(f.body, "reason"), errorNear(f.body, "void"))
	}
	if r := do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":" cafe\u0301 "}`); r.status != http.StatusOK {
		t.Fatalf("void: %d %s", r.status, r.body)
	}
	hands := listHands(t, h, id)
	if hands[0]["void_reason"] != "café" {
		t.Fatalf("the reason is kept as %q, want it normalized", hands[0]["void_reason"])
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
