package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// On a full disk a deal is answered 507 with what happened (nothing
// recorded), /healthz says the server is degraded and why, and reading
// goes on. (The disk is a page quota on the database, which fails as a
// full disk does.)
func TestFullDisk(t *testing.T) {
	h := serverOnFile(t, filepath.Join(t.TempDir(), "full.db"), sqlite.Options{MaxPages: 60})
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
	// The deal's form says so, in the page's language, and keeps what was
	// typed.
	f := form(t, h, "/g/"+id+"/record", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}, "Accept-Language", "de")
	if f.status != http.StatusInsufficientStorage || !strings.Contains(visibleText(f.body), "Der Speicher des Servers ist voll; es wurde nichts gespeichert.") || !strings.Contains(f.body, `value="70"`) {
		t.Fatalf("the deal form on a full disk: %d %s", f.status, visibleText(f.body))
	}
}

// appendFails is a store whose next append, once armed, fails with err.
type appendFails struct {
	events.Engine
	err   error
	armed atomic.Bool
}

func (s *appendFails) Append(ctx context.Context, stream string, v int64, k events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	if s.armed.CompareAndSwap(true, false) {
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, s.err)
	}
	return s.Engine.Append(ctx, stream, v, k, evs...)
}

// A deal whose save may or may not have happened is not answered "nothing
// was changed": the API says so with a 503 and how to send it again
// safely, the page says to look at the table first.
func TestSaveWhoseOutcomeIsUnknown(t *testing.T) {
	// A database that stopped answering after the commit was sent.
	st := &appendFails{Engine: testStore(t), err: fmt.Errorf("%w: unexpected EOF", events.ErrOutcomeUnknown)}
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	id := createGame(t, h, zugerGame)
	st.armed.Store(true)
	r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`)
	if msg, _ := r.json(t)["error"].(string); r.status != 503 || r.retryAfter != "2" || !strings.Contains(msg, "may or may not have been saved") || !strings.Contains(msg, "Idempotency-Key") {
		t.Fatalf("API: %d (Retry-After %q) %s", r.status, r.retryAfter, r.body)
	}
	st.armed.Store(true)
	r = form(t, h, "/g/"+id+"/record", url.Values{"contract": {"pass"}}, "Accept-Language", "de")
	if text := visibleText(r.body); r.status != 503 || r.retryAfter != "2" || !strings.Contains(text, "es kann gespeichert sein oder nicht. Nochmals speichern") || strings.Contains(text, "nichts wurde geändert") {
		t.Fatalf("page: %d (Retry-After %q) %s", r.status, r.retryAfter, text)
	}
	// The form shown again keeps its key, so saving it again is the same
	// request: whether the first one was saved or not, one deal.
	key := url.Values{"contract": {"pass"}, "idempotency_key": {"k1"}}
	st.armed.Store(true)
	if r := form(t, h, "/g/"+id+"/record", key); r.status != 503 || !strings.Contains(r.body, `name="idempotency_key" value="k1"`) {
		t.Fatalf("the form shown again: %d %s", r.status, r.body)
	}
	for range 2 {
		if r := form(t, h, "/g/"+id+"/record", key); r.status != 303 {
			t.Fatalf("saved again: %d %s", r.status, visibleText(r.body))
		}
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != float64(1) {
		t.Fatalf("deals recorded: %v", l["hands"])
	}
}

// unreachable is a store on a database server that does not answer.
type unreachable struct {
	events.Engine
	down atomic.Bool
}

func (s *unreachable) Ping(context.Context) error {
	if s.down.Load() {
		return fmt.Errorf("the database is out of reach: connection refused")
	}
	return nil
}

// /healthz asks a database server whether it answers: a proxy's health
// check sees the outage even when nothing was written during it.
func TestHealthAsksTheDatabase(t *testing.T) {
	st := &unreachable{Engine: testStore(t)}
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if r := do(t, h, "GET", "/healthz", ""); r.status != 200 {
		t.Fatalf("healthz: %d %s", r.status, r.body)
	}
	st.down.Store(true)
	// What is wrong, not the connection's details: anyone may ask.
	if r := do(t, h, "GET", "/healthz", ""); r.status != 503 || r.json(t)["status"] != "degraded" || r.json(t)["error"] != "the database is out of reach" {
		t.Fatalf("healthz with the database down: %d %s", r.status, r.body)
	}
	st.down.Store(false)
	if r := do(t, h, "GET", "/healthz", ""); r.status != 200 {
		t.Fatalf("healthz once it is back: %d %s", r.status, r.body)
	}
}

// A deal the server failed to save is answered on the form with the API's
// 5xx, not 422 (what was typed is wrong), and logged: the phone's queue
// tells a fault (500, shown) and an outage (503, sent again) from a
// refusal (dropped, shown). TestReadWithTheDatabaseOutOfReach has the 503.
func TestDealFormServerFailureIsA5xx(t *testing.T) {
	// A write the store gave up on, for no reason the store names: a fault.
	st := &appendFails{Engine: testStore(t), err: context.DeadlineExceeded}
	var logged strings.Builder
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	id := createGame(t, h, zugerGame)
	key := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}, "idempotency_key": {"k1"}}
	st.armed.Store(true)
	r := form(t, h, "/g/"+id+"/record", key)
	if r.status != http.StatusInternalServerError || !strings.Contains(visibleText(r.body), "Something went wrong on the server; nothing was changed") {
		t.Fatalf("a save that timed out: %d %s", r.status, visibleText(r.body))
	}
	// What was typed is still there, under the same key.
	if !strings.Contains(r.body, `name="idempotency_key" value="k1"`) || !strings.Contains(r.body, `value="70"`) {
		t.Fatalf("the form shown again lost what was typed: %s", r.body)
	}
	if !strings.Contains(logged.String(), "deadline exceeded") {
		t.Fatalf("the failure was not logged: %q", logged.String())
	}
	// The game's id is its key: the line names the route, and the error
	// (which named the stream) says :id instead.
	st.armed.Store(true)
	do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`)
	if l := logged.String(); strings.Contains(l, id) || !strings.Contains(l, "route=/g/:id/record") || !strings.Contains(l, "route=/api/games/:id/hands") || !strings.Contains(l, "append to :id") {
		t.Fatalf("the log names the game's id, or not the routes: %q", l)
	}
	if r := form(t, h, "/g/"+id+"/record", key); r.status != http.StatusSeeOther {
		t.Fatalf("saved again: %d %s", r.status, visibleText(r.body))
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != float64(1) {
		t.Fatalf("deals recorded: %v", l["hands"])
	}
}

