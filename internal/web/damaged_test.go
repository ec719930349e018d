package web

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// A game whose stored history was changed behind tappbook's back is served
// read-only: its pages and ledger show it as far as the chain holds, with a
// banner naming the first bad event; recording is refused with a 409 that
// says so; /healthz tells "degraded". Other games go on as before.
func TestDamagedGameIsServedReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "d.db")
	serve := func() (http.Handler, func()) {
		st, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		return h, func() { st.Close() }
	}
	h, stop := serve()
	bad := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	good := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	for range 3 {
		if r := do(t, h, "POST", "/api/games/"+bad+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`); r.status != 201 {
			t.Fatal(r.body)
		}
	}
	stop()

	// Someone with the file gives Ben more: the third deal's payload.
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TRIGGER events_no_update`,
		`UPDATE events SET data = replace(data, '"Ben":"6"', '"Ben":"60"') WHERE stream_id = (SELECT id FROM streams WHERE stream = '` + bad + `') AND version = 3`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	h, stop = serve()
	defer stop()
	if r := do(t, h, "GET", "/healthz", ""); r.status != 200 || !strings.Contains(r.body, `"status":"ok"`) {
		t.Fatalf("healthz before the game is read: %d %s", r.status, r.body)
	}
	led := do(t, h, "GET", "/api/games/"+bad+"/ledger", "")
	if led.status != 200 || led.json(t)["hands"].(float64) != 1 {
		t.Fatalf("the damaged game's ledger: %d %s, want the 1 deal before the bad event (version 3 is deal 2)", led.status, led.body)
	}
	r := do(t, h, "POST", "/api/games/"+bad+"/hands", `{"contract":"pass"}`)
	if r.status != http.StatusConflict || !strings.Contains(r.body, "damaged at event") || !strings.Contains(r.body, "version 3") {
		t.Fatalf("recording into the damaged game: %d %s", r.status, r.body)
	}
	page := do(t, h, "GET", "/g/"+bad, "")
	if page.status != 200 || !strings.Contains(page.body, `class="status damaged"`) || strings.Contains(page.body, "/record") {
		t.Fatalf("the damaged game's page: %d, banner shown %t", page.status, strings.Contains(page.body, "damaged"))
	}
	hz := do(t, h, "GET", "/healthz", "")
	// Counted, not named: a game's id is what lets anyone read and
	// record it, and anyone may ask /healthz.
	if hz.status != 200 || !strings.Contains(hz.body, `"status":"degraded"`) || !strings.Contains(hz.body, `"damaged":1`) || strings.Contains(hz.body, bad) {
		t.Fatalf("healthz: %d %s", hz.status, hz.body)
	}
	if r := do(t, h, "POST", "/api/games/"+good+"/hands", `{"contract":"pass"}`); r.status != 201 {
		t.Fatalf("another game: %d %s", r.status, r.body)
	}
}
