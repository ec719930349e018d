package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// A deal's number in a path is written the one way: 1, 2, … Anything else
// (+1, 01, " 1", 1.0) is no deal of the game: 404, nothing changed.
func TestHandNumbersInPaths(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	deal := `{"contract":"tapp","declarer":"Anna","points":70,"tricks":5}`
	do(t, h, "POST", "/api/games/"+id+"/hands", deal)
	before := do(t, h, "GET", "/api/games/"+id+"/events", "").body
	for _, n := range []string{"+1", "01", "%201", "1%20", "1.0", "1e0", "0x1", "-1", "0", "99999999999999999999"} {
		if r := do(t, h, "PUT", "/api/games/"+id+"/hands/"+n, deal); r.status != http.StatusNotFound || r.json(t)["error"] == nil {
			t.Errorf("PUT hands/%s: %d %s, want 404", n, r.status, r.body)
		}
		if r := do(t, h, "POST", "/api/games/"+id+"/hands/"+n+"/void", `{"reason":"x"}`); r.status != http.StatusNotFound {
			t.Errorf("void hands/%s: %d, want 404", n, r.status)
		}
		if r := page(t, h, "/g/"+id+"/hands/"+n, "en"); r.status != http.StatusNotFound {
			t.Errorf("GET /g/…/hands/%s: %d, want 404", n, r.status)
		}
	}
	if after := do(t, h, "GET", "/api/games/"+id+"/events", "").body; after != before {
		t.Fatal("a request for a deal number in another form changed the game")
	}
	if r := do(t, h, "PUT", "/api/games/"+id+"/hands/1", deal); r.status != http.StatusOK {
		t.Fatalf("PUT hands/1: %d %s", r.status, r.body)
	}
}

// remainder_to where no cut is due is refused (closing cannot be undone, so
// a name that would be ignored is a mistake worth saying).
func TestRemainderToWhereNoCutIsDue(t *testing.T) {
	h := newServer(t)
	cases := []struct {
		name, game string
		deals      []string
	}{
		{"zuger has no pot", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`, nil},
		{"an empty pot", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":{"stake":0,"remainder":"cut"}}`, []string{`{"contract":"pass"}`}},
		{"a pot that shares out evenly", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":{"remainder":"cut"}}`,
			[]string{`{"contract":"pass"}`, `{"contract":"pass"}`, `{"contract":"pass"}`}},
		{"one biggest loser", `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":{"remainder":"biggest-loser"}}`, []string{`{"contract":"pass"}`}},
	}
	for _, c := range cases {
		id := createGame(t, h, c.game)
		for _, d := range c.deals {
			do(t, h, "POST", "/api/games/"+id+"/hands", d)
		}
		r := do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":["Anna"]}`)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "remainder_to") {
			t.Errorf("%s: close with remainder_to: %d %s, want 422", c.name, r.status, r.body)
			continue
		}
		if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["closed"] != false {
			t.Errorf("%s: a refused close closed the game", c.name)
		}
		if r := do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":[]}`); r.status != http.StatusOK {
			t.Errorf("%s: close without remainder_to: %d %s", c.name, r.status, r.body)
		}
	}
}

