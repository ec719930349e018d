package web

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// form posts a form as a browser on the same site would.
func form(t *testing.T, h http.Handler, path string, v url.Values, headers ...string) resp {
	t.Helper()
	return do(t, h, "POST", path, v.Encode(), append([]string{"Content-Type", "application/x-www-form-urlencoded"}, headers...)...)
}

func page(t *testing.T, h http.Handler, path string, lang string) resp {
	t.Helper()
	return do(t, h, "GET", path, "", "Accept-Language", lang)
}

// startForm starts an evening through the start form and returns its id.
func startForm(t *testing.T, h http.Handler, variant string, v url.Values) string {
	t.Helper()
	req := httptest.NewRequest("POST", "/new/"+variant, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("start %s: %d %s", variant, rec.Code, rec.Body.String())
	}
	return strings.TrimPrefix(rec.Header().Get("Location"), "/g/")
}

func players(names ...string) url.Values {
	return url.Values{"player": names, "unit": {"0,50"}, "currency": {"EUR"}}
}

var (
	missingText = regexp.MustCompile(`%!|\b(ui|nav|new|table|record|close|audit|share|herz|err|ex|rule|value|event|history|variant|suit|contract)\.[a-z-]+\b`)
	tagText     = regexp.MustCompile(`(?s)<[^>]*>`)
)

// visibleText is a page's text without its markup (and without the values
// of attributes, where a key-like value such as a form name is fine).
func visibleText(html string) string {
	return tagText.ReplaceAllString(html, " ")
}

