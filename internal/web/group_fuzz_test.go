package web

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzGroupBodies: any body sent to a group's writing endpoints is
// answered with api.md's error shape, never a 5xx, and a refused one
// changes nothing.
func FuzzGroupBodies(f *testing.F) {
	h := newServerF(f)
	post := func(path, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", path, strings.NewReader(body)))
		return rec
	}
	var g struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(post("/api/groups", `{"name":"Thursday table","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`).Body.Bytes(), &g); err != nil || g.ID == "" {
		f.Fatalf("start a group: %v", err)
	}
	id := g.ID
	if rec := post("/api/groups/"+id+"/payments", `{"from":"Ben","to":"Anna","amount":"1"}`); rec.Code != 201 {
		f.Fatalf("payment: %d", rec.Code)
	}
	for _, s := range []string{
		`{"from":"Ben","to":"Anna","amount":"3.50","note":"cash"}`, `{"from":"Ben","to":"Anna","amount":3.5}`,
		`{"from":"Ben","to":"Anna","amount":"1e3"}`, `{"from":"Ben","to":"Anna","amount":"-0.00"}`, `{"amount":"99999999999999999999.99"}`,
		`{"players":["Eva","eva"]}`, `{"reason":"mistake"}`, `{"name":"x","unit":"0.001","currency":"jpy"}`,
		`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"` + id + `","unit":"0.5"}`, `[]`, `null`, `{"from":null}`,
	} {
		for ep := range 5 {
			f.Add(uint8(ep), s)
		}
	}
	f.Fuzz(func(t *testing.T, endpoint uint8, body string) {
		paths := []string{"/api/groups/" + id + "/payments", "/api/groups/" + id + "/members", "/api/groups/" + id + "/payments/1/void",
			"/api/groups", "/api/games"}
		path := paths[int(endpoint)%len(paths)]
		before := httptest.NewRecorder()
		h.ServeHTTP(before, httptest.NewRequest("GET", "/api/groups/"+id+"/events", nil))
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.RemoteAddr = "192.0.2." + string(rune('0'+int(endpoint)%10)) + ":1"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkAnswer(t, rec, "POST "+path+" "+body)
		if rec.Code >= 400 {
			after := httptest.NewRecorder()
			h.ServeHTTP(after, httptest.NewRequest("GET", "/api/groups/"+id+"/events", nil))
			if after.Body.String() != before.Body.String() {
				t.Fatalf("a refused POST %s changed the group", path)
			}
		}
	})
}
