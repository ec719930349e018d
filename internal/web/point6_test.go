package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// overWuerttemberg plays a Württemberg evening through the API to its end
// (♥A said, Ben holding it, every Zwangsramsch played): its id and how
// many deals it has.
func overWuerttemberg(t *testing.T, h http.Handler) (string, int) {
	t.Helper()
	post := func(path, body string) {
		t.Helper()
		if r := do(t, h, "POST", path, body); r.status >= 300 {
			t.Fatalf("%s %s: %d %s", path, body, r.status, r.body)
		}
	}
	suit := `{"contract":"suit","declarer":"Ben","trump":"clubs","points":70}`
	ramsch := `{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":3},"Ben":{"points":40,"tricks":3},"Cleo":{"points":30,"tricks":2},"Dan":{"points":0,"tricks":0}}}`
	wo := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	post("/api/games/"+wo+"/hands", suit)
	post("/api/games/"+wo+"/herz-as", `{}`)
	post("/api/games/"+wo+"/hands", suit)
	post("/api/games/"+wo+"/herz-as/holder", `{"player":"Ben"}`)
	n := 2
	for ; n < 6; n++ { // Ben deals 2 and 6: 6 is the last regular deal
		post("/api/games/"+wo+"/hands", suit)
	}
	for ; n < 10; n++ {
		post("/api/games/"+wo+"/hands", ramsch)
	}
	if end := do(t, h, "GET", "/api/games/"+wo+"/ledger", "").json(t)["end"].(map[string]any); end["over"] != true {
		t.Fatalf("the Württemberg evening is not over: %v", end)
	}
	return wo, n
}

// #36.6: the start page asks which game before it lists "My evenings",
// which grows with every evening.
func TestStartPageAsksTheGameFirst(t *testing.T) {
	h := newServer(t)
	for lang, ask := range map[string]string{"en": "Which game do you play?", "de": "", "sv": ""} {
		body := page(t, h, "/", lang).body
		mine := strings.Index(body, `id="mine"`)
		game := strings.Index(body, `href="/new/zuger"`)
		if ask != "" && !strings.Contains(body, ask) {
			t.Errorf("%s: the start page does not ask %q", lang, ask)
		}
		if mine < 0 || game < 0 || game > mine {
			t.Errorf("%s: the games at %d, My evenings at %d: the games come first", lang, game, mine)
		}
	}
}

// #36.6: a closed evening's share page says nothing more is recorded
// through its link; an open one's says anyone with the link can record.
func TestClosedEveningShareSaysNoRecording(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	open := map[string]string{"en": "Anyone with the link can record", "de": "Wer den Link hat, kann eintragen", "sv": "Alla som har länken kan föra in"}
	for lang, said := range open {
		if body := page(t, h, "/g/"+id+"/share", lang).body; !strings.Contains(body, said) {
			t.Errorf("open evening, %s: the share page does not say %q", lang, said)
		}
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), 200)
	for lang, said := range open {
		body := page(t, h, "/g/"+id+"/share", lang).body
		if strings.Contains(body, said) {
			t.Errorf("closed evening, %s: the share page still says %q", lang, said)
		}
	}
	if body := page(t, h, "/g/"+id+"/share", "en").body; !strings.Contains(body, "This evening is closed") {
		t.Errorf("closed evening: the share page does not say it is closed")
	}
}

// #36.6: a finished Württemberg evening's read-only page names no next
// deal nor dealer: it says every Zwangsramsch is played.
func TestFinishedWuerttembergReadOnlyNamesNoDealer(t *testing.T) {
	h := newServer(t)
	wo, n := overWuerttemberg(t, h)
	ro := do(t, h, "GET", "/api/games/"+wo, "").json(t)["read_id"].(string)
	body := visibleText(page(t, h, "/r/"+ro, "en").body)
	if strings.Contains(body, fmt.Sprintf("Deal %d:", n+1)) || strings.Contains(body, "is forehand") {
		t.Errorf("the finished evening's read-only page names a next deal: %s", body)
	}
	if !strings.Contains(body, "Every Zwangsramsch is played") {
		t.Errorf("the finished evening's read-only page does not say it is over")
	}
}

// #36.6: two phones record deal 1 at once; the second is refused and told
// what the first recorded, in words and amounts.
func TestTwoPhonesConflictShowsTheOtherDeal(t *testing.T) {
	h := newServerWith(t, Options{FormKey: formKey})
	id := createGame(t, h, zugerGame)
	form := page(t, h, "/g/"+id+"/record?contract=pass", "en").body
	token := fieldOf(t, formTokenRe, form, "form token")
	// The other phone records deal 1 first: Ben's solo.
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)
	deal := url.Values{"contract": {"pass"}, "expected_hand": {"1"}, "form_token": {token}, "idempotency_key": {"phone-two-1"}}
	rec := postFrom(h, "/g/"+id+"/record", deal, "Origin", "null", "Accept-Language", "en")
	body := visibleText(rec.Body.String())
	if rec.Code != http.StatusConflict {
		t.Fatalf("the second phone's deal 1: %d %s", rec.Code, body)
	}
	for _, want := range []string{"Deal 1 as the other phone recorded it: Solo by Ben", "Ben +6"} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal does not say %q: %s", want, body)
		}
	}
}

// #36.6: the theme switch says in words which colours are on, beside its
// symbol, in every language.
func TestThemeSwitchHasAVisibleLabel(t *testing.T) {
	h := newServer(t)
	for _, c := range []struct{ lang, theme, word string }{{"en", "", "Auto"}, {"de", "dark", "Dunkel"}, {"sv", "light", "Ljust"}} {
		body := page(t, h, "/?theme="+c.theme, c.lang).body
		i := strings.Index(body, `class="theme"`)
		if i < 0 {
			t.Fatalf("%s: no theme switch", c.lang)
		}
		link := body[i:]
		link = link[:strings.Index(link, "</a>")]
		if !strings.Contains(visibleText(link+">"), c.word) {
			t.Errorf("%s %q: the theme switch shows %q, not the word %q", c.lang, c.theme, visibleText(link+">"), c.word)
		}
	}
}

// #36.6: deals.csv opens in a German or Swedish spreadsheet as numbers: a
// byte-order mark, ";" between cells and the decimal comma; in English it
// stays the plain CSV it was (no mark, commas, decimal points).
func TestDealsCSVForTheReadersSpreadsheet(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), 201)
	for _, c := range []struct {
		lang  string
		bom   bool
		comma rune
		money string // Ben's money for +6 units of 0.50
		loss  string // Anna's −2 units
	}{{"en", false, ',', "3.00", "-1.00"}, {"de", true, ';', "3,00", "-1,00"}, {"sv", true, ';', "3,00", "-1,00"}} {
		body := []byte(page(t, h, "/g/"+id+"/deals.csv", c.lang).body)
		if got := bytes.HasPrefix(body, []byte("\uFEFF")); got != c.bom {
			t.Errorf("%s: byte-order mark %v, want %v", c.lang, got, c.bom)
		}
		r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("\uFEFF"))))
		r.Comma = c.comma
		rows, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		col := func(name string) string {
			for i, head := range rows[0] {
				if head == name {
					return rows[1][i]
				}
			}
			t.Fatalf("%s: no column %q in %q", c.lang, name, rows[0])
			return ""
		}
		if ben, anna := col("Ben (CHF)"), col("Anna (CHF)"); ben != c.money || anna != c.loss {
			t.Errorf("%s: Ben %q, Anna %q; want %q and %q (a number, not text)", c.lang, ben, anna, c.money, c.loss)
		}
	}
}
