package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// fuzzServer is one server with one game of each variant, shared by a fuzz
// run; ids holds the games.
func fuzzServer(f *testing.F) (http.Handler, []string) {
	h := newServerF(f)
	var ids []string
	for _, body := range []string{
		`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`,
		`{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"rules":{"remainder":"cut"}}`,
		`{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`,
		`{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"],"rules":{"suit_tapp":true}}`,
	} {
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var g struct{ ID string }
		if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil || g.ID == "" {
			f.Fatalf("create: %s", rec.Body.String())
		}
		ids = append(ids, g.ID)
	}
	return h, ids
}

// checkAnswer: never a 500, and every refusal has api.md's error shape.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder, what string) {
	if rec.Code >= 500 {
		t.Fatalf("%s: %d %s", what, rec.Code, rec.Body.String())
	}
	if rec.Code >= 400 && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		var e map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || len(e) != 1 || e["error"] == "" {
			t.Fatalf("%s: %d with body %q, not {\"error\": …}", what, rec.Code, rec.Body.String())
		}
	}
}

// FuzzAPIBodies: any body to any writing endpoint of the JSON API is
// answered, never with a 500, a refusal in the error shape; and a refused
// request changes nothing.
func FuzzAPIBodies(f *testing.F) {
	h, ids := fuzzServer(f)
	for _, s := range []string{
		`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`,
		`{"contract":"coeurfrage","declarer":"Ben","points":73}`,
		`{"contract":"rufen","partner":"Dan","points":70,"tricks":5,"kontra":3,"matzl":"declarer"}`,
		`{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":5},"Ben":{"points":40,"tricks":4},"Cleo":{"points":30,"tricks":2}}}`,
		`{"variant":"zuger","players":["a","b","c","d"],"unit":"1e9","rules":{"tapp_threshold":65}}`,
		`{"remainder_to":["Anna"]}`, `{"reason":"x"}`, `{"points":1e400}`, `[]`, `null`, `"x"`, `{"unit":-0}`,
	} {
		for ep := range 6 {
			f.Add(uint8(ep), uint8(0), s)
		}
	}
	f.Fuzz(func(t *testing.T, endpoint, game uint8, body string) {
		id := ids[int(game)%len(ids)]
		paths := []struct{ method, path string }{
			{"POST", "/api/games"}, {"POST", "/api/games/" + id + "/hands"}, {"PUT", "/api/games/" + id + "/hands/1"},
			{"POST", "/api/games/" + id + "/hands/1/void"}, {"POST", "/api/games/" + id + "/deal/announce"}, {"POST", "/api/games/" + id + "/deal/count"},
		}
		p := paths[int(endpoint)%len(paths)]
		before := httptest.NewRecorder()
		h.ServeHTTP(before, httptest.NewRequest("GET", "/api/games/"+id+"/events", nil))
		req := httptest.NewRequest(p.method, p.path, strings.NewReader(body))
		req.RemoteAddr = "192.0.2." + string(rune('0'+int(game)%10)) + ":1"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkAnswer(t, rec, p.method+" "+p.path+" "+body)
		if rec.Code >= 400 && p.path != "/api/games" {
			after := httptest.NewRecorder()
			h.ServeHTTP(after, httptest.NewRequest("GET", "/api/games/"+id+"/events", nil))
			if after.Body.String() != before.Body.String() {
				t.Fatalf("a refused %s %s changed the game", p.method, p.path)
			}
		}
	})
}

// FuzzForms: any form posted to the pages is answered, never with a 500.
func FuzzForms(f *testing.F) {
	h, ids := fuzzServer(f)
	f.Add(uint8(0), uint8(0), "contract=solo&declarer=Ben&points=70&tricks=5")
	f.Add(uint8(0), uint8(1), "contract=coeurfrage&declarer=Ben&points=73&points_side=opponents")
	f.Add(uint8(0), uint8(3), "contract=ramsch&ramsch_points_0=50&ramsch_tricks_0=5&ramsch_points_1=40&ramsch_tricks_1=4&ramsch_points_2=30&ramsch_tricks_2=2")
	f.Add(uint8(1), uint8(0), "player=a&player=b&player=c&player=d&unit=1,50&currency=eur&tapp_threshold=65")
	f.Add(uint8(1), uint8(3), "player=a&player=b&player=c&values.suit=1e9&cards=32&suit_tapp=true")
	f.Add(uint8(2), uint8(1), "remainder_to=Anna&remainder_to=Zoe")
	f.Add(uint8(3), uint8(0), "reason=%00%ff")
	f.Fuzz(func(t *testing.T, endpoint, game uint8, body string) {
		g := int(game) % len(ids)
		variants := []string{"zuger", "old-tapp", "matzlfangen", "wuerttemberg"}
		paths := []string{"/g/" + ids[g] + "/record", "/new/" + variants[g], "/g/" + ids[g] + "/close", "/g/" + ids[g] + "/hands/1/void", "/g/" + ids[g] + "/hands/1", "/g/" + ids[g] + "/herz-as/holder"}
		p := paths[int(endpoint)%len(paths)]
		req := httptest.NewRequest("POST", p, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkAnswer(t, rec, "POST "+p+" "+body)
	})
}

// FuzzPaths: any path and query is answered, never with a 500.
func FuzzPaths(f *testing.F) {
	h, ids := fuzzServer(f)
	for _, p := range []string{"/g/" + ids[0], "/g/" + ids[1] + "/hands/1", "/g/x/hands/-1", "/api/games/" + ids[2] + "/hands/99999999999999999999/void",
		"/r/" + ids[0], "/g/" + ids[3] + "/record?contract=ramsch&lang=sv", "/new/zuger?lang=%ff", "/api/games/%2e%2e/ledger", "/static/../go.mod"} {
		f.Add("GET", p)
		f.Add("POST", p)
	}
	f.Fuzz(func(t *testing.T, method, path string) {
		if method != "GET" && method != "POST" && method != "PUT" {
			method = "GET"
		}
		u, err := url.Parse(path)
		if err != nil || !strings.HasPrefix(u.Path, "/") || strings.HasSuffix(u.Path, "/live") {
			return
		}
		req := httptest.NewRequest(method, "/", strings.NewReader("{}"))
		req.URL = u
		req.RequestURI = u.RequestURI()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkAnswer(t, rec, method+" "+path)
	})
}
