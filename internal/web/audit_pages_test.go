package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/payout"
)

// A long history is shown a page of auditPage events at a time, the latest
// first, with links to the others; a page's amounts are followed from the
// first event on, so a correction on the latest page says what the deal it
// corrects (on the first page) moved before.
func TestHistoryIsPaged(t *testing.T) {
	svc := game.New(testStore(t))
	h, err := New(svc, slog.New(slog.NewTextHandler(io.Discard, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	ctx := context.Background()
	ip := func(n int) *int { return &n }
	if _, err := svc.Record(ctx, id, payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)}, game.Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	for range 248 {
		if _, err := svc.Record(ctx, id, payout.Record{Contract: "pass"}, game.Checks{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Correct(ctx, id, 1, payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(50), Tricks: ip(3)}, "recounted", game.Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	// 251 events: the start, 249 deals, the correction.
	latest := page(t, h, "/g/"+id+"/audit", "en").body
	for _, want := range []string{`<li value="52">`, `<li value="251">`, "Events 52 to 251 of 251.",
		`href="/g/` + id + `/audit?from=1"`, "Ben +6 → −6"} {
		if !strings.Contains(latest, want) {
			t.Errorf("the latest page lacks %q", want)
		}
	}
	if strings.Contains(latest, `<li value="51">`) || strings.Contains(latest, "Later events") {
		t.Errorf("the latest page shows an earlier event or a later page")
	}
	first := page(t, h, "/g/"+id+"/audit?from=1", "en").body
	for _, want := range []string{`<li value="1">`, `<li value="200">`, "Events 1 to 200 of 251.", `href="/g/` + id + `/audit?from=201"`, "Later events"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first page lacks %q", want)
		}
	}
	if strings.Contains(first, `<li value="201">`) {
		t.Error("the first page shows event 201")
	}
	// The download is every event, as one JSON array.
	if r := do(t, h, "GET", "/api/games/"+id+"/events", ""); r.status != http.StatusOK || strings.Count(r.body, `"seq":`) != 251 || !strings.HasPrefix(r.body, `[{"seq":1,`) || !strings.HasSuffix(r.body, "}]\n") {
		t.Fatalf("events: %d, %d events", r.status, strings.Count(r.body, `"seq":`))
	}
	if r := do(t, h, "GET", "/api/games/"+strings.Repeat("a", 26)+"/events", ""); r.status != http.StatusNotFound {
		t.Fatalf("the events of no game: %d %s", r.status, r.body)
	}
}

// With every build slot taken, a heavy page waits, then is turned away with
// 503 and Retry-After; once a slot is free it is built.
func TestHeavyPagesAreBounded(t *testing.T) {
	limit := heavyLimit(1, 50*time.Millisecond)
	hold, held := make(chan struct{}), make(chan struct{})
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		status, msg := statusOf(err)
		c.String(status, msg)
	}
	e.GET("/slow", func(c echo.Context) error { close(held); <-hold; return c.String(http.StatusOK, "built") }, limit)
	e.GET("/fast", func(c echo.Context) error { return c.String(http.StatusOK, "built") }, limit)
	done := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest("GET", "/slow", nil))
		done <- rec
	}()
	<-held
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest("GET", "/fast", nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "try again in a few seconds") {
		t.Fatalf("with the slot taken: %d %q %q", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	close(hold)
	if r := <-done; r.Code != http.StatusOK {
		t.Fatalf("the first build: %d", r.Code)
	}
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest("GET", "/fast", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("with the slot free: %d", rec.Code)
	}
}
