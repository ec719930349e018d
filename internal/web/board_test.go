package web

import (
	"strings"
	"testing"
)

// The board: given an evening with a deal, its board — by the game's link
// and by the read-only link — shows each player's balance, who deals, the
// pot, and reloads itself without JavaScript; closed, it says so, names
// no dealer and stops reloading.
func TestBoardShowsStandingsDealerAndPot(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"0.50","currency":"CHF","rules":{"stake":"3"}}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Ben","points":40}`), 201)
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	for _, path := range []string{"/g/" + id + "/board?lang=en", "/r/" + ro + "/board?lang=en"} {
		r := mustStatus(t, do(t, h, "GET", path, ""), 200)
		for _, want := range []string{`data-units="Ben"`, `data-pot="units"`, "Deal 2:", "Ben deals", `<noscript><meta http-equiv="refresh"`, `id="live"`} {
			if !strings.Contains(r.body, want) {
				t.Errorf("%s: no %q in the board", path, want)
			}
		}
		if strings.HasPrefix(path, "/r/") && strings.Contains(r.body, id) {
			t.Errorf("%s: the read-only board gives away the writing id", path)
		}
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":["Anna"]}`), 200)
	r := mustStatus(t, do(t, h, "GET", "/r/"+ro+"/board?lang=en", ""), 200)
	if !strings.Contains(r.body, "This evening is closed.") || strings.Contains(r.body, "Deal 2:") || strings.Contains(r.body, `http-equiv="refresh"`) {
		t.Errorf("closed board: want the close said, no dealer and no reload:\n%s", r.body)
	}
}

// The table and the read-only page link the board.
func TestTableLinksTheBoard(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	if r := do(t, h, "GET", "/g/"+id, ""); !strings.Contains(r.body, `href="/g/`+id+`/board"`) {
		t.Errorf("the table does not link its board")
	}
	if r := do(t, h, "GET", "/r/"+ro, ""); !strings.Contains(r.body, `href="/r/`+ro+`/board"`) {
		t.Errorf("the read-only page does not link its board")
	}
}