// Amounts are plain decimals of a bounded size wherever they are read:
// 1e10000 and 1e-10000 are not stored, and the message does not repeat
// ten thousand digits.
func TestAmountsAreBounded(t *testing.T) {
	h := newServer(t)
	cases := []struct{ game, says string }{
		{`{"variant":"zuger","players":["A","B","C","D"],"unit":"1e10000"}`, "unit: \"1e10000\" is written with an exponent"},
		{`{"variant":"zuger","players":["A","B","C","D"],"unit":"1e-10000"}`, "unit: \"1e-10000\" is written with an exponent"},
		{`{"variant":"zuger","players":["A","B","C","D"],"unit":"1234567890"}`, "more than 9 digits before the decimal point"},
		{`{"variant":"zuger","players":["A","B","C","D"],"unit":"0.0000001"}`, "more than 6 decimal places"},
		{`{"variant":"zuger","players":["A","B","C","D"],"unit":"0.` + strings.Repeat("0", 10000) + `1"}`, "more than 6 decimal places"},
		{`{"variant":"old-tapp","players":["A","B","C"],"rules":{"stake":"1e10000"}}`, "rules.stake: \"1e10000\" is written with an exponent"},
		{`{"variant":"old-tapp","players":["A","B","C"],"rules":{"stake":1e3}}`, "rules.stake: \"1e3\" is written with an exponent"},
		{`{"variant":"old-tapp","players":["A","B","C"],"rules":{"stake":"` + strings.Repeat("9", 10000) + `"}}`, "more than 9 digits"},
		{`{"variant":"wuerttemberg","players":["A","B","C"],"rules":{"values":{"suit":"1e10000"}}}`, "rules.values.suit: \"1e10000\" is written with an exponent"},
	}
	for _, c := range cases {
		r := do(t, h, "POST", "/api/games", c.game)
		msg, _ := r.json(t)["error"].(string)
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(msg, c.says) || len(msg) > 300 {
			t.Errorf("%.80s: %d %.300s, want 422 saying %q", c.game, r.status, r.body, c.says)
		}
	}
	// A unit as a JSON number is refused before its size is looked at
	// (api.md: amounts are decimal strings); a huge one is not repeated.
	for unit, meant := range map[string]string{"1e-2": `"0.01"`, "0.1": `"0.1"`, "1E400": `"0.50"`, "1e-999999999": `"0.50"`, "1" + strings.Repeat("0", 10000): `"0.50"`} {
		r := do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"unit":`+unit+`}`)
		if msg, _ := r.json(t)["error"].(string); r.status != http.StatusBadRequest || !strings.Contains(msg, "unit: must be a decimal string, such as "+meant) || len(msg) > 300 {
			t.Errorf("unit %.20s as a JSON number: %d %.300s", unit, r.status, r.body)
		}
	}
	if r := do(t, h, "POST", "/api/games", `{"variant":"old-tapp","players":["A","B","C"],"unit":"0.05","rules":{"stake":"3"}}`); r.status != http.StatusCreated {
		t.Fatalf("a plain unit and stake: %d %s", r.status, r.body)
	}
	// The start form: a unit of 1e5 is refused next to the field, in the
	// reader's language.
	v := players("Anna", "Ben", "Cleo")
	v.Set("unit", "1e5")
	f := form(t, h, "/new/old-tapp", v, "Accept-Language", "de")
	if f.status != http.StatusUnprocessableEntity || !strings.Contains(errorNear(f.body, "unit"), "Exponent") {
		t.Fatalf("start form with unit 1e5: %d %q", f.status, errorNear(f.body, "unit"))
	}
}

// A request whose headers are too large is answered with api.md's error
// shape, as JSON, over a real TCP connection: net/http writes that answer
// itself, before any handler, so the listener puts it in JSON.
func TestHugeHeaderAnswersJSON(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st := newStore(t)
	handler, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(JSONErrors(ln))
	t.Cleanup(func() { srv.Shutdown(context.Background()) })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		w := bufio.NewWriter(conn)
		w.WriteString("GET /api/games/x/ledger HTTP/1.1\r\nHost: tappbook\r\nX-Big: ")
		w.WriteString(strings.Repeat("a", 1100<<10))
		w.WriteString("\r\n\r\n")
		w.Flush()
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	var m map[string]string
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
		json.Unmarshal(body, &m) != nil || !strings.Contains(m["error"], "headers") {
		t.Fatalf("1.1 MB of headers: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}

	// A request net/http cannot parse at all is answered the same way.
	conn2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	conn2.Write([]byte("GET / HTTP/1.1\r\nHost: a\r\nBroken header line\r\n\r\n"))
	res, err = http.ReadResponse(bufio.NewReader(conn2), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	if res.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &m) != nil || m["error"] == "" {
		t.Fatalf("a malformed request: %d %q", res.StatusCode, body)
	}

	// Ordinary answers pass through untouched.
	r, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("healthz through the listener: %v %v", err, r)
	}
	r.Body.Close()
}

func newStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A unit finer than its currency is refused where it is typed, with one the
// currency can pay: in the API, the start form and a group's, in the
// reader's language.
func TestUnitFinerThanItsCurrency(t *testing.T) {
	h := newServer(t)
	for _, path := range []string{"/api/games", "/api/groups"} {
		body := `{"variant":"zuger","players":["A","B","C","D"],"unit":"0.125","currency":"CHF"}`
		if path == "/api/groups" {
			body = `{"name":"Thursday","players":["A","B"],"unit":"0.125","currency":"CHF"}`
		}
		r := do(t, h, "POST", path, body)
		if msg, _ := r.json(t)["error"].(string); r.status != http.StatusUnprocessableEntity || msg != "unit: 0.125 has more decimal places than CHF has (2), so what it adds up to could not be paid exactly; give a unit such as 0.13" {
			t.Errorf("%s with a unit of 0.125 CHF: %d %s", path, r.status, r.body)
		}
	}
	v := players("Anna", "Ben", "Cleo")
	v.Set("unit", "0,125")
	v.Set("currency", "EUR")
	f := form(t, h, "/new/old-tapp", v, "Accept-Language", "de")
	if near := errorNear(f.body, "unit"); f.status != http.StatusUnprocessableEntity || !strings.Contains(near, "0,125") || !strings.Contains(near, "0,13") {
		t.Fatalf("start form with a unit of 0,125 EUR: %d %q", f.status, near)
	}
}
