package web

import (
	"net/http"
	"strings"
	"testing"

	"tappbook/internal/tapp"
)

// The refusals a request's shape decides, before the game does: each
// answers its status and the game's own sentence for it.
func TestRequestShapeRefusals(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"matzlfangen","players":["Anna","Ben","Cleo","Dan"]}`)
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", "/api/games/" + id + "/deal/kontra", `{}`, http.StatusUnprocessableEntity, "kontra.missing"},
		{"POST", "/api/games/" + id + "/deal/matzl", `{}`, http.StatusUnprocessableEntity, "matzl.missing"},
		{"GET", "/api/games/" + id + "/deal", ``, http.StatusNotFound, "notfound.deal"},
		{"PUT", "/api/games/" + id + "/hands/+1", `{"contract":"rufen"}`, http.StatusNotFound, "notfound.hand-number"},
		{"GET", "/new/skat", ``, http.StatusNotFound, "notfound.variant"},
	} {
		r := do(t, h, c.method, c.path, c.body)
		english := tapp.Messages().English(c.code)
		head, _, _ := strings.Cut(english, "%")
		head = strings.TrimPrefix(head, "level: ")
		// A page shows the sentence with a capital, the API as it is.
		sentence := strings.ToUpper(head[:1]) + head[1:]
		if r.status != c.status || !strings.Contains(r.body, head) && !strings.Contains(r.body, sentence) {
			t.Errorf("%s %s: %d %s, want %d saying %q", c.method, c.path, r.status, r.body, c.status, head)
		}
	}
}
