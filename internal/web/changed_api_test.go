package web

import (
	"encoding/json"
	"reflect"
	"testing"
)

// api.md "The evening as it stood": a correction's entry in /events carries
// "changed": every later deal whose deltas or pot it changed, before and
// after, the pot, and the transfers before and after. Old-tapp (stake 2,
// TestChangedInOldTapp's deals): correcting deal 2 to a lost coeurfrage
// leaves deal 3's amounts but not the pot after it, and deal 4's solo takes
// a bigger pot.
func TestEventsSayWhatACorrectionChanged(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"0.50","currency":"SEK","rules":{"stake":2}}`)
	playDeals(t, h, id, `{"contract":"pass"}`, `{"contract":"coeurfrage","declarer":"Anna","points":73}`,
		`{"contract":"pass"}`, `{"contract":"solo","declarer":"Cleo","trump":"clubs","points":70}`)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/2", `{"contract":"coeurfrage","declarer":"Anna","points":50}`), 200)
	evs := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).jsonList(t)
	var types []any
	for i, e := range evs {
		types = append(types, e["type"])
		if e["seq"] != float64(i+1) {
			t.Fatalf("event %d has seq %v: the held correction came out of order", i+1, e["seq"])
		}
		if _, ok := e["changed"]; ok && e["type"] != "hand.corrected" {
			t.Errorf("event %d (%v) says what it changed", i+1, e["type"])
		}
	}
	if want := []any{"game.started", "hand.recorded", "hand.recorded", "hand.recorded", "hand.recorded", "hand.corrected", "hand.rescored"}; !reflect.DeepEqual(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	var want any
	_ = json.Unmarshal([]byte(`{
		"hands": [
			{"hand": 3,
			 "before": {"deltas": {"Anna": "0", "Ben": "0", "Cleo": "-2"}, "pot_delta": "2", "pot": "6"},
			 "after":  {"deltas": {"Anna": "0", "Ben": "0", "Cleo": "-2"}, "pot_delta": "2", "pot": "9"}},
			{"hand": 4,
			 "before": {"deltas": {"Anna": "-7", "Ben": "-5", "Cleo": "18"}, "pot_delta": "-6", "pot": "0"},
			 "after":  {"deltas": {"Anna": "-7", "Ben": "-5", "Cleo": "21"}, "pot_delta": "-9", "pot": "0"}}],
		"pot": {"before": "0", "after": "0"},
		"transfers": {
			"before": [{"from": "Ben", "to": "Cleo", "amount": "5.50"}, {"from": "Anna", "to": "Cleo", "amount": "0.50"}],
			"after":  [{"from": "Anna", "to": "Cleo", "amount": "9.00"}, {"from": "Ben", "to": "Cleo", "amount": "2.00"}]}}`), &want)
	if got := evs[5]["changed"]; !reflect.DeepEqual(got, want) {
		b, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("changed:\n%s", b)
	}
	// The ledger says the same transfers as the correction's "after".
	st := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/settlement", ""), 200).json(t)
	if ts := st["transfers"].([]any); len(ts) != 2 || ts[0].(map[string]any)["amount"] != "9.00" {
		t.Fatalf("settlement %v", st["transfers"])
	}
}

// A void says what it changed too, and an evening never corrected has no
// "changed" anywhere.
func TestEventsChangedByAVoidOnly(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	playDeals(t, h, id, tappDeal("Anna", 70), tappDeal("Ben", 70))
	for _, e := range mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).jsonList(t) {
		if _, ok := e["changed"]; ok {
			t.Fatalf("an uncorrected evening: %v", e)
		}
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands/1/void", `{"reason":"misdeal"}`), 200)
	evs := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).jsonList(t)
	ch, ok := evs[len(evs)-1]["changed"].(map[string]any)
	if !ok || evs[len(evs)-1]["type"] != "hand.voided" {
		t.Fatalf("the void's entry: %v", evs[len(evs)-1])
	}
	if hs := ch["hands"].([]any); len(hs) != 0 {
		t.Errorf("zuger's later deals changed by a void: %v", hs)
	}
	ts := ch["transfers"].(map[string]any)
	if before, after := ts["before"].([]any), ts["after"].([]any); reflect.DeepEqual(before, after) || len(after) == 0 {
		t.Errorf("transfers %v → %v", before, after)
	}
	// A correction right after the void: each says its own change, the
	// void's "after" being the correction's "before".
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/2", tappDeal("Cleo", 70)), 200)
	evs = mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).jsonList(t)
	void, corr := evs[len(evs)-2], evs[len(evs)-1]
	vt := void["changed"].(map[string]any)["transfers"].(map[string]any)
	ct, ok := corr["changed"].(map[string]any)["transfers"].(map[string]any)
	if !ok || corr["type"] != "hand.corrected" || !reflect.DeepEqual(vt["after"], ct["before"]) || reflect.DeepEqual(ct["before"], ct["after"]) {
		t.Errorf("the void %v, then the correction %v", void["changed"], corr["changed"])
	}
}