// Every page of every variant renders in every language, with no message
// missing (no raw key, no broken verb).
func TestPagesRenderInEveryLanguage(t *testing.T) {
	h := newServer(t)
	games := map[string]string{
		"zuger":        startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan")),
		"old-tapp":     startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo")),
		"matzlfangen":  startForm(t, h, "matzlfangen", players("Anna", "Ben", "Cleo", "Dan")),
		"wuerttemberg": startForm(t, h, "wuerttemberg", func() url.Values { v := players("Anna", "Ben", "Cleo"); v.Set("suit_tapp", "true"); return v }()),
	}
	first := map[string]url.Values{
		"zuger":        {"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}},
		"old-tapp":     {"contract": {"coeurfrage"}, "declarer": {"Ben"}, "points": {"73"}},
		"matzlfangen":  {"contract": {"rufen"}, "partner": {"Dan"}, "points": {"70"}, "tricks": {"5"}, "kontra": {"2"}, "matzl": {"declarer"}},
		"wuerttemberg": {"contract": {"ramsch"}, "ramsch_points_0": {"50"}, "ramsch_tricks_0": {"5"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"4"}, "ramsch_points_2": {"30"}, "ramsch_tricks_2": {"2"}},
	}
	for variant, id := range games {
		if r := form(t, h, "/g/"+id+"/record", first[variant]); r.status != http.StatusSeeOther {
			t.Fatalf("%s: record: %d %s", variant, r.status, r.body)
		}
		paths := []string{"/", "/new/" + variant, "/g/" + id, "/g/" + id + "/record", "/g/" + id + "/hands/1", "/g/" + id + "/close", "/g/" + id + "/audit", "/g/" + id + "/share"}
		for _, c := range contractsOf(variant) {
			paths = append(paths, "/g/"+id+"/record?contract="+c)
		}
		for _, lang := range []string{"en", "de", "sv"} {
			for _, p := range paths {
				r := page(t, h, p, lang)
				if r.status != 200 {
					t.Fatalf("%s %s: %d", lang, p, r.status)
				}
				if !strings.Contains(r.body, `<html lang="`+lang+`">`) {
					t.Fatalf("%s %s: not rendered in %s", lang, p, lang)
				}
				if m := missingText.FindString(visibleText(r.body)); m != "" {
					t.Fatalf("%s %s: missing text %q", lang, p, m)
				}
			}
		}
	}
	// The table shows the deal's explanation in the reader's language.
	de := page(t, h, "/g/"+games["old-tapp"], "de").body
	if !strings.Contains(de, "Coeurfrage von Ben mit 73 Augen gewonnen") || !strings.Contains(de, "3,25") {
		t.Fatalf("German table lacks the explanation")
	}
	sv := page(t, h, "/g/"+games["zuger"], "sv").body
	if !strings.Contains(sv, "Solo vanns av Ben med 70 ögon på 5 stick: 2 från varje motspelare.") || !strings.Contains(sv, "3,00 €") {
		t.Fatalf("Swedish table: %s", visibleText(sv))
	}
	// ?lang= overrides the browser and is remembered.
	r := do(t, h, "GET", "/?lang=sv", "", "Accept-Language", "de")
	if !strings.Contains(r.body, `lang="sv"`) {
		t.Fatal("?lang=sv did not switch")
	}
}

func contractsOf(variant string) []string {
	return map[string][]string{
		"zuger":        {"tapp", "solo", "super", "vice", "pass"},
		"old-tapp":     {"coeurfrage", "solo", "coeursolo", "pass"},
		"matzlfangen":  {"rufen", "treiben", "neid", "durch", "trumpf-durch"},
		"wuerttemberg": {"suit", "suit-tapp", "bettel", "rufer", "open-bettel", "durch", "ramsch"},
	}[variant]
}

// errorNear finds the message shown next to a field (or at the top).
func errorNear(body, field string) string {
	re := regexp.MustCompile(`id="` + regexp.QuoteMeta(field) + `-error" role="alert">([^<]*)<`)
	if field == "" {
		re = regexp.MustCompile(`<p class="error" role="alert"[^>]*>([^<]*)<`)
	}
	if m := re.FindStringSubmatch(body); m != nil {
		return html.UnescapeString(m[1])
	}
	return ""
}

// Every validation message of the record form appears next to its field,
// the form keeps what was typed, and nothing is recorded.
func TestRecordFormMessages(t *testing.T) {
	h := newServer(t)
	ids := map[string]string{
		"zuger":        startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan")),
		"old-tapp":     startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo")),
		"matzlfangen":  startForm(t, h, "matzlfangen", players("Anna", "Ben", "Cleo", "Dan")),
		"wuerttemberg": startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo")),
	}
	ramsch := func(p0, t0, p1, t1, p2, t2 string) url.Values {
		return url.Values{"contract": {"ramsch"}, "ramsch_points_0": {p0}, "ramsch_tricks_0": {t0}, "ramsch_points_1": {p1}, "ramsch_tricks_1": {t1}, "ramsch_points_2": {p2}, "ramsch_tricks_2": {t2}}
	}
	z := func(kv ...string) url.Values {
		v := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				v.Del(kv[i])
			} else {
				v.Set(kv[i], kv[i+1])
			}
		}
		return v
	}
	cases := []struct {
		variant string
		v       url.Values
		field   string
		says    string
	}{
		{"zuger", z("declarer", ""), "declarer", "Say who played the contract"},
		{"zuger", z("points", ""), "points", "Enter the card points"},
		// Tricks are asked where they change the money: the losers' 0 points
		// may be no trick (×3) or a trick of blanks (×2).
		{"zuger", z("points", "120", "tricks", ""), "tricks", "changes the payment"},
		{"zuger", z("points", "abc"), "points", "Enter a whole number."},
		{"zuger", z("points", "130"), "points", "outside 0–120"},
		{"zuger", z("points", "1"), "points", "exactly 1 point"},
		{"zuger", z("points", "119"), "points", "exactly 1 point"},
		{"zuger", z("points", "100", "tricks", "8"), "points", "all 8 tricks"},
		{"zuger", z("points", "50", "tricks", "0"), "points", "only the talon, at most 44"},
		{"zuger", z("points", "90", "tricks", "1"), "points", "at most 84 points"},
		{"zuger", z("points", "60", "tricks", "7"), "points", "at least 76"},
		{"zuger", z("tricks", "9"), "tricks", "outside 0–8"},
		{"zuger", z("declarer", "Zoe"), "declarer", `"Zoe" is not a player`},
		// Only the two sides the form offers: another value would have been
		// read as the declarer's (a lost solo saved as won).
		{"zuger", z("points", "30", "points_side", "Opponents"), "points", "Tap whose points these are"},
		{"zuger", z("contract", "grand"), "", `"grand" is not a contract of Zuger Tapp`},
		{"old-tapp", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "trump": {"hearts"}}, "trump", "not played with hearts trump"},
		{"old-tapp", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "trump": {"roses"}}, "trump", `"roses" is not a suit`},
		{"old-tapp", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "trump": {"clubs"}, "tout": {"true"}}, "outcome", "Tap “Won” or “Lost”."},
		{"old-tapp", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "trump": {"hearts"}}, "trump", "not played with"},
		{"matzlfangen", url.Values{"contract": {"rufen"}, "points": {"70"}, "tricks": {"5"}}, "partner", "Say who held the called card"},
		{"matzlfangen", url.Values{"contract": {"rufen"}, "partner": {"Ben"}, "points": {"70"}, "tricks": {"5"}}, "partner", "cannot also be the partner"},
		{"matzlfangen", url.Values{"contract": {"neid"}, "declarer": {"Ben"}, "points": {"20"}, "tricks": {"0"}}, "points", "no trick has no points"},
		{"matzlfangen", url.Values{"contract": {"neid"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}, "kontra": {"11"}}, "kontra", "outside 0 (none) to 10"},
		{"matzlfangen", url.Values{"contract": {"neid"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}, "matzl": {"nobody"}}, "matzl", "is not a side"},
		{"wuerttemberg", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "points": {"70"}, "trump": {"rosen"}}, "trump", "is not a suit"},
		{"wuerttemberg", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "points": {"70"}}, "trump", "Say which suit was trump"},
		{"wuerttemberg", url.Values{"contract": {"bettel"}, "declarer": {"Ben"}}, "outcome", "Tap “Won” or “Lost”."},
		{"wuerttemberg", url.Values{"contract": {"durch"}, "declarer": {"Ben"}, "trump": {"clubs"}}, "outcome", "Tap “Won” or “Lost”."},
		// A won or lost the form does not offer (a tampered form) is asked
		// for as a missing tap, not as a count of tricks never asked.
		{"wuerttemberg", url.Values{"contract": {"bettel"}, "declarer": {"Ben"}, "outcome": {"maybe"}}, "outcome", "Tap “Won” or “Lost”."},
		{"wuerttemberg", url.Values{"contract": {"suit-tapp"}, "declarer": {"Ben"}, "points": {"70"}}, "", "Suit-tapp is not played"},
		{"wuerttemberg", ramsch("50", "5", "40", "4", "20", "2"), "ramsch", "add up to 110"},
		{"wuerttemberg", ramsch("50", "5", "40", "4", "30", "1"), "ramsch", "tricks add up to 10"},
		{"wuerttemberg", ramsch("50", "6", "40", "5", "30", "0"), "ramsch.2.points", "took no trick"},
		{"wuerttemberg", ramsch("", "6", "", "3", "30", "1"), "ramsch.0.points", "Enter Anna's card points"},
		{"wuerttemberg", ramsch("60", "5", "70", "4", "", ""), "ramsch", "add up to 130"},
		{"wuerttemberg", ramsch("x", "6", "40", "5", "30", "0"), "ramsch.0.points", "Enter a whole number."},
		{"wuerttemberg", ramsch("50", "7", "40", "5", "30", ""), "ramsch", "The tricks entered add up to 12, more than the 11 a deal has, so Cleo's cannot be filled in"},
		{"wuerttemberg", ramsch("50", "6", "40", "5", "30", ""), "ramsch", "The tricks entered add up to all 11 of the deal, which leaves no trick for Cleo, but Cleo has 30 points."},
	}
	// A refused choice of a group of radios: the group is a radiogroup
	// marked invalid, and each radio is described by the message, read
	// where a screen reader lands.
	if r := form(t, h, "/g/"+ids["zuger"]+"/record", z("declarer", "Zoe")); !strings.Contains(r.body, `<fieldset class="picks declarer" role="radiogroup" aria-invalid="true" aria-describedby="declarer-error">`) ||
		strings.Count(r.body, `type="radio" name="declarer"`) != strings.Count(r.body, `aria-describedby="declarer-error"><span>`) {
		t.Fatalf("the refused declarer's radios: %s", r.body)
	}
	for _, c := range cases {
		id := ids[c.variant]
		c.v.Set("expected_hand", "1")
		r := form(t, h, "/g/"+id+"/record", c.v)
		if r.status != http.StatusUnprocessableEntity {
			t.Fatalf("%s %v: %d, want 422", c.variant, c.v, r.status)
		}
		var got string
		if strings.HasPrefix(c.field, "ramsch") {
			got = html.UnescapeString(regexp.MustCompile(`(?s)<legend>[^<]*</legend>(.*)</fieldset>`).FindString(r.body))
		} else {
			got = errorNear(r.body, c.field)
		}
		if !strings.Contains(got, c.says) {
			t.Fatalf("%s %v: next to %q shows %q, want %q", c.variant, c.v, c.field, got, c.says)
		}
		// What was typed is still there.
		if p := c.v.Get("points"); p != "" && c.field != "" && !strings.Contains(r.body, `value="`+p+`"`) {
			t.Fatalf("%s %v: the form lost the points typed", c.variant, c.v)
		}
	}
	for variant, id := range ids {
		if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 0.0 {
			t.Fatalf("%s: a refused form recorded a deal", variant)
		}
	}
	// The same message in German.
	r := form(t, h, "/g/"+ids["zuger"]+"/record", z("points", "1"), "Accept-Language", "de")
	if got := errorNear(r.body, "points"); got != "Keine Kartenkombination ist genau 1 Auge wert." {
		t.Fatalf("German message: %q", got)
	}
	// Contracts, suits and variants in German and Swedish are named as the
	// pages name them, never by the API's identifiers, and a typed value is
	// quoted the language's way.
	for _, c := range []struct {
		lang, variant string
		v             url.Values
		field, says   string
	}{
		{"de", "zuger", z("contract", "grand"), "", "„grand“ ist kein Spiel dieser Variante (Zuger Tapp); wähle Tapp, Solo, Super, Vice oder Passe."},
		{"sv", "zuger", z("contract", "grand"), "", "”grand” är inget kontrakt i Zuger Tapp; välj tapp, solo, super, vice eller pass."},
		{"de", "old-tapp", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "trump": {"hearts"}}, "trump", "Solo wird nicht mit Herz als Trumpf gespielt; Trumpf kann Kreuz, Pik oder Karo sein."},
		{"sv", "old-tapp", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "trump": {"hearts"}}, "trump", "Solo spelas inte med hjärter som trumf; trumf kan vara klöver, spader eller ruter."},
		{"de", "zuger", z("declarer", "Zoe"), "declarer", "„Zoe“ spielt an diesem Abend nicht mit"},
		// Points typed for the opponents: the message says how the number
		// it names came from what was typed.
		{"de", "zuger", z("points", "50", "points_side", "opponents", "tricks", "0"), "points", "nicht 70. Die eingetragenen 50 Augen der Gegenspieler lassen der Spielerpartei 70."},
		{"en", "zuger", z("points", "50", "points_side", "opponents", "tricks", "0"), "points", "not 70. The opponents' 50 points typed leave the declarer's side 70."},
		// Württemberg's talon is the tapp, as its seeds call it.
		{"de", "wuerttemberg", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "trump": {"clubs"}, "points": {"45"}, "tricks": {"0"}}, "points", "Ohne Stich hat der Spieler nur den Tapp, höchstens 33 Augen, nicht 45."},
		{"sv", "wuerttemberg", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "trump": {"clubs"}, "points": {"45"}, "tricks": {"0"}}, "points", "Utan stick har spelföraren bara tappen, högst 33 ögon, inte 45."},
		{"en", "wuerttemberg", url.Values{"contract": {"suit"}, "declarer": {"Ben"}, "trump": {"clubs"}, "points": {"45"}, "tricks": {"0"}}, "points", "A declarer who took no trick holds only the tapp, at most 33 points, not 45."},
		{"de", "zuger", z("points", "50", "tricks", "0"), "points", "Ohne Stich hat der Spieler nur den Talon, höchstens 44 Augen, nicht 50."},
	} {
		r := form(t, h, "/g/"+ids[c.variant]+"/record", c.v, "Accept-Language", c.lang)
		if got := errorNear(r.body, c.field); r.status != http.StatusUnprocessableEntity || !strings.Contains(got, c.says) {
			t.Errorf("%s %s %v: %d, next to %q shows %q, want %q", c.lang, c.variant, c.v, r.status, c.field, got, c.says)
		}
	}
}

