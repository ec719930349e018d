package web

import (
	"strings"
	"testing"
)

// An Idempotency-Key is bound to the request it came with: the same key
// with another body is refused (422) and never hands out the first
// request's game or answer; a key that is not 1–255 printable ASCII
// characters is refused before anything happens.
func TestIdempotencyKeyBoundToRequest(t *testing.T) {
	h := newServer(t)
	first := do(t, h, "POST", "/api/games", zugerGame, "Idempotency-Key", "new-game-1")
	if first.status != 201 {
		t.Fatalf("create: %d %s", first.status, first.body)
	}
	other := `{"variant":"old-tapp","players":["Eve","Finn","Gus"]}`
	second := do(t, h, "POST", "/api/games", other, "Idempotency-Key", "new-game-1")
	if second.status != 422 || !strings.Contains(second.body, "already used for a different request") {
		t.Fatalf("the key reused for another game: %d %s, want 422", second.status, second.body)
	}
	id := first.json(t)["id"].(string)
	if strings.Contains(second.body, id) {
		t.Fatal("a reused key handed out the first game's id")
	}

	deal := `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", deal, "Idempotency-Key", "deal-1"); r.status != 201 {
		t.Fatalf("record: %d %s", r.status, r.body)
	}
	another := `{"contract":"tapp","declarer":"Cleo","points":80,"tricks":6}`
	r := do(t, h, "POST", "/api/games/"+id+"/hands", another, "Idempotency-Key", "deal-1")
	if r.status != 422 || !strings.Contains(r.body, "already used for a different request") {
		t.Fatalf("the key reused for another deal: %d %s, want 422", r.status, r.body)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 1.0 {
		t.Fatalf("a refused key recorded: %v", l)
	}

	for _, key := range []string{strings.Repeat("k", 256), "schlüssel", "a\tb", "\x7f"} {
		r := do(t, h, "POST", "/api/games/"+id+"/hands", another, "Idempotency-Key", key)
		if r.status != 422 || !strings.Contains(r.body, "Idempotency-Key") {
			t.Fatalf("key %q: %d %s, want 422 naming the header", key, r.status, r.body)
		}
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 1.0 {
		t.Fatalf("a request with a bad key recorded: %v", l)
	}
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", another, "Idempotency-Key", strings.Repeat("k", 255)); r.status != 201 {
		t.Fatalf("a key of 255 characters: %d %s", r.status, r.body)
	}
}
