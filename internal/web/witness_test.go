package web

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// fileServer serves the database at path; stop closes it, so that the file
// can be changed behind tappbook's back and served again.
func fileServer(t *testing.T, path string) (h http.Handler, stop func()) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err = New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return h, func() { st.Close() }
}

// cutTail deletes a game's events after version keep and mends its head
// row to match, with the triggers that forbid it dropped: a history cut by
// someone with the file, whose chain is whole again.
func cutTail(t *testing.T, path, id string, keep int) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`DROP TRIGGER IF EXISTS events_no_delete`,
		fmt.Sprintf(`DELETE FROM events WHERE stream_id = (SELECT id FROM streams WHERE stream = '%s') AND version > %d`, id, keep),
		fmt.Sprintf(`UPDATE streams SET version = %d, hash = (SELECT hash FROM stream_events WHERE stream = '%s' AND version = %d) WHERE stream = '%s'`, keep, id, keep, id)} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

func eventHashes(t *testing.T, h http.Handler, path string) []string {
	t.Helper()
	var evs []struct {
		Hash string `json:"hash"`
	}
	if err := json.Unmarshal([]byte(do(t, h, "GET", path, "").body), &evs); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Hash)
	}
	return out
}

// A phone asks whether the history still holds the (version, hash) it
// saw: yes while it does, through the write link and the read-only link;
// "changed" for a hash that is not the event's; "cut" once the tail is
// gone, even with the head row mended so that the chain is whole.
func TestWitness(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	h, stop := fileServer(t, path)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	readID := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	for range 3 {
		if r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`); r.status != 201 {
			t.Fatal(r.body)
		}
	}
	hashes := eventHashes(t, h, "/api/games/"+id+"/events")
	ask := func(base string, v int, hash string) map[string]any {
		t.Helper()
		r := do(t, h, "GET", fmt.Sprintf("%s/witness?version=%d&hash=%s", base, v, hash), "")
		if r.status != 200 {
			t.Fatalf("witness %s %d: %d %s", base, v, r.status, r.body)
		}
		return r.json(t)
	}
	for _, base := range []string{"/api/games/" + id, "/api/r/" + readID} {
		for v := 1; v <= 4; v++ {
			if w := ask(base, v, hashes[v-1]); w["holds"] != true || w["version"].(float64) != 4 || w["head"] != hashes[3] {
				t.Fatalf("%s version %d: %v", base, v, w)
			}
		}
		other := hashes[2][:63] + map[bool]string{true: "1", false: "0"}[hashes[2][63] == '0']
		if w := ask(base, 3, other); w["holds"] != false || w["why"] != "changed" {
			t.Fatalf("%s: another hash at version 3: %v", base, w)
		}
	}
	for _, bad := range []string{"version=0&hash=" + hashes[0], "version=x&hash=" + hashes[0], "version=1&hash=abc", "version=1"} {
		if r := do(t, h, "GET", "/api/games/"+id+"/witness?"+bad, ""); r.status != 400 || r.json(t)["error"] == "" {
			t.Fatalf("%s: %d %s", bad, r.status, r.body)
		}
	}
	if r := do(t, h, "GET", "/api/r/nosuchlink/witness?version=1&hash="+hashes[0], ""); r.status != 404 {
		t.Fatalf("an unknown read-only link: %d", r.status)
	}
	stop()

	cutTail(t, path, id, 2)
	h, stop = fileServer(t, path)
	defer stop()
	if led := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); led["hands"].(float64) != 1 {
		t.Fatalf("the cut game reads as %v deals; the test wants the chain whole at 1 deal", led["hands"])
	}
	if w := ask("/api/games/"+id, 4, hashes[3]); w["holds"] != false || w["why"] != "cut" || w["version"].(float64) != 2 {
		t.Fatalf("the phone saw version 4, the server holds 2: %v", w)
	}
	if w := ask("/api/r/"+readID, 2, hashes[1]); w["holds"] != true {
		t.Fatalf("version 2 is still there: %v", w)
	}
}