// A Ramsch whose tricks entered are already more than a deal has, with one
// player's left blank: no count fills the blank, and the form says what is
// wrong, the tricks entered, in the page's language; not "enter how many
// tricks Cleo took", which no number could answer, nor (as a 0 filled in
// once made it) that Cleo took no trick. Tricks entered that add up to the
// whole deal leave the blank 0: with points for that player, the form says
// so, not "Cleo took no trick" as if that had been entered.
func TestRamschTricksLeftBlank(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	cases := []struct {
		v    url.Values
		lang string
		says string
	}{
		// Cleo's tricks blank, her points typed.
		{url.Values{"ramsch_points_0": {"50"}, "ramsch_tricks_0": {"7"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"5"}, "ramsch_points_2": {"30"}}, "en",
			"The tricks entered add up to 12, more than the 11 a deal has, so Cleo's cannot be filled in from the rest."},
		// Anna's points and tricks blank: her points are filled in, her
		// tricks cannot be.
		{url.Values{"ramsch_tricks_1": {"6"}, "ramsch_points_1": {"70"}, "ramsch_tricks_2": {"6"}, "ramsch_points_2": {"30"}}, "de",
			"Die eingetragenen Stiche ergeben 12, mehr als die 11 eines Spiels, also ergeben sich die von Anna nicht aus den anderen."},
		// Only Anna's tricks blank.
		{url.Values{"ramsch_points_0": {"20"}, "ramsch_tricks_1": {"6"}, "ramsch_points_1": {"70"}, "ramsch_tricks_2": {"6"}, "ramsch_points_2": {"30"}}, "sv",
			"De ifyllda sticken blir 12, fler än de 11 som en giv har, så sticken för Anna kan inte fyllas i utifrån dem."},
		// All 11 entered: Cleo's blank is 0, her points typed or filled in.
		{url.Values{"ramsch_points_0": {"50"}, "ramsch_tricks_0": {"6"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"5"}, "ramsch_points_2": {"30"}}, "en",
			"The tricks entered add up to all 11 of the deal, which leaves no trick for Cleo, but Cleo has 30 points."},
		{url.Values{"ramsch_points_0": {"50"}, "ramsch_tricks_0": {"6"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"5"}}, "de",
			"Die eingetragenen Stiche ergeben schon alle 11 des Spiels, für Cleo bleibt also kein Stich, aber Cleo hat 30 Augen."},
		{url.Values{"ramsch_points_1": {"40"}, "ramsch_tricks_1": {"5"}, "ramsch_points_2": {"30"}, "ramsch_tricks_2": {"6"}}, "sv",
			"De ifyllda sticken blir alla 11 i given, så inget stick blir kvar åt Anna, men Anna har 50 ögon."},
		// A count no deal can have is named first, next to its field.
		{url.Values{"ramsch_points_0": {"90"}, "ramsch_tricks_0": {"12"}, "ramsch_none_1": {"true"}, "ramsch_points_2": {"30"}}, "en",
			"12 is outside 0–11."},
	}
	for _, c := range cases {
		c.v.Set("contract", "ramsch")
		c.v.Set("expected_hand", "1")
		r := form(t, h, "/g/"+id+"/record", c.v, "Accept-Language", c.lang)
		if r.status != http.StatusUnprocessableEntity {
			t.Fatalf("%s %v: %d, want 422", c.lang, c.v, r.status)
		}
		fs := html.UnescapeString(regexp.MustCompile(`(?s)<fieldset class="ramsch".*</fieldset>`).FindString(r.body))
		alerts := regexp.MustCompile(`<p class="error"[^>]*role="alert">([^<]*)<`).FindAllStringSubmatch(fs, -1)
		if len(alerts) != 1 || alerts[0][1] != c.says {
			t.Fatalf("%s %v: the Ramsch says %q, want only %q", c.lang, c.v, alerts, c.says)
		}
		// What was typed is still there, and the blank still blank.
		for k, vs := range c.v {
			if strings.HasPrefix(k, "ramsch_points_") || strings.HasPrefix(k, "ramsch_tricks_") {
				if !strings.Contains(r.body, `name="`+k+`" value="`+vs[0]+`"`) {
					t.Fatalf("%s %v: the form lost %s=%s", c.lang, c.v, k, vs[0])
				}
			}
		}
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 0.0 {
		t.Fatalf("a refused Ramsch recorded a deal")
	}
}

func TestRecordFormFlow(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	// Points for the opponents: the app computes the declarer's 70.
	v := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"50"}, "points_side": {"opponents"}, "tricks": {"5"}, "expected_hand": {"1"}, "idempotency_key": {"abc"}}
	r := form(t, h, "/g/"+id+"/record", v)
	if r.status != http.StatusSeeOther {
		t.Fatalf("record: %d %s", r.status, r.body)
	}
	// The browser resubmits the same form: nothing is recorded twice.
	if r := form(t, h, "/g/"+id+"/record", v); r.status != http.StatusSeeOther {
		t.Fatalf("resubmit: %d", r.status)
	}
	l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)
	if l["hands"] != 1.0 || l["balances"].(map[string]any)["Ben"] != "6" {
		t.Fatalf("after a resubmitted form: %v", l)
	}
	// A second phone still showing deal 1's form: told what happened.
	v.Set("idempotency_key", "other-phone")
	r = form(t, h, "/g/"+id+"/record", v)
	if r.status != http.StatusConflict || !strings.Contains(errorNear(r.body, ""), "This is deal 2, not 1") {
		t.Fatalf("second phone: %d %q", r.status, errorNear(r.body, ""))
	}
	// Correct deal 1 without a reason, and with; then void it without and
	// with a reason. Each refusal changes nothing and keeps what was typed.
	c := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"60"}, "tricks": {"4"}, "reason": {"  "}}
	if r := form(t, h, "/g/"+id+"/hands/1", c, "Accept-Language", "de"); r.status != http.StatusUnprocessableEntity ||
		errorNear(r.body, "reason") != "Bitte einen Grund antippen oder sagen, warum das Spiel berichtigt wird (für den Verlauf)." || !strings.Contains(r.body, `value="60"`) {
		t.Fatalf("a correction without a reason: %d %q", r.status, errorNear(r.body, "reason"))
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/hands", "").body; !strings.Contains(l, `"revisions":1`) {
		t.Fatalf("a refused correction changed deal 1: %s", l)
	}
	c.Set("reason", "miscounted")
	if r := form(t, h, "/g/"+id+"/hands/1", c); r.status != http.StatusSeeOther {
		t.Fatalf("correct: %d %s", r.status, r.body)
	}
	if r := form(t, h, "/g/"+id+"/hands/1/void", url.Values{"reason": {""}}); r.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(r.body, "void"), "Say why") {
		t.Fatalf("void without a reason: %d %q", r.status, errorNear(r.body, "void"))
	} else if !strings.Contains(r.body, `href="/g/`+id+`/hands/1?lang=sv"`) || strings.Contains(r.body, `/void?lang=`) {
		// The language switch of a refused void goes to the deal's page,
		// which a GET reaches, not to the void's address.
		t.Fatalf("a refused void switches language at another address: %s", r.body)
	}
	// The void's address asked with a GET (a reload of the refused page the
	// script left in the address bar) goes to the deal's page.
	for path, to := range map[string]string{"/g/" + id + "/hands/1/void?lang=sv": "/g/" + id + "/hands/1?lang=sv", "/g/" + id + "/hands/1/undo": "/g/" + id} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != to {
			t.Fatalf("GET %s: %d %q, want a redirect to %s", path, rec.Code, rec.Header().Get("Location"), to)
		}
	}
	// So does an error page answering a post: to the table.
	if r := form(t, h, "/g/"+id+"/hands/99/void", url.Values{"reason": {"x"}}); r.status != http.StatusNotFound || !strings.Contains(r.body, `href="/g/`+id+`?lang=sv"`) {
		t.Fatalf("a void of no deal: %d, switches language elsewhere: %s", r.status, r.body)
	}
	if r := form(t, h, "/g/"+id+"/hands/1/void", url.Values{"reason": {"misdeal"}}); r.status != http.StatusSeeOther {
		t.Fatalf("void: %d", r.status)
	}
	table := page(t, h, "/g/"+id, "en").body
	for _, want := range []string{"voided: Misdeal", "corrected", "recorded:", "corrected: miscounted"} {
		if !strings.Contains(table, want) {
			t.Fatalf("the table's history lacks %q", want)
		}
	}
	if r := page(t, h, "/g/"+id+"/hands/9", "en"); r.status != 404 {
		t.Fatalf("unknown hand: %d", r.status)
	}
	if r := page(t, h, "/g/nosuchgame", "en"); r.status != 404 || !strings.Contains(r.body, "no game with this id") {
		t.Fatalf("unknown game: %d", r.status)
	}
}

