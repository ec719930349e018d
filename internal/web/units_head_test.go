package web

import (
	"net/http"
	"strings"
	"testing"
)

// A Württemberg evening counts in cents (rules.md "Money"): its standings
// and its close page say so, where other variants say units.
func TestStandingsNameTheUnit(t *testing.T) {
	h := newServer(t)
	w := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo"]}`)
	z := createGame(t, h, zugerGame)
	for _, c := range []struct{ id, lang, want, not string }{
		{w, "en", ">Cents</th>", ">Units</th>"},
		{w, "de", ">Cent</th>", ">Einheiten</th>"},
		{z, "en", ">Units</th>", ">Cents</th>"},
	} {
		for _, path := range []string{"/g/" + c.id, "/g/" + c.id + "/close"} {
			r := page(t, h, path, c.lang)
			if r.status != http.StatusOK || !strings.Contains(r.body, c.want) || strings.Contains(r.body, c.not) {
				t.Errorf("%s in %s: want a column %q, not %q", path, c.lang, c.want, c.not)
			}
		}
	}
}
