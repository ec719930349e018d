package web

import (
	"testing"
)

// api.md "The evening as it stood": ?after_hand=N is the ledger once deal N
// was recorded, corrections since left out; ?at_event=SEQ after event SEQ.
func TestLedgerAsItStood(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	playDeals(t, h, id, tappDeal("Anna", 70), tappDeal("Ben", 70))
	then := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger", ""), 200).body
	first := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger?at_event=2", ""), 200).json(t)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", tappDeal("Anna", 40)), 200)
	if now := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger", ""), 200).body; now == then {
		t.Fatal("the correction changed nothing")
	}
	if got := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger?after_hand=2", ""), 200).body; got != then {
		t.Fatalf("after hand 2:\n%s\nwant as it stood then:\n%s", got, then)
	}
	if first["hands"] != 1.0 || first["balances"].(map[string]any)["Anna"] != "3" {
		t.Fatalf("at event 2: %v", first)
	}
	if hs := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/hands?after_hand=1", ""), 200).jsonList(t); len(hs) != 1 || hs[0]["deltas"].(map[string]any)["Anna"] != "3" {
		t.Fatalf("hands after hand 1: %v", hs)
	}
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger?after_hand=9", ""), 404)
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger?at_event=99", ""), 404)
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger?at_event=x", ""), 400)
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/ledger?after_hand=1&at_event=2", ""), 400)
}