func TestStartFormMessages(t *testing.T) {
	h := newServer(t)
	cases := []struct {
		variant string
		v       url.Values
		field   string
		says    string
	}{
		{"zuger", players("Anna", "Ben", "Cleo"), "player3", "Player 4 has no name"},
		{"old-tapp", players("Anna", "Ben", "Anna"), "player2", `"Anna" is named twice`},
		{"old-tapp", func() url.Values { v := players("A", "B", "C"); v.Set("unit", "-1"); return v }(), "unit", "not an amount above 0"},
		{"old-tapp", func() url.Values { v := players("A", "B", "C"); v.Set("currency", "XYZ"); return v }(), "currency", "ISO 4217"},
		{"old-tapp", func() url.Values { v := players("A", "B", "C"); v.Set("stake", "-2"); return v }(), "stake", "whole number of units, 0 or more"},
		{"old-tapp", func() url.Values { v := players("A", "B", "C"); v.Set("stake", "1.000"); return v }(), "stake", "could be a thousand"},
		{"old-tapp", func() url.Values { v := players("A", "B", "C"); v.Set("unit", "1,000"); return v }(), "unit", "could be a thousand"},
		{"wuerttemberg", func() url.Values { v := players("A", "B", "C"); v.Set("values.suit", "0"); return v }(), "values.suit", "above 0"},
	}
	for _, c := range cases {
		r := form(t, h, "/new/"+c.variant, c.v)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(r.body, c.field), c.says) {
			t.Fatalf("%s %v: %d %q, want %q", c.variant, c.v, r.status, errorNear(r.body, c.field), c.says)
		}
		if !strings.Contains(r.body, `value="`+c.v["player"][0]+`"`) {
			t.Fatal("the form lost the names typed")
		}
	}
	if r := page(t, h, "/new/skat", "en"); r.status != 404 {
		t.Fatalf("unknown variant: %d", r.status)
	}
	// A house rule's refusal reads as a sentence, not as the API's field.
	v := players("A", "B", "C")
	v.Set("stake", "-2")
	if got := errorNear(form(t, h, "/new/old-tapp", v).body, "stake"); got != "The stake must be a whole number of units, 0 or more, not -2." {
		t.Errorf("stake -2 says %q", got)
	}
	// An amount typed the German way is quoted as typed, not as read.
	v.Set("stake", "2,5")
	if got := errorNear(form(t, h, "/new/old-tapp", v, "Accept-Language", "de").body, "stake"); got != "Der Einsatz muss eine ganze Zahl ab 0 sein, nicht 2,5." {
		t.Errorf("stake 2,5 on a German page says %q", got)
	}
	// A name with the space a phone keyboard adds after a word is taken
	// without it.
	if id := startForm(t, h, "old-tapp", players("Anna ", " Ben", "Cleo")); fmt.Sprint(do(t, h, "GET", "/api/games/"+id, "").json(t)["players"]) != "[Anna Ben Cleo]" {
		t.Fatalf("names with spaces around: %v", do(t, h, "GET", "/api/games/"+id, "").json(t)["players"])
	}
	// The money's symbol or short word: the code to write instead, in the
	// page's language.
	for lang, want := range map[string]string{
		"en": `Write one of SEK, NOK, DKK instead of "kr".`,
		"de": "Schreibe einen der Codes SEK, NOK oder DKK statt „kr“.",
		"sv": "Skriv en av valutakoderna SEK, NOK eller DKK i stället för ”kr”.",
	} {
		v := players("A", "B", "C")
		v.Set("currency", "kr")
		r := form(t, h, "/new/old-tapp", v, "Accept-Language", lang)
		if got := html.UnescapeString(errorNear(r.body, "currency")); r.status != http.StatusUnprocessableEntity || got != want {
			t.Errorf("%s: currency kr: %d %q, want %q", lang, r.status, got, want)
		}
	}
	// A contract's value that is no number: the contract by name, in the
	// page's language, no code name of the API's.
	for lang, want := range map[string]string{
		"en": `The value of "bettel" must be a whole number above 0, such as 5.`,
		"de": "Der Wert für „Bettel“ muss eine ganze Zahl über 0 sein, zum Beispiel 5.",
		"sv": "Värdet för ”bettel” måste vara ett heltal över 0, till exempel 5.",
	} {
		v := players("A", "B", "C")
		v.Set("values.bettel", "abc")
		r := form(t, h, "/new/wuerttemberg", v, "Accept-Language", lang)
		if got := errorNear(r.body, "values.bettel"); r.status != http.StatusUnprocessableEntity || got != want {
			t.Errorf("%s: bettel worth abc: %d %q, want %q", lang, r.status, got, want)
		}
	}
}

