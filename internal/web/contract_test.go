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
