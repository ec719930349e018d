package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// #15.7: the start form shows every problem at once, each next to its
// field: a blank seat names that seat, "Anna" and "anna" are one name, a
// 41st character is refused with a message (not dropped), an amount typed
// with a decimal comma is quoted back as typed; Württemberg's contract
// values are folded under the house rules and its unit is a cent's money.
func TestStartFormAllErrorsAtOnce(t *testing.T) {
	h := newServer(t)
	long := strings.Repeat("x", 41)
	v := url.Values{"player": {"Anna", "", "anna", long}, "unit": {"0,1234567"}, "currency": {"EURO"}, "tapp_threshold": {"62"}}
	r := form(t, h, "/new/zuger", v)
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("%d, want 422", r.status)
	}
	for field, says := range map[string]string{
		"player1":        "Player 2 has no name",
		"player2":        `"Anna" and "anna" are the same name`,
		"player3":        "is 41 characters long",
		"unit":           `"0,1234567" has more than 6 decimal places`,
		"currency":       `"EURO"`,
		"tapp_threshold": "or 65 (no draw), not 62",
	} {
		if got := errorNear(r.body, field); !strings.Contains(got, says) {
			t.Errorf("next to %s: %q, want %q", field, got, says)
		}
	}
	// Each refused field is marked invalid as the stylesheet and screen
	// readers read it (aria-invalid="true"; a bare aria-invalid reads as
	// false), the others not at all.
	for _, field := range []string{`name="currency"`, `name="unit"`, `name="tapp_threshold"`} {
		if !regexp.MustCompile(`<(input|select) ` + field + `[^>]*aria-invalid="true"`).MatchString(r.body) {
			t.Errorf("the refused %s is not marked invalid", field)
		}
	}
	if strings.Count(r.body, "aria-invalid") != strings.Count(r.body, `aria-invalid="true"`) {
		t.Error("a field is marked with a bare aria-invalid")
	}
	if errorNear(r.body, "player0") != "" {
		t.Errorf("Anna's seat has an error: %q", errorNear(r.body, "player0"))
	}
	if !strings.Contains(r.body, `value="`+long+`"`) {
		t.Error("the long name was dropped from the form")
	}
	if r := form(t, h, "/new/zuger", url.Values{"player": {"A", "B", "C", "D"}, "unit": {"1,5x"}}); !strings.Contains(errorNear(r.body, "unit"), `"1,5x"`) {
		t.Errorf("a typed unit with a comma is quoted as %q", errorNear(r.body, "unit"))
	}

	w := page(t, h, "/new/wuerttemberg", "en").body
	fold := w[strings.Index(w, `<details class="values"`):]
	fold = fold[:strings.Index(fold, "</details>")]
	if strings.Count(fold, `name="values.`) != 11 || strings.Count(w, `name="values.`) != 11 {
		t.Errorf("Württemberg's 11 contract values are not all under the fold")
	}
	if !strings.Contains(w, "One cent of the game is worth") || !strings.Contains(w, `name="unit" value="0.01"`) || !strings.Contains(fold, "(cents)") {
		t.Errorf("Württemberg's unit does not say it is a cent's money, with 0.01 to start with")
	}
	de := page(t, h, "/new/wuerttemberg", "de").body
	if !strings.Contains(de, `name="unit" value="0,01"`) {
		t.Errorf("the German form does not start with 0,01")
	}
	// A value refused opens the fold, with its message next to it.
	bad := players("A", "B", "C")
	bad.Set("values.bettel", "0")
	r = form(t, h, "/new/wuerttemberg", bad)
	if !strings.Contains(r.body, `<details class="values" open>`) || !strings.Contains(errorNear(r.body, "values.bettel"), "above 0") {
		t.Errorf("a refused value: fold open %t, message %q", strings.Contains(r.body, `<details class="values" open>`), errorNear(r.body, "values.bettel"))
	}
	// A value of the wrong kind is refused in the page's words: the
	// contract by its name, what the rule takes in the language.
	for _, c := range []struct {
		lang, variant, field, typed, says string
	}{
		{"de", "old-tapp", "stake", "zwei", "Erwartet wird eine ganze Zahl von Einheiten, etwa 2."},
		{"sv", "old-tapp", "stake", "två", "Här ska det stå ett helt antal enheter, till exempel 2."},
		{"en", "old-tapp", "stake", "two", "Must be a whole number of units, such as 2."},
		{"de", "wuerttemberg", "cards", "52", "Karten: 36 oder 32, nicht 52."},
		{"en", "wuerttemberg", "values.jungfer", "0", `The value of "Ramsch, to a Jungfer" must be a whole number above 0, not 0.`},
		{"de", "wuerttemberg", "values.open-bettel", "abc", "Der Wert für „Aufgelegter Bettel“ muss eine ganze Zahl über 0 sein, zum Beispiel 5."},
		{"sv", "wuerttemberg", "values.durch-hearts", "0", "Värdet för ”durch i hjärter” måste vara ett heltal över 0, inte 0."},
	} {
		v := players("A", "B", "C")
		v.Set(c.field, c.typed)
		r := form(t, h, "/new/"+c.variant, v, "Accept-Language", c.lang)
		if got := errorNear(r.body, c.field); r.status != http.StatusUnprocessableEntity || got != c.says {
			t.Errorf("%s %s %s=%q: %d %q, want %q", c.lang, c.variant, c.field, c.typed, r.status, got, c.says)
		}
	}
}
