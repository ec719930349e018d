package web

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/game"
)

func newServer(t *testing.T) http.Handler { return newServerF(t) }

// newServerF serves a fresh database, for tests and fuzz targets.
func newServerF(t testing.TB) http.Handler { return newServerWith(t, Options{}) }

// newServerWith serves a fresh database with the options given.
func newServerWith(t testing.TB, opts Options) http.Handler {
	t.Helper()
	h, err := New(game.New(testStore(t)), slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type resp struct {
	status int
	body   string
	// retryAfter is the answer's Retry-After header.
	retryAfter string
	location   string // where a redirect leads
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return m
}

func do(t *testing.T, h http.Handler, method, path, body string, headers ...string) resp {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return resp{rec.Code, rec.Body.String(), rec.Header().Get("Retry-After"), rec.Header().Get("Location")}
}

func createGame(t *testing.T, h http.Handler, body string) string {
	t.Helper()
	r := do(t, h, "POST", "/api/games", body)
	if r.status != http.StatusCreated {
		t.Fatalf("create game: %d %s", r.status, r.body)
	}
	return r.json(t)["id"].(string)
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// step is one request of an evening and what the table stands at after it:
// set gives each deal's changes by seat as they count now (nil: voided);
// kept, a voided deal's that still moves the stake it kept (old-tapp).
type step struct {
	method, path, body string
	status             int
	set                map[int][]int64
	kept               map[int][]int64
	pot                int64
}

func rec(hand int, body string, deltas ...int64) step {
	return step{method: "POST", path: "hands", body: body, status: 201, set: map[int][]int64{hand: deltas}}
}

// runEvening plays the steps through the API and checks every balance and
// the pot after every step against the sum of the hand-worked deltas.
func runEvening(t *testing.T, h http.Handler, id string, players []string, steps []step) {
	t.Helper()
	counted := map[int][]int64{}
	voided := map[int]bool{}
	for i, s := range steps {
		r := do(t, h, s.method, "/api/games/"+id+"/"+s.path, s.body)
		if r.status != s.status {
			t.Fatalf("step %d %s %s %s: %d %s", i+1, s.method, s.path, s.body, r.status, r.body)
		}
		for hand, d := range s.set {
			if d == nil {
				delete(counted, hand)
				voided[hand] = true
			} else {
				counted[hand] = d
				voided[hand] = false
			}
		}
		for hand, d := range s.kept {
			counted[hand], voided[hand] = d, true
		}
		want := make([]int64, len(players))
		for _, d := range counted {
			for seat, v := range d {
				want[seat] += v
			}
		}
		l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)
		bal := l["balances"].(map[string]any)
		for seat, p := range players {
			if bal[p] != fmt.Sprint(want[seat]) {
				t.Fatalf("step %d (%s %s): %s has %v, want %d (ledger %v)", i+1, s.path, s.body, p, bal[p], want[seat], l)
			}
		}
		if l["pot"] != fmt.Sprint(s.pot) {
			t.Fatalf("step %d: pot %v, want %d", i+1, l["pot"], s.pot)
		}
		checkHands(t, h, id, players, counted, voided, i+1)
	}
}

// checkHands checks that GET /hands gives each deal what it moves now (api.md:
// "deltas: each player's change in units from this deal"): the hand-worked
// deltas, nothing for a voided deal but a stake it kept, and pots that
// follow from the pot deltas, so that a script adding up the deals gets
// the ledger.
func checkHands(t *testing.T, h http.Handler, id string, players []string, counted map[int][]int64, voided map[int]bool, step int) {
	t.Helper()
	pot := decimal.Zero
	for _, hj := range listHands(t, h, id) {
		n := int(hj["hand"].(float64))
		want, counts := counted[n]
		if hj["voided"] != voided[n] {
			t.Fatalf("step %d: deal %d voided %v, want %v", step, n, hj["voided"], voided[n])
		}
		deltas := hj["deltas"].(map[string]any)
		for seat, p := range players {
			var w int64
			if counts {
				w = want[seat]
			}
			if deltas[p] != fmt.Sprint(w) {
				t.Fatalf("step %d: deal %d gives %s %v, want %d: %v", step, n, p, deltas[p], w, hj)
			}
		}
		pd := decimal.RequireFromString(hj["pot_delta"].(string))
		var stake int64 // what a voided deal's dealer lost to the pot
		for _, d := range want {
			stake -= d
		}
		if voided[n] && !pd.Equal(decimal.NewFromInt(stake)) {
			t.Fatalf("step %d: voided deal %d moves the pot by %s", step, n, pd)
		}
		pot = pot.Add(pd)
		if hj["pot"] != pot.String() {
			t.Fatalf("step %d: deal %d leaves the pot at %v, its pot deltas make %s", step, n, hj["pot"], pot)
		}
	}
}

// closeAndCheck closes the evening and checks the transfers settle every
// money balance exactly.
func closeAndCheck(t *testing.T, h http.Handler, id, body string) map[string]any {
	t.Helper()
	r := do(t, h, "POST", "/api/games/"+id+"/close", body)
	if r.status != 200 {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	out := r.json(t)
	left := map[string]decimal.Decimal{}
	for p, m := range out["money"].(map[string]any) {
		left[p] = decimal.RequireFromString(m.(string))
	}
	for _, tr := range out["transfers"].([]any) {
		tm := tr.(map[string]any)
		amt := decimal.RequireFromString(tm["amount"].(string))
		left[tm["from"].(string)] = left[tm["from"].(string)].Add(amt)
		left[tm["to"].(string)] = left[tm["to"].(string)].Sub(amt)
	}
	for p, v := range left {
		if !v.IsZero() {
			t.Fatalf("after the transfers %s is left with %s: %s", p, v, r.body)
		}
	}
	if out["pot"] != "0" {
		t.Fatalf("pot after close: %v", out["pot"])
	}
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`); r.status != 409 {
		t.Fatalf("recording after close: %d %s", r.status, r.body)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["closed"] != true {
		t.Fatal("ledger does not say closed")
	}
	return out
}

func TestEveningZuger(t *testing.T) {
	h := newServer(t)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	z := func(c, who string, p, tr int) string {
		return fmt.Sprintf(`{"contract":%q,"declarer":%q,"points":%d,"tricks":%d}`, c, who, p, tr)
	}
	runEvening(t, h, id, players, []step{
		rec(1, z("tapp", "Anna", 61, 4), 3, -1, -1, -1),
		rec(2, z("solo", "Ben", 70, 5), -2, 6, -2, -2),
		rec(3, `{"contract":"pass"}`, 0, 0, 0, 0),
		rec(4, z("super", "Cleo", 65, 5), 4, 4, -12, 4),
		rec(5, z("vice", "Dan", 100, 7), -12, -12, -12, 36),
		rec(6, z("tapp", "Anna", 60, 4), 0, 0, 0, 0),
		rec(7, z("solo", "Ben", 120, 8), -6, 18, -6, -6),
		rec(8, z("tapp", "Cleo", 20, 1), 2, 2, -6, 2),
		rec(9, z("tapp", "Dan", 30, 0), 3, 3, 3, -9),
		rec(10, z("solo", "Anna", 64, 4), -6, 2, 2, 2),
		rec(11, z("super", "Ben", 75, 6), -4, 12, -4, -4),
		rec(12, z("vice", "Cleo", 74, 5), 6, 6, -18, 6),
		rec(13, `{"contract":"pass"}`, 0, 0, 0, 0),
		{method: "PUT", path: "hands/2", body: `{"contract":"solo","declarer":"Ben","points":60,"tricks":4,"reason":"recounted"}`, status: 200, set: map[int][]int64{2: {2, -6, 2, 2}}},
		{method: "POST", path: "hands/5/void", body: `{"reason":"misdeal"}`, status: 200, set: map[int][]int64{5: nil}},
	})
	out := closeAndCheck(t, h, id, `{}`)
	// Anna +4, Ben +40, Cleo −40, Dan −4 units at CHF 0.50.
	if m := out["money"].(map[string]any); m["Anna"] != "2.00" || m["Ben"] != "20.00" || m["Cleo"] != "-20.00" || m["Dan"] != "-2.00" {
		t.Fatalf("money %v", m)
	}
	hands := listHands(t, h, id)
	if hands[1]["revisions"] != 2.0 || hands[4]["voided"] != true || hands[4]["void_reason"] != "misdeal" {
		t.Fatalf("history of hands 2 and 5: %v / %v", hands[1], hands[4])
	}
}

func listHands(t *testing.T, h http.Handler, id string) []map[string]any {
	t.Helper()
	var hs []map[string]any
	if err := json.Unmarshal([]byte(do(t, h, "GET", "/api/games/"+id+"/hands", "").body), &hs); err != nil {
		t.Fatal(err)
	}
	return hs
}

func TestEveningOldTapp(t *testing.T) {
	h := newServer(t)
	players := []string{"Anna", "Ben", "Cleo"}
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"0.10","currency":"EUR","rules":{"remainder":"biggest-loser"}}`)
	p := func(c, who string, pts int) string {
		return fmt.Sprintf(`{"contract":%q,"declarer":%q,"points":%d}`, c, who, pts)
	}
	s := func(st step, pot int64) step { st.pot = pot; return st }
	runEvening(t, h, id, players, []step{
		s(rec(1, `{"contract":"pass"}`, -2, 0, 0), 2),
		s(rec(2, p("coeurfrage", "Anna", 73), 8, -6, -4), 4),
		s(rec(3, `{"contract":"solo","declarer":"Ben","points":61,"trump":"clubs"}`, -1, 8, -3), 0),
		s(rec(4, p("coeurfrage", "Cleo", 50), 1, 3, -9), 5),
		s(rec(5, p("coeursolo", "Anna", 55), -17, 3, 5), 14),
		s(rec(6, `{"contract":"pass"}`, 0, 0, -2), 16),
		s(rec(7, `{"contract":"solo","declarer":"Cleo","trump":"clubs","tout":true,"tricks":11}`, -62, -60, 138), 0),
		s(rec(8, p("coeurfrage", "Ben", 60), 0, -2, 0), 2),
		s(rec(9, `{"contract":"solo","declarer":"Anna","points":40,"trump":"spades"}`, -24, 10, 8), 8),
		s(rec(10, p("coeursolo", "Ben", 80), -22, 50, -20), 0),
		s(rec(11, `{"contract":"pass"}`, 0, -2, 0), 2),
		s(rec(12, p("coeurfrage", "Anna", 90), 16, -8, -10), 4),
		// Correcting hand 4 changes the pot, so the lost coeursolo of hand 5
		// doubles a smaller pot and the tout of hand 7 takes a smaller one.
		{method: "PUT", path: "hands/4", body: p("coeurfrage", "Cleo", 70), status: 200, pot: 4,
			set: map[int][]int64{4: {-5, -3, 6}, 5: {-14, 3, 5}, 7: {-62, -60, 132}}},
		// Voiding hand 9 leaves less in the pot for hand 10's solo.
		// Cleo's stake for it stays in the pot (a misdeal was dealt).
		{method: "POST", path: "hands/9/void", body: `{"reason":"cards were misdealt"}`, status: 200, pot: 4,
			kept: map[int][]int64{9: {0, 0, -2}}, set: map[int][]int64{10: {-22, 46, -20}}},
	})
	// Final split of 4: 1 each, 1 over to the biggest loser (Anna, −82).
	out := closeAndCheck(t, h, id, `{}`)
	if b := out["balances"].(map[string]any); b["Anna"] != "-80" || b["Ben"] != "-23" || b["Cleo"] != "103" {
		t.Fatalf("balances after the split: %v", b)
	}
	hands := listHands(t, h, id)
	if len(hands[4]["history"].([]any)) != 2 || hands[4]["revisions"] != 1.0 {
		t.Fatalf("hand 5 should show its re-scoring: %v", hands[4])
	}
}

func TestEveningMatzlfangen(t *testing.T) {
	h := newServer(t)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	runEvening(t, h, id, players, []step{
		rec(1, `{"contract":"rufen","partner":"Dan","points":70,"tricks":5}`, -1, 1, -1, 1),
		rec(2, `{"contract":"rufen","declarer":"Cleo","partner":"Anna","points":40,"tricks":3,"kontra":1}`, -2, 2, -2, 2),
		rec(3, `{"contract":"treiben","declarer":"Anna","trump":"clubs","points":80,"tricks":5}`, 3, -1, -1, -1),
		rec(4, `{"contract":"neid","declarer":"Ben","points":70,"tricks":5,"matzl":"defenders","kontra":3}`, 0, 0, 0, 0),
		rec(5, `{"contract":"durch","declarer":"Cleo","tricks":8}`, -6, -6, 18, -6),
		rec(6, `{"contract":"trumpf-durch","declarer":"Dan","tricks":7,"kontra":2}`, 8, 8, 8, -24),
		rec(7, `{"contract":"rufen","partner":"Ben","points":101,"tricks":7,"matzl":"declarer"}`, -3, 3, -3, 3),
		rec(8, `{"contract":"rufen","partner":"Cleo","points":130,"tricks":8,"kontra":5}`, 8, -8, 8, -8),
		rec(9, `{"contract":"treiben","declarer":"Cleo","points":66,"tricks":4}`, -1, -1, 3, -1),
		rec(10, `{"contract":"neid","declarer":"Dan","points":65,"tricks":4}`, 1, 1, 1, -3),
		rec(11, `{"contract":"rufen","partner":"Anna","points":29,"tricks":2}`, -2, 2, 2, -2),
		rec(12, `{"contract":"treiben","declarer":"Ben","points":0,"tricks":0}`, 3, -9, 3, 3),
		{method: "PUT", path: "hands/3", body: `{"contract":"treiben","declarer":"Anna","points":60,"tricks":4}`, status: 200, set: map[int][]int64{3: {-3, 1, 1, 1}}},
		{method: "POST", path: "hands/6/void", body: `{"reason":"wrong game"}`, status: 200, set: map[int][]int64{6: nil}},
	})
	closeAndCheck(t, h, id, ``)
}

func TestEveningWuerttemberg(t *testing.T) {
	h := newServer(t)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"],"unit":"0.01","currency":"EUR"}`)
	ramsch := func(a, b, c, d [2]int) string {
		return fmt.Sprintf(`{"contract":"ramsch","ramsch":{"Anna":{"points":%d,"tricks":%d},"Ben":{"points":%d,"tricks":%d},"Cleo":{"points":%d,"tricks":%d},"Dan":{"points":%d,"tricks":%d}}}`,
			a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])
	}
	runEvening(t, h, id, players, []step{
		rec(1, `{"contract":"suit","declarer":"Anna","trump":"clubs","points":61}`, 15, -5, -5, -5),
		rec(2, `{"contract":"suit","declarer":"Ben","trump":"hearts","points":50}`, 10, -30, 10, 10),
		rec(3, `{"contract":"bettel","declarer":"Cleo","tricks":0}`, -15, -15, 45, -15),
		rec(4, `{"contract":"rufer","declarer":"Dan","trump":"spades","tricks":8}`, -15, -15, -15, 45),
		rec(5, `{"contract":"rufer","declarer":"Anna","trump":"hearts","tricks":7}`, -90, 30, 30, 30),
		rec(6, `{"contract":"open-bettel","declarer":"Ben","tricks":1}`, 30, -90, 30, 30),
		rec(7, `{"contract":"durch","declarer":"Cleo","trump":"clubs","tricks":8}`, -30, -30, 90, -30),
		rec(8, `{"contract":"durch","declarer":"Dan","trump":"hearts","tricks":8}`, -60, -60, -60, 180),
		rec(9, ramsch([2]int{50, 3}, [2]int{40, 3}, [2]int{30, 2}, [2]int{0, 0}), -20, 5, 5, 10),
		rec(10, ramsch([2]int{45, 3}, [2]int{45, 3}, [2]int{30, 2}, [2]int{0, 0}), -15, -15, 10, 20),
		rec(11, `{"contract":"suit","declarer":"Anna","trump":"diamonds","points":60}`, -15, 5, 5, 5),
		rec(12, `{"contract":"bettel","declarer":"Ben","tricks":0}`, -15, 45, -15, -15),
		{method: "PUT", path: "hands/1", body: `{"contract":"suit","declarer":"Anna","trump":"clubs","points":55}`, status: 200, set: map[int][]int64{1: {-15, 5, 5, 5}}},
		{method: "POST", path: "hands/2/void", body: `{"reason":"Ben misdealt"}`, status: 200, set: map[int][]int64{2: nil}},
	})
	closeAndCheck(t, h, id, `{}`)
}
