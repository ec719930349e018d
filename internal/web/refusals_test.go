package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tappbook/internal/tapp"
)

// The refusals a request's shape decides, before the game does: each
// answers its status and the game's own sentence for it.
func TestRequestShapeRefusals(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", "/api/games/" + id + "/deal/kontra", `{}`, http.StatusUnprocessableEntity, "kontra.missing"},
		{"POST", "/api/games/" + id + "/deal/matzl", `{}`, http.StatusUnprocessableEntity, "matzl.missing"},
		{"GET", "/api/games/" + id + "/deal", ``, http.StatusNotFound, "notfound.deal"},
		{"PUT", "/api/games/" + id + "/hands/+1", `{"contract":"rufen"}`, http.StatusNotFound, "notfound.hand-number"},
		{"GET", "/new/skat", ``, http.StatusNotFound, "notfound.variant"},
	} {
		r := do(t, h, c.method, c.path, c.body)
		english := tapp.Messages().English(c.code)
		head, _, _ := strings.Cut(english, "%")
		head = strings.TrimPrefix(head, "level: ")
		// A page shows the sentence with a capital, the API as it is.
		sentence := strings.ToUpper(head[:1]) + head[1:]
		if r.status != c.status || !strings.Contains(r.body, head) && !strings.Contains(r.body, sentence) {
			t.Errorf("%s %s: %d %s, want %d saying %q", c.method, c.path, r.status, r.body, c.status, head)
		}
	}
}

