package web

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/game"
)

// On a full disk a deal is answered 507 with what happened (nothing
// recorded), /healthz says the server is degraded and why, and reading
// goes on. (The disk is a page quota on the database, which fails as a
// full disk does.)
func TestFullDisk(t *testing.T) {
	st, err := events.Open(context.Background(), filepath.Join(t.TempDir(), "full.db"), events.Options{MaxPages: 60})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if r := do(t, h, "GET", "/healthz", ""); r.status != 200 || r.body != `{"status":"ok"}`+"\n" {
		t.Fatalf("healthz: %d %s", r.status, r.body)
	}
	id := createGame(t, h, zugerGame)
	deal := `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`
	var r resp
	recorded := 0
	for range 2000 {
		if r = do(t, h, "POST", "/api/games/"+id+"/hands", deal); r.status != 201 {
			break
		}
		recorded++
	}
	if r.status != 507 || r.json(t)["error"] != "the server's disk is full; nothing was recorded" {
		t.Fatalf("record on a full disk: %d %s", r.status, r.body)
	}
	health := do(t, h, "GET", "/healthz", "")
	if got := health.json(t); health.status != 503 || got["status"] != "degraded" || !strings.Contains(got["error"].(string), "full") {
		t.Fatalf("healthz on a full disk: %d %s", health.status, health.body)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", ""); l.status != 200 || l.json(t)["hands"] != float64(recorded) {
		t.Fatalf("the ledger on a full disk: %d %s (recorded %d)", l.status, l.body, recorded)
	}
}
