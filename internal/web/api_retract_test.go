package web

import (
	"net/http"
	"strings"
	"testing"
)

// api.md "Corrections": retract, the undo. Only the last deal; taken back
// as if never recorded (old-tapp: its stake leaves the pot), so the next
// deal recorded is the same number by the same dealer.
func TestRetractAPI(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"]}`)
	do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`)
	do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Anna","points":50}`)
	// Deal 1 is not the last: refused, saying to correct or void it
	// ("conflict.retract-not-last").
	r := do(t, h, "POST", "/api/games/"+id+"/hands/1/retract", `{"reason":"typo"}`)
	if r.status != http.StatusConflict || !strings.Contains(r.body, "correct deal 1 or void it instead") {
		t.Fatalf("retract of deal 1: %d %s", r.status, r.body)
	}
	if r := do(t, h, "POST", "/api/games/"+id+"/hands/3/retract", ``); r.status != http.StatusNotFound {
		t.Fatalf("retract of deal 3: %d %s", r.status, r.body)
	}
	r = do(t, h, "POST", "/api/games/"+id+"/hands/2/retract", `{"reason":"wrong player"}`)
	if r.status != http.StatusOK || strings.TrimSpace(r.body) != `{"dealer":"Ben","hand":2,"retracted":true}` {
		t.Fatalf("retract of deal 2: %d %s", r.status, r.body)
	}
	led := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t)
	if led["pot"] != "2" || led["balances"].(map[string]any)["Ben"] != "0" || led["hands"] != 1.0 {
		t.Fatalf("after the retract: %v", led)
	}
	// Entered again: deal 2, dealt by Ben, Ben's stake back in the pot.
	r = do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Ben","points":50,"dealer":"Ben","expected_hand":2}`)
	if ans := r.json(t); r.status != http.StatusCreated || ans["hand"] != 2.0 || ans["dealer"] != "Ben" || ans["pot"] != "7" {
		t.Fatalf("deal 2 entered again: %d %s", r.status, r.body)
	}
	if evs := do(t, h, "GET", "/api/games/"+id+"/events", "").body; !strings.Contains(evs, `"hand.retracted"`) || !strings.Contains(evs, "wrong player") {
		t.Fatalf("the events do not keep the retract: %s", evs)
	}
}

// Herz-As said after the last deal counts the end of the evening from it:
// that deal is corrected or voided, not taken back.
func TestRetractAfterHerzAsAPI(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"]}`)
	do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"suit","declarer":"Anna","trump":"clubs","points":70}`)
	do(t, h, "POST", "/api/games/"+id+"/herz-as", ``)
	r := do(t, h, "POST", "/api/games/"+id+"/hands/1/retract", ``)
	if r.status != http.StatusConflict || !strings.Contains(r.body, "Herz-As was said after it") { // "conflict.retract-herz-as"
		t.Fatalf("retract after Herz-As: %d %s", r.status, r.body)
	}
}