// readsDown is a store whose reads fail, while down is set, as a database
// server out of reach.
type readsDown struct {
	events.Engine
	down atomic.Bool
}

func (s *readsDown) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	if s.down.Load() {
		return fmt.Errorf("replay %s: %w: connection refused", stream, events.ErrUnavailable)
	}
	return s.Engine.Replay(ctx, stream, fn)
}

// A page or an API read while the database is out of reach says so, 503,
// in the reader's language: not "something went wrong".
func TestReadWithTheDatabaseOutOfReach(t *testing.T) {
	st := &readsDown{Engine: testStore(t)}
	first, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	id := createGame(t, first, zugerGame)
	// A server that holds no game in memory yet: it reads the store.
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	st.down.Store(true)
	if r := page(t, h, "/g/"+id, "de"); r.status != http.StatusServiceUnavailable || !strings.Contains(visibleText(r.body), "Die Datenbank des Servers antwortet gerade nicht. Lade diese Seite gleich noch einmal.") {
		t.Fatalf("the table with the database out of reach: %d %s", r.status, visibleText(r.body))
	}
	if r := do(t, h, "GET", "/api/games/"+id+"/ledger", ""); r.status != http.StatusServiceUnavailable || r.retryAfter != "2" || !strings.Contains(r.json(t)["error"].(string), "database does not answer") {
		t.Fatalf("the ledger with the database out of reach: %d (Retry-After %q) %s", r.status, r.retryAfter, r.body)
	}
	st.down.Store(false)
	if r := page(t, h, "/g/"+id, "en"); r.status != http.StatusOK {
		t.Fatalf("the table once the database is back: %d", r.status)
	}
}

