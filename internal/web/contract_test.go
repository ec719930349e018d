package web

import (
	"strings"
	"testing"
)

// padded is body followed by spaces up to n bytes: still one JSON value.
func padded(body string, n int) string { return body + strings.Repeat(" ", n-len(body)) }

// api.md: "413 body over 64 KiB". A body of exactly 64 KiB (65,536 bytes)
// is not over it; one byte more is.
func TestBodyLimitIs64KiB(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, zugerGame)
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", padded(`{"contract":"pass"}`, 64<<10)); r.status != 201 {
		t.Fatalf("a body of exactly 64 KiB: %d %s, want 201", r.status, r.body)
	}
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", padded(`{"contract":"pass"}`, 64<<10+1)); r.status != 413 {
		t.Fatalf("a body of 64 KiB + 1: %d %s, want 413", r.status, r.body)
	}
}

// api.md: "currency … an ISO 4217 code". Three letters that name no
// currency are refused, for a game as for a group; a real code passes.
func TestCurrencyMustBeAnISO4217Code(t *testing.T) {
	h := newServer(t)
	for _, c := range []struct {
		path, body string
		status     int
	}{
		{"/api/games", `{"variant":"zuger","players":["A","B","C","D"],"currency":"ABC"}`, 422},
		{"/api/games", `{"variant":"zuger","players":["A","B","C","D"],"currency":"QQQ"}`, 422},
		{"/api/groups", `{"name":"Thursday","players":[],"currency":"ABC"}`, 422},
		{"/api/games", `{"variant":"zuger","players":["A","B","C","D"],"currency":"SEK"}`, 201},
		{"/api/groups", `{"name":"Thursday","players":[],"currency":"JPY"}`, 201},
	} {
		r := do(t, h, "POST", c.path, c.body)
		if r.status != c.status {
			t.Fatalf("%s %s: %d %s, want %d", c.path, c.body, r.status, r.body, c.status)
		}
		if c.status == 422 && !strings.Contains(r.json(t)["error"].(string), "ISO 4217") {
			t.Fatalf("%s %s: %s does not say what a currency must be", c.path, c.body, r.body)
		}
	}
}
