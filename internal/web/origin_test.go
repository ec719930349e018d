package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var (
	formTokenRe = regexp.MustCompile(`name="form_token" value="([^"]+)"`)
	idemKeyRe   = regexp.MustCompile(`name="idempotency_key" value="([^"]+)"`)
)

// fieldOf reads a hidden field's value from a page.
func fieldOf(t *testing.T, re *regexp.Regexp, body, what string) string {
	t.Helper()
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the page has no %s", what)
	}
	return m[1]
}

// postFrom posts a form to the LAN address the way a browser does, with
// the given request headers.
func postFrom(h http.Handler, path string, v url.Values, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "http://192.168.1.20:8080"+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// A browser on plain HTTP that sends "Origin: null" (a strict referrer
// policy, a privacy setting) may post tappbook's own forms: each carries a
// token for the address it posts to. Without it, or with another form's, or
// from another site, the post is refused and changes nothing.
func TestOriginNullNeedsTheFormsToken(t *testing.T) {
	h := newServer(t)
	startPage := page(t, h, "/new/old-tapp", "en").body
	token := fieldOf(t, formTokenRe, startPage, "form token")
	v := players("Anna", "Ben", "Cleo")
	v.Set("idempotency_key", fieldOf(t, idemKeyRe, startPage, "idempotency key"))

	refused := []struct {
		name    string
		path    string
		token   string
		headers []string
	}{
		{"no token", "/new/old-tapp", "", []string{"Origin", "null"}},
		{"another form's token", "/new/zuger", token, []string{"Origin", "null"}},
		{"a made-up token", "/new/old-tapp", strings.Repeat("A", len(token)), []string{"Origin", "null"}},
		{"token from another site", "/new/old-tapp", token, []string{"Origin", "http://evil.example"}},
		{"token, but the browser says cross-site", "/new/old-tapp", token, []string{"Origin", "null", "Sec-Fetch-Site", "cross-site"}},
	}
	for _, c := range refused {
		w := url.Values{}
		for k, vs := range v {
			w[k] = vs
		}
		if c.token != "" {
			w.Set("form_token", c.token)
		}
		rec := postFrom(h, c.path, w, c.headers...)
		if rec.Code != http.StatusForbidden || rec.Header().Get("Location") != "" {
			t.Fatalf("%s: %d %s", c.name, rec.Code, rec.Header().Get("Location"))
		}
		if !strings.Contains(rec.Body.String(), "was refused") {
			t.Fatalf("%s: the page does not say it was refused: %s", c.name, visibleText(rec.Body.String()))
		}
	}

	v.Set("form_token", token)
	rec := postFrom(h, "/new/old-tapp", v, "Origin", "null")
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("Origin null with the form's token: %d %s", rec.Code, visibleText(rec.Body.String()))
	}
	id := strings.TrimPrefix(rec.Header().Get("Location"), "/g/")

	// The forms of a game carry tokens of their own.
	form := page(t, h, "/g/"+id+"/record?contract=pass", "en").body
	deal := url.Values{"contract": {"pass"}, "expected_hand": {"1"}, "form_token": {fieldOf(t, formTokenRe, form, "form token")}}
	if rec := postFrom(h, "/g/"+id+"/record", deal, "Origin", "null"); rec.Code != http.StatusSeeOther {
		t.Fatalf("record with Origin null and the token: %d", rec.Code)
	}
	if rec := postFrom(h, "/g/"+id+"/close", deal, "Origin", "null"); rec.Code != http.StatusForbidden {
		t.Fatalf("the record form's token closed the evening: %d", rec.Code)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 1.0 || l["closed"] != false {
		t.Fatalf("ledger after the posts: %v", l)
	}

	// Scripts send no Origin and no cookie: the API works for them as before;
	// a page's script with Origin null gets the API's JSON refusal.
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`); r.status != http.StatusCreated {
		t.Fatalf("curl-like API call: %d %s", r.status, r.body)
	}
	r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`, "Origin", "null")
	if r.status != http.StatusForbidden || r.json(t)["error"] == nil {
		t.Fatalf("API call with Origin null: %d %s", r.status, r.body)
	}
}

// The referrer policy lets a same-origin form post name its origin over
// plain HTTP, and never sends a game's address (its key) to another site.
func TestReferrerPolicyKeepsOriginNotPath(t *testing.T) {
	h := newServer(t)
	for _, p := range []string{"/", "/new/zuger", "/api/games/x"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if got := rec.Header().Get("Referrer-Policy"); got != "same-origin" {
			t.Fatalf("%s: Referrer-Policy %q, want same-origin", p, got)
		}
	}
}