// A deal sent as the server stops (its store closed, a restart) is a 503,
// which the phone's queue sends again once the server is back: not a
// fault shown as "something went wrong".
func TestDealWhileStoppingIsA503(t *testing.T) {
	st := testStore(t)
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	id := createGame(t, h, zugerGame)
	st.Close()
	if r := do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"pass"}`); r.status != http.StatusServiceUnavailable || r.retryAfter != "2" || !strings.Contains(r.json(t)["error"].(string), "stopping") {
		t.Fatalf("API: %d (Retry-After %q) %s", r.status, r.retryAfter, r.body)
	}
	if r := form(t, h, "/g/"+id+"/record", url.Values{"contract": {"pass"}}); r.status != http.StatusServiceUnavailable || r.retryAfter != "2" {
		t.Fatalf("form: %d (Retry-After %q) %s", r.status, r.retryAfter, visibleText(r.body))
	}
}

// A database file deleted while the server runs: a deal is no longer
// acknowledged (the ordinary 503, no file named: the details are the
// log's and /healthz's), and the deal's form says so in the page's
// language with what was typed kept (a tester's server answered 201 to
// deals written to the deleted file, and started empty). Every such 503,
// the API's and each form's, carries Retry-After: 60, as long as a person
// takes to restart the server, not the 2 s of an outage that passes by
// itself.
func TestDatabaseFileDeletedWhileServing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone.db")
	var logged bytes.Buffer
	h := serverOnFileLogging(t, path, sqlite.Options{}, &logged)
	id := createGame(t, h, zugerGame)
	deal := `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", deal), 201)
	closed := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+closed+"/hands", deal), 201)
	payer := mustStatus(t, do(t, h, "POST", "/api/games/"+closed+"/close", `{}`), 200).json(t)["transfers"].([]any)[0].(map[string]any)["from"].(string)
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	for range 2 { // the second with the same key is not answered from the deleted file
		r := do(t, h, "POST", "/api/games/"+id+"/hands", deal, "Idempotency-Key", "k-gone")
		if msg, _ := r.json(t)["error"].(string); r.status != 503 || r.retryAfter != "60" || !strings.Contains(msg, "the server cannot save right now, so this may not have been saved") || strings.Contains(msg, "wal") || strings.Contains(msg, path) {
			t.Fatalf("record after the file was deleted: %d (Retry-After %q) %s", r.status, r.retryAfter, r.body)
		}
	}
	health := do(t, h, "GET", "/healthz", "")
	if got := health.json(t); health.status != 503 || got["error"] != "the database file or its -wal was deleted or replaced while the server ran" {
		t.Fatalf("healthz: %d %s", health.status, health.body)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", ""); l.status != 200 || l.json(t)["hands"] != 1.0 {
		t.Fatalf("the ledger after a refused deal: %d %s", l.status, l.body)
	}
	f := form(t, h, "/g/"+id+"/record", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}, "Accept-Language", "sv")
	if f.status != 503 || f.retryAfter != "60" || !strings.Contains(visibleText(f.body), "Servern kan inte spara just nu, så detta kanske inte sparades") || !strings.Contains(f.body, `value="70"`) {
		t.Fatalf("the deal form: %d (Retry-After %q) %s", f.status, f.retryAfter, visibleText(f.body))
	}
	for _, pf := range []struct {
		path string
		v    url.Values
	}{
		{"/g/" + id + "/pay/details", url.Values{"player": {"Ben"}, "paypal": {"benmuster"}}},
		{"/g/" + closed + "/pay/0/paid", url.Values{"by": {payer}}},
	} {
		if r := form(t, h, pf.path, pf.v); r.status != 503 || r.retryAfter != "60" {
			t.Fatalf("%s: %d (Retry-After %q) %s", pf.path, r.status, r.retryAfter, visibleText(r.body))
		}
	}
	// The store said what happened and what to do once (its own line);
	// the server's log says each refusal short, not that paragraph again.
	if n := strings.Count(logged.String(), "the store stopped writing"); n < 4 || strings.Contains(logged.String(), "until it is restarted") {
		t.Fatalf("%d short lines; the server's log:\n%s", n, logged.String())
	}
}

// serverOnFile serves a SQLite store at path, opened with opt.
func serverOnFile(t *testing.T, path string, opt sqlite.Options) http.Handler {
	t.Helper()
	return serverOnFileLogging(t, path, opt, io.Discard)
}

// serverOnFileLogging is serverOnFile with the server's log written to w.
func serverOnFileLogging(t *testing.T, path string, opt sqlite.Options, w io.Writer) http.Handler {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(w, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return h
}
