package web

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	dealsAttr = regexp.MustCompile(`data-deals="([^"]*)"`)
	tokenAttr = regexp.MustCompile(`name="form_token" value="([^"]*)"`)
)

// The record page names its deal for the phone to record it, and number
// the ones after it, without the server: its number, dealer's seat, key
// (the form's), draft, and its words with {n} for any deal's number.
func TestRecordPageNamesItsDeal(t *testing.T) {
	h := newServerWith(t, Options{FormKey: formKey})
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"rufen","partner":"Dan","points":70,"tricks":5}`), 201)
	for lang, words := range map[string]struct{ title, of string }{
		"en": {"Record deal 2", "Record deal {n}"},
		"de": {"Spiel 2 eintragen", "Spiel {n} eintragen"},
	} {
		page := mustStatus(t, do(t, h, "GET", "/g/"+id+"/record?contract=rufen&lang="+lang, ""), 200).body
		m := dealsAttr.FindStringSubmatch(page)
		if m == nil {
			t.Fatal("the record page names no deal")
		}
		var d aheadDeal
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &d); err != nil {
			t.Fatal(err)
		}
		if d.Hand != 2 || d.Seat != 1 || d.Draft != id+"/new/2" || d.Title != words.title || d.Submit != words.title ||
			d.TitleOf != words.of || d.SubmitOf != words.of {
			t.Errorf("%s: the page's deal: %+v", lang, d)
		}
		if d.Key == "" || !strings.Contains(page, `name="idempotency_key" value="`+d.Key+`"`) {
			t.Errorf("%s: the deal's key %q is not its form's", lang, d.Key)
		}
	}
	// The table names it too, without a key: it is kept in the cache and
	// shown to every phone alike.
	table := mustStatus(t, do(t, h, "GET", "/g/"+id+"?lang=en", ""), 200).body
	m := dealsAttr.FindStringSubmatch(table)
	if m == nil {
		t.Fatal("the table names no deal")
	}
	var d aheadDeal
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &d); err != nil || d.Hand != 2 || d.Key != "" {
		t.Errorf("the table's deal: %+v %v", d, err)
	}
}

// The read-only link reaches no forms, and its table names no deal.
func TestReadOnlyLinkKeepsNoForms(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	var g struct {
		ReadID string `json:"read_id"`
	}
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/games/"+id, "").body), &g); err != nil || g.ReadID == "" {
		t.Fatalf("read id: %v %q", err, g.ReadID)
	}
	if r := do(t, h, "GET", "/r/"+g.ReadID+"/record/forms", ""); r.status != 404 {
		t.Errorf("the read-only link's forms: %d", r.status)
	}
	if page := do(t, h, "GET", "/r/"+g.ReadID, "").body; dealsAttr.MatchString(page) || strings.Contains(page, "data-forms") {
		t.Error("the read-only table names a deal to record")
	}
}

// The forms the phone keeps: every contract's for every dealer's seat, each
// asking what that seat's deal asks (Matzlfangen's partner is not the
// forehand who calls), posting where the page's form posts, with its token.
func TestRecordFormsForEverySeat(t *testing.T) {
	h := newServerWith(t, Options{FormKey: formKey})
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	page := mustStatus(t, do(t, h, "GET", "/g/"+id+"/record?contract=rufen&lang=en", ""), 200).body
	token := tokenAttr.FindStringSubmatch(page)
	if token == nil {
		t.Fatal("the record page's form has no token")
	}
	r := mustStatus(t, do(t, h, "GET", "/g/"+id+"/record/forms?lang=en", ""), 200)
	var kept offlineForms
	if err := json.Unmarshal([]byte(r.body), &kept); err != nil {
		t.Fatal(err)
	}
	if kept.Seats != 4 {
		t.Fatalf("%d seats, want 4", kept.Seats)
	}
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	for seat := range 4 {
		forehand := players[(seat+1)%4]
		for _, contract := range []string{"", "rufen", "treiben", "neid", "durch", "trumpf-durch"} {
			form, ok := kept.Forms[strconv.Itoa(seat)+"|"+contract]
			if !ok {
				t.Errorf("no form for seat %d, %q", seat, contract)
				continue
			}
			if !strings.Contains(form, html.EscapeString(players[seat]+" deals · "+forehand+" is forehand")) {
				t.Errorf("seat %d's %q form does not say who deals", seat, contract)
			}
			if contract == "" {
				continue
			}
			if got := tokenAttr.FindStringSubmatch(form); got == nil || got[1] != token[1] {
				t.Errorf("seat %d's %q form posts with token %v, the page's is %s", seat, contract, got, token[1])
			}
			if contract == "rufen" {
				for _, p := range players {
					if has := strings.Contains(form, `name="partner" value="`+p+`"`); has == (p == forehand) {
						t.Errorf("seat %d's rufen form: partner %s offered %v (forehand %s)", seat, p, has, forehand)
					}
				}
			}
		}
	}
}

// Where the next deals cannot be foreseen (a Württemberg evening whose end
// is announced), the page names none ahead and no forms are given.
func TestNoDealsAheadOnceTheEndIsAnnounced(t *testing.T) {
	h := newServerWith(t, Options{FormKey: formKey})
	id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"],"unit":"0.01","currency":"EUR"}`)
	if m := dealsAttr.FindStringSubmatch(mustStatus(t, do(t, h, "GET", "/g/"+id+"/record?contract=suit", ""), 200).body); m == nil {
		t.Fatal("before the end, the record page names no deals ahead")
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"suit","declarer":"Anna","trump":"clubs","points":61}`), 201)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/herz-as", `{}`), 200)
	page := do(t, h, "GET", "/g/"+id+"/record", "")
	if dealsAttr.MatchString(page.body) {
		t.Error("after Herz-As, the record page names deals ahead")
	}
	if r := do(t, h, "GET", "/g/"+id+"/record/forms", ""); r.status < 400 {
		t.Errorf("after Herz-As, the forms are given: %d", r.status)
	}
}

// A closed evening's deal form, shown to say a deal came too late, marks
// itself closed: the phone then promises no deal kept after it.
func TestClosedEveningsFormSaysSo(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	page := mustStatus(t, do(t, h, "GET", "/g/"+id+"/record?contract=pass&lang=en", ""), 200).body
	if strings.Contains(page, "data-closed") {
		t.Fatal("an open evening's form says it is closed")
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), 200)
	late := form(t, h, "/g/"+id+"/record?lang=en", url.Values{"contract": {"pass"}, "expected_hand": {"1"}, "idempotency_key": {"late-1"}})
	if late.status < 400 || !strings.Contains(late.body, "data-closed") {
		t.Fatalf("a deal sent to a closed evening: %d, no closed form: %s", late.status, late.body)
	}
}
