package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

const zugerGame = `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF","rules":{"tapp_threshold":65}}`

// The exact JSON shapes api.md fixes.
func TestShapes(t *testing.T) {
	h := newServer(t)
	r := do(t, h, "POST", "/api/games", zugerGame)
	g := r.json(t)
	if r.status != 201 || keys(g) != "currency,id,players,read_id,rules,unit,variant" {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	if g["unit"] != "0.50" || g["currency"] != "CHF" || g["variant"] != "zuger" || len(g["id"].(string)) < 26 {
		t.Fatalf("create: %s", r.body)
	}
	if rules := g["rules"].(map[string]any); rules["tapp_threshold"] != 65.0 {
		t.Fatalf("rules: %v", rules)
	}
	id := g["id"].(string)

	r = do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`)
	a := r.json(t)
	if r.status != 201 || keys(a) != "dealer,deltas,detail,explanation,hand,pot,pot_delta" {
		t.Fatalf("record: %d %s", r.status, r.body)
	}
	if a["hand"] != 1.0 || a["dealer"] != "Anna" || a["pot"] != "0" || a["pot_delta"] != "0" {
		t.Fatalf("record: %s", r.body)
	}
	if d := a["deltas"].(map[string]any); d["Ben"] != "6" || d["Anna"] != "-2" || len(d) != 4 {
		t.Fatalf("deltas must be decimal strings for every player: %v", d)
	}
	if a["explanation"] != "Solo by Ben won with 70 points in 5 tricks: 2 from each opponent." {
		t.Fatalf("explanation: %v", a["explanation"])
	}

	l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)
	for _, k := range []string{"hands", "dealer", "balances", "pot", "money", "closed"} {
		if _, ok := l[k]; !ok {
			t.Fatalf("ledger lacks %q: %v", k, l)
		}
	}
	if l["hands"] != 1.0 || l["dealer"] != "Ben" || l["closed"] != false || l["money"].(map[string]any)["Ben"] != "3.00" {
		t.Fatalf("ledger: %v", l)
	}

	hs := listHands(t, h, id)
	for _, k := range []string{"hand", "dealer", "record", "deltas", "pot_delta", "voided", "revisions", "explanation"} {
		if _, ok := hs[0][k]; !ok {
			t.Fatalf("hand lacks %q: %v", k, hs[0])
		}
	}
	if rec := hs[0]["record"].(map[string]any); keys(rec) != "contract,declarer,points,tricks" {
		t.Fatalf("record is not as posted: %v", rec)
	}

	var evs []map[string]any
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/games/"+id+"/events", "").body), &evs); err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || keys(evs[0]) != "at,data,hash,seq,type" || evs[0]["seq"] != 1.0 || evs[1]["type"] != "hand.recorded" {
		t.Fatalf("events: %v", evs)
	}

	r = do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":"misdeal"}`)
	if r.status != 200 || r.body != `{"hand":1,"voided":true}`+"\n" {
		t.Fatalf("void: %d %q", r.status, r.body)
	}
	s := do(t, h, "GET", "/api/games/"+id+"/settlement", "").json(t)
	if tr, ok := s["transfers"].([]any); !ok || len(tr) != 0 {
		t.Fatalf("settlement of an all-square game: %v", s)
	}
	if r := do(t, h, "GET", "/healthz", ""); r.status != 200 {
		t.Fatalf("healthz: %d", r.status)
	}
}

