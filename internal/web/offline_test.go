package web

import (
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	dealsAttr = regexp.MustCompile(`data-deals="([^"]*)"`)
	tokenAttr = regexp.MustCompile(`name="form_token" value="([^"]*)"`)
)

// The record page names this deal and the next ones for the phone to record
// without the server, each with its own key, dealer's seat and draft.
func TestRecordPageNamesTheDealsAhead(t *testing.T) {
	h := newServerWith(t, Options{FormKey: formKey})
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"rufen","partner":"Dan","points":70,"tricks":5}`), 201)
	page := mustStatus(t, do(t, h, "GET", "/g/"+id+"/record?lang=en", ""), 200).body
	m := dealsAttr.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the record page names no deals ahead")
	}
	var deals []aheadDeal
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &deals); err != nil {
		t.Fatal(err)
	}
	if len(deals) != dealsAhead {
		t.Fatalf("%d deals ahead, want %d", len(deals), dealsAhead)
	}
	keys := map[string]bool{}
	for i, d := range deals {
		hand := 2 + i
		if d.Hand != hand || d.Seat != (hand-1)%4 || d.Draft != id+"/new/"+strconv.Itoa(hand) ||
			d.Title != "Record deal "+strconv.Itoa(hand) || d.Submit != d.Title {
			t.Errorf("deal ahead %d: %+v", i, d)
		}
		if keys[d.Key] || d.Key == "" {
			t.Errorf("deal %d's key %q is empty or another's", hand, d.Key)
		}
		keys[d.Key] = true
	}
	if !strings.Contains(page, `value="`+deals[0].Key+`"`) && strings.Contains(page, `name="idempotency_key"`) {
		t.Error("the deal on the page has another key than its form's")
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
	if m := dealsAttr.FindStringSubmatch(mustStatus(t, do(t, h, "GET", "/g/"+id+"/record", ""), 200).body); m == nil {
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