func TestCloseForm(t *testing.T) {
	h := newServer(t)
	id := cutEvening(t, h)
	r := page(t, h, "/g/"+id+"/close", "en")
	if !strings.Contains(r.body, "Leftover unit 2 goes to") {
		t.Fatalf("close page does not ask for the cut: %s", visibleText(r.body))
	}
	r = form(t, h, "/g/"+id+"/close", url.Values{})
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(r.body, ""), "say who won the cut") {
		t.Fatalf("close without the cut: %d %q", r.status, errorNear(r.body, ""))
	}
	// The cuts left unchosen are marked and described by the refusal.
	if strings.Count(r.body, `role="radiogroup" aria-invalid="true" aria-describedby="close-error"`) != 2 || !strings.Contains(r.body, `id="close-error"`) {
		t.Fatalf("the unchosen cuts are not marked: %s", r.body)
	}
	if r := form(t, h, "/g/"+id+"/close", url.Values{"remainder_to": {"Ben", "Cleo"}}); r.status != http.StatusSeeOther {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	table := page(t, h, "/g/"+id, "en").body
	if !strings.Contains(table, "This evening is closed.") || !strings.Contains(table, "Anna pays Ben €0.50") || !strings.Contains(table, "Anna pays Cleo €0.50") {
		t.Fatalf("closed table: %s", visibleText(table))
	}
}