// Every refusal: its status, the {"error": …} shape with one sentence, and
// nothing changed.
func TestErrors(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`)
	big := `{"contract":"pass","declarer":"` + strings.Repeat("x", 70<<10) + `"}`
	cases := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		says                     string
	}{
		{"malformed JSON", "POST", "/api/games", `{"variant":`, nil, 400, "not complete JSON"},
		{"not JSON", "POST", "/api/games", `variant=zuger`, nil, 400, "not valid JSON"},
		{"empty body", "POST", "/api/games", ``, nil, 400, "empty"},
		{"wrong type", "POST", "/api/games", `{"variant":"zuger","players":"Anna"}`, nil, 400, "players: must be a list, not a string"},
		{"unknown variant", "POST", "/api/games", `{"variant":"skat","players":["A","B","C"]}`, nil, 422, "skat"},
		{"too few players", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C"]}`, nil, 422, "4 players"},
		{"a name twice", "POST", "/api/games", `{"variant":"old-tapp","players":["A","B","A"]}`, nil, 422, "twice"},
		{"a long name", "POST", "/api/games", `{"variant":"old-tapp","players":["A","B","` + strings.Repeat("é", 41) + `"]}`, nil, 422, "40 characters"},
		{"unknown rule", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"rules":{"stake":2}}`, nil, 422, "stake"},
		{"rule out of range", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"rules":{"tapp_threshold":62}}`, nil, 422, "61"},
		{"unknown field", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"color":"red"}`, nil, 422, "color"},
		{"bad unit", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"unit":"-1"}`, nil, 422, "unit"},
		{"bad currency", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"currency":"EURX"}`, nil, 422, "ISO 4217"},
		{"currency as a symbol", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"currency":"€"}`, nil, 422, `currency: write EUR instead of "€"`},
		{"unknown game", "POST", "/api/games/nosuchgame/hands", `{"contract":"pass"}`, nil, 404, "no game"},
		{"unknown game ledger", "GET", "/api/games/nosuchgame/ledger", ``, nil, 404, "no game"},
		{"unknown game events", "GET", "/api/games/nosuchgame/events", ``, nil, 404, "no game"},
		{"unknown hand", "PUT", "/api/games/" + id + "/hands/9", `{"contract":"pass"}`, nil, 404, "no hand 9"},
		{"hand not a number", "POST", "/api/games/" + id + "/hands/x/void", `{"reason":"r"}`, nil, 404, "no hand"},
		{"unknown route", "GET", "/api/nothing", ``, nil, 404, "no such"},
		{"impossible points", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":119,"tricks":7}`, nil, 422, "exactly 1 point"},
		{"unknown player", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Zoe","points":70,"tricks":5}`, nil, 422, "Zoe"},
		{"field the contract does not take", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5,"kontra":1}`, nil, 422, "kontra"},
		{"unknown hand field", "POST", "/api/games/" + id + "/hands", `{"contract":"pass","color":1}`, nil, 422, "color"},
		{"reason when recording", "POST", "/api/games/" + id + "/hands", `{"contract":"pass","reason":"x"}`, nil, 422, "reason"},
		{"points not whole", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":70.5,"tricks":5}`, nil, 400, "points"},
		{"not the dealer", "POST", "/api/games/" + id + "/hands", `{"contract":"pass","dealer":"Cleo"}`, nil, 409, "Ben is the dealer of deal 2"},
		{"dealer not a player", "POST", "/api/games/" + id + "/hands", `{"contract":"pass","dealer":"Zoe"}`, nil, 409, `"Zoe" is not a player of this game; Ben is the dealer of deal 2`},
		{"stale expected hand", "POST", "/api/games/" + id + "/hands", `{"contract":"pass","expected_hand":1}`, nil, 409, "this is deal 2, not 1"},
		{"void without reason", "POST", "/api/games/" + id + "/hands/1/void", `{}`, nil, 422, "reason"},
		{"body over 64 KiB", "POST", "/api/games/" + id + "/hands", big, nil, 413, "64 KiB"},
		{"wrong method", "DELETE", "/api/games/" + id + "/hands/1", ``, nil, 405, "method"},
		// encoding/json lets the last of two names win and matches names in
		// any letter case: a deal sent as won and lost would be recorded.
		{"a field twice", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5,"points":30}`, nil, 400, `names "points" twice`},
		{"a field twice in other case", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5,"POINTS":30}`, nil, 422, `"POINTS" is not a field`},
		{"a field in other case", "POST", "/api/games/" + id + "/hands", `{"CONTRACT":"pass"}`, nil, 422, `"CONTRACT" is not a field`},
		{"a rule twice", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"rules":{"tapp_threshold":61,"tapp_threshold":65}}`, nil, 400, `names "rules.tapp_threshold" twice`},
		{"a name not UTF-8", "POST", "/api/games", "{\"variant\":\"zuger\",\"players\":[\"An\xffna\",\"B\",\"C\",\"D\"]}", nil, 400, "UTF-8"},
		{"a lone surrogate", "POST", "/api/games", `{"variant":"zuger","players":["An\ud800na","B","C","D"]}`, nil, 400, "UTF-8"},
		{"a look-alike name", "POST", "/api/games", `{"variant":"zuger","players":["Anna","\u0410nna","Ben","Cleo"]}`, nil, 422, "player 2's name \"Аnna\" mixes letters of the Latin, Greek or Cyrillic alphabets in one word (U+0410 is one of another)"},
		{"null for a deal", "POST", "/api/games/" + id + "/hands", `null`, nil, 400, "must be a JSON object, not null"},
		// A wrong type is named by its field first, as every message is.
		{"points as text", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":"70","tricks":5}`, nil, 400, "points: must be a whole number, not a string"},
		{"a Ramsch count as text", "POST", "/api/games/" + id + "/hands", `{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":5},"Ben":{"points":"40","tricks":3}}}`, nil, 400, "ramsch.Ben.points: must be a whole number, not a string"},
		{"unit as true", "POST", "/api/games", `{"variant":"zuger","players":["A","B","C","D"],"unit":true}`, nil, 400, `unit: must be an amount such as "0.50", not a boolean`},
		{"points with a fraction", "POST", "/api/games/" + id + "/hands", `{"contract":"solo","declarer":"Ben","points":70.5,"tricks":5}`, nil, 400, "points: must be a whole number, not 70.5"},
	}
	before := do(t, h, "GET", "/api/games/"+id+"/events", "").body
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, h, c.method, c.path, c.body, c.headers...)
			if r.status != c.status {
				t.Fatalf("%d %s, want %d", r.status, r.body, c.status)
			}
			m := r.json(t)
			msg, ok := m["error"].(string)
			if !ok || len(m) != 1 || msg == "" {
				t.Fatalf("error body %s is not {\"error\": \"…\"}", r.body)
			}
			if !strings.Contains(msg, c.says) {
				t.Fatalf("error %q does not say %q", msg, c.says)
			}
		})
	}
	if after := do(t, h, "GET", "/api/games/"+id+"/events", "").body; after != before {
		t.Fatal("a refused request changed the game")
	}
}

