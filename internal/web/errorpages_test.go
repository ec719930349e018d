package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// Every error on a page route answers a page in the reader's language with
// a way back, never JSON; the API keeps api.md's {"error": …}.
func TestErrorPagesArePages(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	big := "contract=pass&reason=" + strings.Repeat("x", 70<<10)
	cases := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		says                     string // in German
		back                     bool   // offers the way back to the table
	}{
		{"refused post", "POST", "/g/" + id + "/record", "contract=pass", []string{"Origin", "http://evil.example"}, 403, "abgelehnt", true},
		{"unknown game", "GET", "/g/nosuchgame", "", nil, 404, "keinen Abend", false},
		{"unknown game's form", "POST", "/g/nosuchgame/record", "contract=pass", nil, 404, "keinen Abend", false},
		{"read-only link records", "POST", "/r/" + ro + "/record", "contract=pass", nil, 404, "nur zum Lesen", true},
		{"read-only link's form", "GET", "/r/" + ro + "/record", "", nil, 404, "nur zum Lesen", true},
		{"no such page", "GET", "/nothing/here", "", nil, 404, "Diese Seite gibt es nicht", false},
		{"wrong method", "DELETE", "/g/" + id, "", nil, 405, "lässt sich so nicht senden", false},
		{"form too large", "POST", "/g/" + id + "/hands/1", big, nil, 413, "zu groß", true},
		{"unknown deal", "GET", "/g/" + id + "/hands/9", "", nil, 404, "9", true},
		{"closed evening's record form", "GET", "/g/" + id + "/record", "", nil, 409, "", true},
	}
	// The last case: close the evening first.
	if r := form(t, h, "/g/"+id+"/close", nil); r.status != http.StatusSeeOther {
		t.Fatalf("close: %d", r.status)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			headers := append([]string{"Accept-Language", "de", "Content-Type", "application/x-www-form-urlencoded"}, c.headers...)
			r := doFull(h, c.method, c.path, c.body, headers...)
			checkErrorPage(t, r, c.status, c.says)
			if hasBack := strings.Contains(r.Body.String(), `href="/g/`+id+`"`) || strings.Contains(r.Body.String(), `href="/r/`+ro+`"`); hasBack != c.back {
				t.Fatalf("a way back to the table: %v, want %v", hasBack, c.back)
			}
		})
	}
	t.Run("too many evenings", func(t *testing.T) {
		h := newServerWith(t, Options{CreateBurst: 20, CreateEvery: time.Hour})
		var r *httptest.ResponseRecorder
		for range 25 {
			r = doFull(h, "POST", "/new/old-tapp", players("A", "B", "C").Encode(), "Accept-Language", "de", "Content-Type", "application/x-www-form-urlencoded")
		}
		checkErrorPage(t, r, 429, "zu viele Abende")
	})
	t.Run("the API answers JSON", func(t *testing.T) {
		for _, c := range []struct{ method, path, body, origin string }{
			{"GET", "/api/nothing", "", ""}, {"GET", "/api/games/nosuchgame", "", ""},
			{"POST", "/api/games", `{"variant":"zuger"}`, "http://evil.example"}, {"DELETE", "/api/games/" + id, "", ""},
		} {
			r := doFull(h, c.method, c.path, c.body, "Accept-Language", "de", "Origin", c.origin)
			if r.Code < 400 || !strings.HasPrefix(r.Header().Get("Content-Type"), "application/json") || !strings.HasPrefix(r.Body.String(), `{"error":`) {
				t.Fatalf("%s %s: %d %s %q", c.method, c.path, r.Code, r.Header().Get("Content-Type"), r.Body.String())
			}
		}
	})
}

// A server error on a page is a page too, and says nothing of its cause.
func TestServerErrorPage(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "e.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	st.Close() // the database goes away under the server
	r := doFull(h, "GET", "/g/"+id+"/audit", "", "Accept-Language", "sv")
	checkErrorPage(t, r, 500, "Något gick fel")
	if strings.Contains(r.Body.String(), "sql") || strings.Contains(r.Body.String(), "closed") {
		t.Fatalf("the page tells the cause: %s", visibleText(r.Body.String()))
	}
}

func doFull(h http.Handler, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] != "" {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func checkErrorPage(t *testing.T, r *httptest.ResponseRecorder, status int, says string) {
	t.Helper()
	body := r.Body.String()
	if r.Code != status {
		t.Fatalf("%d, want %d: %s", r.Code, status, visibleText(body))
	}
	if !strings.HasPrefix(r.Header().Get("Content-Type"), "text/html") || !strings.Contains(body, "<html lang=\"") {
		t.Fatalf("%d answered %s, not a page: %q", r.Code, r.Header().Get("Content-Type"), body)
	}
	if !strings.Contains(visibleText(body), says) {
		t.Fatalf("the page does not say %q: %s", says, visibleText(body))
	}
	if !strings.Contains(body, `href="/"`) {
		t.Fatal("the page has no way back to the start page")
	}
	if m := missingText.FindString(visibleText(body)); m != "" {
		t.Fatalf("missing text %q", m)
	}
}