// Phone A opens deal 1's correction; phone B corrects it meanwhile. A's
// save (only a reason added) is refused with what the deal reads now,
// instead of quietly putting the old record back; saved again from the
// form shown, it replaces B's correction, as meant.
func TestCorrectionFormMeetsAnotherCorrection(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Dan","points":80,"tricks":6}`), 201)
	formA := page(t, h, "/g/"+id+"/hands/1", "de").body
	if !strings.Contains(formA, `name="changes" value="1"`) {
		t.Fatalf("the correction form does not say how often the deal was entered: %s", formA)
	}
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Dan","points":64,"tricks":4}`), 200)
	// A refusal of what A typed (a 422) keeps what A's form was begun
	// from: it still meets B's correction afterwards.
	typo := url.Values{"contract": {"solo"}, "declarer": {"Dan"}, "points": {"abc"}, "tricks": {"6"}, "changes": {"1"}, "idempotency_key": {"a0"}}
	if r := form(t, h, "/g/"+id+"/hands/1", typo); r.status != 422 || !strings.Contains(r.body, `name="changes" value="1"`) {
		t.Fatalf("a typo on the stale form: %d, changes kept: %v", r.status, strings.Contains(r.body, `name="changes" value="1"`))
	}
	mine := url.Values{"contract": {"solo"}, "declarer": {"Dan"}, "points": {"80"}, "tricks": {"6"}, "reason": {"nur Grund"}, "changes": {"1"}, "idempotency_key": {"a1"}}
	r := form(t, h, "/g/"+id+"/hands/1", mine, "Accept-Language", "de")
	if r.status != 409 || !strings.Contains(visibleText(r.body), "Spiel 1 wurde inzwischen von jemand anderem geändert; es lautet jetzt: Solo von Dan mit 64 Augen in 4 Stichen verloren") || strings.Contains(visibleText(r.body), "..") {
		t.Fatalf("the stale correction: %d %s", r.status, visibleText(r.body))
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/hands", "").body; !strings.Contains(l, `"points":64`) {
		t.Fatalf("the other phone's correction was undone: %s", l)
	}
	if !strings.Contains(r.body, `name="changes" value="2"`) {
		t.Fatalf("the form shown again is not as the deal stands now: %s", r.body)
	}
	// The API's PUT checks the same with expected_revisions.
	r = do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Dan","points":70,"tricks":5,"expected_revisions":1}`)
	if msg, _ := r.json(t)["error"].(string); r.status != 409 || !strings.Contains(msg, "deal 1 was changed by someone else") || strings.Contains(msg, "..") {
		t.Fatalf("a PUT over another correction: %d %s", r.status, r.body)
	}
	mine.Set("changes", "2")
	mine.Set("idempotency_key", "a2")
	if r := form(t, h, "/g/"+id+"/hands/1", mine); r.status != 303 {
		t.Fatalf("saved again: %d %s", r.status, visibleText(r.body))
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/hands", "").body; !strings.Contains(l, `"points":80`) || !strings.Contains(l, `"revisions":3`) {
		t.Fatalf("after saving again: %s", l)
	}
	// A form begun before another phone voided the deal does not bring it
	// back unasked (correcting a voided deal brings it back).
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":"misdeal"}`), 200)
	mine.Set("changes", "3")
	mine.Set("idempotency_key", "a3")
	r = form(t, h, "/g/"+id+"/hands/1", mine, "Accept-Language", "en")
	if text := visibleText(r.body); r.status != 409 || !strings.Contains(text, "Deal 1 was changed by someone else since this correction was begun; it now reads: voided (misdeal).") {
		t.Fatalf("a correction begun before a void: %d %s", r.status, text)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["balances"].(map[string]any)["Dan"] != "0" {
		t.Fatalf("the voided deal was brought back: %v", l["balances"])
	}
}

// api.md: amounts are decimal strings ("-3", "1.50"). A unit written
// ".5", "00.50" or "5." is kept and answered in that form, with the places
// it was given.
func TestUnitWrittenTheOneWay(t *testing.T) {
	h := newServer(t)
	for written, want := range map[string]string{".5": "0.5", "00.50": "0.50", "5.": "5", "0.05": "0.05", "1": "1"} {
		g := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"`+written+`"}`), 201).json(t)
		if g["unit"] != want {
			t.Errorf("a game's unit %q answered %q, want %q", written, g["unit"], want)
		}
		if again := do(t, h, "GET", "/api/games/"+g["id"].(string), "").json(t); again["unit"] != want {
			t.Errorf("a game's unit %q read back %q, want %q", written, again["unit"], want)
		}
		grp := createGroup(t, h, `{"name":"T","unit":"`+written+`"}`)
		if grp["unit"] != want {
			t.Errorf("a group's unit %q answered %q, want %q", written, grp["unit"], want)
		}
	}
}

// A script read deal 1 (changes 1), another phone voided it, and the
// script's correction with expected_changes is refused instead of quietly
// bringing the deal back; with the changes it reads now (2), it brings the
// deal back, as a correction of a voided deal does. expected_revisions
// counts corrections only, so it does not see the void; a new deal takes
// neither check.
func TestAPICorrectionMeetsAVoid(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Dan","points":80,"tricks":6}`), 201)
	deal := func() map[string]any {
		var hands []map[string]any
		if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/games/"+id+"/hands", "").body), &hands); err != nil {
			t.Fatal(err)
		}
		return hands[0]
	}
	if d := deal(); d["revisions"] != 1.0 || d["changes"] != 1.0 {
		t.Fatalf("deal 1 as recorded: revisions %v, changes %v; want 1 and 1", d["revisions"], d["changes"])
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":"misdeal"}`), 200)
	if d := deal(); d["revisions"] != 1.0 || d["changes"] != 2.0 || d["voided"] != true {
		t.Fatalf("deal 1 voided: revisions %v, changes %v, voided %v; want 1, 2, true", d["revisions"], d["changes"], d["voided"])
	}
	r := do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Dan","points":70,"tricks":5,"expected_changes":1}`)
	if msg, _ := r.json(t)["error"].(string); r.status != 409 || !strings.Contains(msg, "deal 1 was changed by someone else") || !strings.Contains(msg, "voided (misdeal)") {
		t.Fatalf("a correction read before the void: %d %s", r.status, r.body)
	}
	if d := deal(); d["voided"] != true || d["changes"] != 2.0 {
		t.Fatalf("the refused correction changed deal 1: %v", d)
	}
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"solo","declarer":"Dan","points":70,"tricks":5,"expected_changes":2}`), 200)
	if d := deal(); d["voided"] != false || d["revisions"] != 2.0 || d["changes"] != 3.0 {
		t.Fatalf("corrected as read: %v", d)
	}
	for _, field := range []string{`"expected_changes":0`, `"expected_revisions":0`, `"reason":"x"`} {
		body := `{"contract":"solo","declarer":"Dan","points":70,"tricks":5,` + field + `}`
		for _, path := range []string{"/api/games/" + id + "/hands", "/api/games/" + id + "/deal/announce"} {
			if r := do(t, h, "POST", path, body); r.status != 422 {
				t.Errorf("POST %s with %s: %d %s, want 422 (a correction's field)", path, field, r.status, r.body)
			}
		}
	}
}

// Sent without a script (which marks blanks before sending), a deal form
// left empty says every field the contract needs at once, next to each,
// not only the first the rules ask for; and a number typed wrong beside
// blanks says both. Nothing is recorded.
func TestEmptyFormNamesEveryBlank(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	wurt := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"]}`)
	for _, c := range []struct {
		name, game string
		v          url.Values
		want       []string // ids of the fields whose refusal shows
	}{
		{"zuger solo, nothing filled", id, url.Values{"contract": {"solo"}}, []string{"declarer-error", "points-error", "tricks-error"}},
		{"zuger solo, points not a number", id, url.Values{"contract": {"solo"}, "points": {"abc"}}, []string{"declarer-error", "points-error", "tricks-error"}},
		{"zuger solo, only tricks", id, url.Values{"contract": {"solo"}, "tricks": {"5"}}, []string{"declarer-error", "points-error"}},
		{"württemberg bettel, nothing filled", wurt, url.Values{"contract": {"bettel"}}, []string{"declarer-error", "outcome-error"}},
	} {
		c.v.Set("idempotency_key", "k-"+strings.ReplaceAll(c.name, " ", "-"))
		r := form(t, h, "/g/"+c.game+"/record", c.v)
		if r.status != 422 {
			t.Fatalf("%s: %d, want 422", c.name, r.status)
		}
		for _, field := range c.want {
			if !strings.Contains(r.body, `id="`+field+`"`) {
				t.Errorf("%s: no refusal beside %s: %s", c.name, strings.TrimSuffix(field, "-error"), visibleText(r.body))
			}
		}
		if n := strings.Count(r.body, `class="error" id="`); n != len(c.want) {
			t.Errorf("%s: %d refusals beside fields, want %d: %s", c.name, n, len(c.want), visibleText(r.body))
		}
	}
	for _, g := range []string{id, wurt} {
		if l := do(t, h, "GET", "/api/games/"+g+"/ledger", "").json(t); l["hands"] != 0.0 {
			t.Fatalf("a refused form recorded a deal: %v", l)
		}
	}
}