func TestIdempotencyKeyHeader(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	body := `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`
	first := do(t, h, "POST", "/api/games/"+id+"/hands", body, "Idempotency-Key", "phone-1-deal-1")
	again := do(t, h, "POST", "/api/games/"+id+"/hands", body, "Idempotency-Key", "phone-1-deal-1")
	if first.status != 201 || again.status != 201 || first.body != again.body {
		t.Fatalf("first %d %s, again %d %s", first.status, first.body, again.status, again.body)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 1.0 {
		t.Fatalf("a repeated key recorded again: %v", l)
	}
	c1 := do(t, h, "POST", "/api/games", zugerGame, "Idempotency-Key", "create-1")
	c2 := do(t, h, "POST", "/api/games", zugerGame, "Idempotency-Key", "create-1")
	if c1.body != c2.body {
		t.Fatalf("a repeated create made another game: %s / %s", c1.body, c2.body)
	}
}

func TestCloseOldTappRemainder(t *testing.T) {
	h := newServer(t)
	for _, c := range []struct {
		rules, body string
		status      int
		anna        string
	}{
		// Stake 2, one passed deal: pot 2, nothing to share equally, 2 over.
		{`{"remainder":"cut"}`, `{}`, http.StatusUnprocessableEntity, ""},
		{`{"remainder":"cut"}`, `{"remainder_to":["Cleo"]}`, 200, "-2"},
		{`{"remainder":"cut"}`, `{"remainder_to":["Anna","Cleo"]}`, 200, "-1"},
		{`{"remainder":"cut"}`, `{"remainder_to":["Zoe"]}`, http.StatusUnprocessableEntity, ""},
		// Biggest loser: Anna paid the stake, so she is lowest and gets both.
		{`{"remainder":"biggest-loser"}`, `{}`, 200, "0"},
		// rules.md: the cut is the default.
		{`{}`, `{}`, http.StatusUnprocessableEntity, ""},
		{`{}`, `{"remainder_to":["Ben"]}`, 200, "-2"},
	} {
		id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":`+c.rules+`}`)
		do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`)
		r := do(t, h, "POST", "/api/games/"+id+"/close", c.body)
		if r.status != c.status {
			t.Fatalf("%s close %s: %d %s", c.rules, c.body, r.status, r.body)
		}
		if c.status != 200 {
			if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["closed"] != false || l["pot"] != "2" {
				t.Fatalf("a refused close changed the game: %v", l)
			}
			continue
		}
		if b := r.json(t)["balances"].(map[string]any); b["Anna"] != c.anna {
			t.Fatalf("%s %s: balances %v", c.rules, c.body, b)
		}
		if r := do(t, h, "POST", "/api/games/"+id+"/close", c.body); r.status != 409 {
			t.Fatalf("closing twice: %d", r.status)
		}
		if r := do(t, h, "PUT", "/api/games/"+id+"/hands/1", `{"contract":"pass"}`); r.status != 409 {
			t.Fatalf("correcting after close: %d", r.status)
		}
	}
}

func TestStepByStepEndpoints(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	base := "/api/games/" + id + "/deal"
	if r := do(t, h, "GET", base, ""); r.status != 404 {
		t.Fatalf("no deal yet: %d", r.status)
	}
	if r := do(t, h, "POST", base+"/announce", `{"contract":"neid","declarer":"Cleo","expected_hand":1}`); r.status != 200 || r.json(t)["hand"] != 1.0 {
		t.Fatalf("announce: %d %s", r.status, r.body)
	}
	do(t, h, "POST", base+"/kontra", `{"level":1}`)
	if r := do(t, h, "POST", base+"/kontra", `{"level":2}`); r.status != 200 || !strings.Contains(r.body, `"kontra":2`) {
		t.Fatalf("kontra: %d %s", r.status, r.body)
	}
	if r := do(t, h, "POST", base+"/matzl", `{"side":"nobody"}`); r.status != 422 {
		t.Fatalf("a bad matzl side: %d %s", r.status, r.body)
	}
	// A matzl caught, then a body that names no side: refused, the matzl kept.
	do(t, h, "POST", base+"/matzl", `{"side":"declarer"}`)
	if r := do(t, h, "POST", base+"/matzl", `{}`); r.status != 422 || !strings.Contains(r.body, "side: say which side caught the matzl") {
		t.Fatalf("a matzl with no side: %d %s", r.status, r.body)
	}
	if r := do(t, h, "GET", base, ""); !strings.Contains(r.body, `"matzl":"declarer"`) {
		t.Fatalf("the refused matzl changed the deal: %s", r.body)
	}
	do(t, h, "POST", base+"/matzl", `{"side":"none"}`)
	r := do(t, h, "POST", base+"/count", `{"points":80,"tricks":6}`)
	if r.status != 201 || r.json(t)["deltas"].(map[string]any)["Cleo"] != "9" {
		t.Fatalf("count: %d %s", r.status, r.body)
	}
	if r := do(t, h, "GET", base, ""); r.status != 404 {
		t.Fatalf("after the count the deal is no longer pending: %d", r.status)
	}
}

// Starting games is limited per client address: a burst (20 here), then
// 429, while another address can still start one.
func TestCreateRateLimit(t *testing.T) {
	h := newServerWith(t, Options{CreateBurst: 20, CreateEvery: time.Hour})
	var last *httptest.ResponseRecorder
	create := func(addr string) int {
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(zugerGame))
		req.RemoteAddr = addr
		req.Header.Set("X-Forwarded-For", "10.9.9.9") // not believed
		last = httptest.NewRecorder()
		h.ServeHTTP(last, req)
		return last.Code
	}
	for i := range 20 {
		if s := create("192.0.2.1:5000"); s != 201 {
			t.Fatalf("game %d: %d", i+1, s)
		}
	}
	if s := create("192.0.2.1:5001"); s != http.StatusTooManyRequests {
		t.Fatalf("21st game from one address: %d", s)
	}
	// When the next may be started: one an hour here.
	if ra := last.Header().Get("Retry-After"); ra != "3600" || !strings.Contains(last.Body.String(), "the next can be started in 3600 s") {
		t.Fatalf("the 429: Retry-After %q, %s", ra, last.Body.String())
	}
	if s := create("192.0.2.2:5000"); s != 201 {
		t.Fatalf("another address: %d", s)
	}
}

// 50 phones record the same deal at once through the API: one gets 201,
// 49 get 409 saying what happened, and no deal number is missing or twice.
func TestFiftyPhonesRecordTheSameDeal(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	for deal := 1; deal <= 3; deal++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		for i := range 50 {
			wg.Go(func() {
				body := fmt.Sprintf(`{"contract":"solo","declarer":"Ben","points":%d,"tricks":5,"expected_hand":%d}`, 65+i%50, deal)
				r := do(t, h, "POST", "/api/games/"+id+"/hands", body)
				mu.Lock()
				codes[r.status]++
				mu.Unlock()
				if r.status == 409 && !strings.Contains(r.json(t)["error"].(string), "someone may have recorded it already") {
					t.Errorf("409 does not say what happened: %s", r.body)
				}
			})
		}
		wg.Wait()
		if codes[201] != 1 || codes[409] != 49 {
			t.Fatalf("deal %d: %v, want one 201 and 49 409s", deal, codes)
		}
	}
	hands := listHands(t, h, id)
	for i, hd := range hands {
		if hd["hand"] != float64(i+1) {
			t.Fatalf("deal numbers: %v", hands)
		}
	}
	if len(hands) != 3 {
		t.Fatalf("%d deals, want 3", len(hands))
	}
}

// By default one address may start 1,000 games at once (a script checking
// the API from one machine, a long night of tables) before the limit
// refuses the next.
func TestCreateLimitDefault(t *testing.T) {
	e := echo.New()
	e.POST("/", func(c echo.Context) error { return c.NoContent(http.StatusCreated) }, createLimit(0, 0))
	for i := range 1001 {
		req := httptest.NewRequest("POST", "/", nil)
		req.RemoteAddr = "192.0.2.1:5000"
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if want := map[bool]int{true: http.StatusCreated, false: http.StatusTooManyRequests}[i < 1000]; rec.Code != want {
			t.Fatalf("start %d from one address: %d, want %d", i+1, rec.Code, want)
		}
	}
}

// A name typed in another Unicode form than the one kept ("Jose" and a
// combining accent; the game keeps "José") is the same player wherever a
// request names one, and is stored as the game keeps it.
func TestNamesInAnotherUnicodeForm(t *testing.T) {
	h := newServer(t)
	nfd := "Jose\u0301"
	id := createGame(t, h, `{"variant":"zuger","players":["`+nfd+`","Ben","Cleo","Dan"]}`)
	r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"`+nfd+`","points":70,"tricks":5,"dealer":"`+nfd+`"}`)
	if r.status != 201 || !strings.Contains(r.body, `"José":"6"`) {
		t.Fatalf("a deal naming José in another form: %d %s", r.status, r.body)
	}
	if hs := listHands(t, h, id); hs[0]["record"].(map[string]any)["declarer"] != "José" {
		t.Fatalf("the record keeps the name as typed: %v", hs[0]["record"])
	}
	g := createGroup(t, h, `{"name":"Thursdays","players":["`+nfd+`","Ben"]}`)
	p := do(t, h, "POST", "/api/groups/"+g["id"].(string)+"/payments", `{"from":"Ben","to":"`+nfd+`","amount":"1"}`)
	if p.status != 201 || !strings.Contains(p.body, `"to":"José"`) {
		t.Fatalf("a payment to José in another form: %d %s", p.status, p.body)
	}
}

// HEAD answers as GET does, without a body (RFC 9110: a server must take
// it; monitors and link previews ask with it); a write route still does not.
func TestHeadAnswersAsGet(t *testing.T) {
	h := newServer(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	id := createGame(t, h, zugerGame)
	for _, path := range []string{"/healthz", "/", "/g/" + id, "/api/games/" + id, "/api/games/" + id + "/ledger", "/static/app.js"} {
		res, err := http.Head(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		get, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		get.Body.Close()
		if res.StatusCode != get.StatusCode || res.StatusCode != http.StatusOK || len(body) != 0 || res.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q %q; GET: %d %q", path, res.StatusCode, res.Header.Get("Content-Type"), body, get.StatusCode, get.Header.Get("Content-Type"))
		}
	}
	// A route that only records, and a live stream (as GET it never ends):
	// refused at once.
	client := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"/api/games/" + id + "/close", "/g/" + id + "/live"} {
		req, _ := http.NewRequest(http.MethodHead, srv.URL+path, nil)
		if res, err := client.Do(req); err != nil || res.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("HEAD %s: %v %v", path, res, err)
		}
	}
}