// A missing choice is answered with what to do, not with the form's own
// question again ("Vem spelade?" under the heading "Vem spelade?").
func TestMissingChoiceSaysWhatToDo(t *testing.T) {
	h := newServer(t)
	zuger := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	matzl := startForm(t, h, "matzlfangen", players("Anna", "Ben", "Cleo", "Dan"))
	wue := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	for _, c := range []struct {
		id, field, lang, says string
		v                     url.Values
	}{
		{zuger, "declarer", "sv", "Tryck på den som spelade.", url.Values{"contract": {"solo"}, "points": {"70"}, "tricks": {"5"}}},
		{zuger, "declarer", "de", "Antippen, wer gespielt hat.", url.Values{"contract": {"solo"}, "points": {"70"}, "tricks": {"5"}}},
		{matzl, "partner", "sv", "Tryck på den som hade det anropade kortet.", url.Values{"contract": {"rufen"}, "points": {"70"}, "tricks": {"5"}}},
		{wue, "declarer", "de", "Antippen, wer gespielt hat.", url.Values{"contract": {"suit"}, "points": {"70"}}},
	} {
		r := form(t, h, "/g/"+c.id+"/record", c.v, "Accept-Language", c.lang)
		if got := errorNear(r.body, c.field); r.status != http.StatusUnprocessableEntity || got != c.says {
			t.Errorf("%s without %s: %d %q, want %q", c.lang, c.field, r.status, got, c.says)
		}
	}
}
