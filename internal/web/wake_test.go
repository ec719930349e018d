package web

import (
	"net/http"
	"strings"
	"testing"
)

// The hint that the screen may turn off belongs to an open evening's pages,
// where the phone records; a closed evening records nothing more, and its
// pages (writing or read-only) leave the hint out.
func TestWakeHintOnlyWhileOpen(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`), http.StatusCreated)
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	pages := []string{"/g/" + id, "/g/" + id + "/close", "/g/" + id + "/audit", "/g/" + id + "/share", "/g/" + id + "/hands/1", "/r/" + ro, "/r/" + ro + "/audit"}
	const hint, awake = `id="wake"`, ` data-awake`
	for _, p := range pages {
		r := page(t, h, p, "en")
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d", p, r.status)
		}
		if !strings.Contains(r.body, hint) {
			t.Errorf("open evening, %s: no wake hint", p)
		}
		if !strings.Contains(r.body, awake) {
			t.Errorf("open evening, %s: the page does not ask to keep the screen on", p)
		}
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	for _, p := range append(pages, "/g/"+id+"/record") {
		r := page(t, h, p, "en")
		// A closed evening's deals can be neither recorded nor corrected:
		// those pages say so.
		refused := strings.HasSuffix(p, "/hands/1") || strings.HasSuffix(p, "/record")
		if r.status != http.StatusOK && !(refused && r.status == http.StatusConflict) {
			t.Fatalf("%s: %d", p, r.status)
		}
		if strings.Contains(r.body, hint) {
			t.Errorf("closed evening, %s: the page still has the wake hint", p)
		}
		if strings.Contains(r.body, awake) {
			t.Errorf("closed evening, %s: the page still keeps the screen on", p)
		}
	}
}
