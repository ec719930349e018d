package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
)

// pageDeals is how long the evening of the page measures is: the long
// evenings a busy server holds.
const pageDeals = 700

// longServer serves a Zuger evening of pageDeals deals, folded, as a
// server that plays it has it.
func longServer(b *testing.B) (h http.Handler, svc *game.Service, id string) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "long.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	id, _ = longEvening(b, st, pageDeals)
	svc = game.New(st)
	h, err = New(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Snapshot(ctx, id); err != nil {
		b.Fatal(err)
	}
	return h, svc, id
}

func serve(b *testing.B, h http.Handler, req *http.Request, want int) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s: %d, want %d: %.300s", req.Method, req.URL, rec.Code, want, rec.Body.String())
	}
	return rec
}

// phoneGET asks for a page as a phone's browser does: gzipped.
func phoneGET(target string) *http.Request {
	req := httptest.NewRequest("GET", target, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	return req
}

// BenchmarkTablePage renders the table page of a 700-deal evening, each
// time afresh: the page a phone is sent after saving a deal (?saved=n)
// is new each time, so the page cache does not spare the render. B/op is
// what one render allocates, gzipping it included.
//
//	go test -run '^$' -bench BenchmarkTablePage -benchmem ./internal/web/
func BenchmarkTablePage(b *testing.B) {
	h, _, id := longServer(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = n%pageDeals + 1 // every page another: none comes from the cache
		serve(b, h, phoneGET("/g/"+id+"?saved="+strconv.Itoa(n)), http.StatusOK)
	}
}

// BenchmarkRecordForm is the phone's path: the deal form posted, the 303
// followed to the table page, on a 700-deal evening. B/op is what one
// deal recorded this way allocates, the page included.
//
//	go test -run '^$' -bench BenchmarkRecordForm -benchmem ./internal/web/
func BenchmarkRecordForm(b *testing.B) {
	h, _, id := longServer(b)
	form := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}.Encode()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/g/"+id+"/record", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept-Encoding", "gzip")
		rec := serve(b, h, req, http.StatusSeeOther)
		serve(b, h, phoneGET(rec.Header().Get("Location")), http.StatusOK)
	}
}

// BenchmarkLiveUpdate records a deal on a 700-deal evening with no phone
// following it and with one following it live (server-sent events),
// waiting until that phone is told: the difference in B/op is what
// telling a phone costs.
//
//	go test -run '^$' -bench BenchmarkLiveUpdate -benchmem ./internal/web/
func BenchmarkLiveUpdate(b *testing.B) {
	for _, followers := range []int{0, 1} {
		b.Run("followers="+strconv.Itoa(followers), func(b *testing.B) {
			h, svc, id := longServer(b)
			srv := httptest.NewServer(h)
			defer srv.Close()
			told := make(chan int64, 16)
			if followers > 0 {
				res, err := http.Get(srv.URL + "/g/" + id + "/live")
				if err != nil {
					b.Fatal(err)
				}
				defer res.Body.Close()
				go func() {
					sc := bufio.NewScanner(res.Body)
					for sc.Scan() {
						if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
							n, _ := strconv.ParseInt(v, 10, 64)
							told <- n
						}
					}
				}()
			}
			var seen int64
			if followers > 0 {
				seen = <-told // the version it started at
			}
			p, tr := 70, 5
			rec := payout.Record{Contract: "solo", Declarer: "Ben", Points: &p, Tricks: &tr}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Record(context.Background(), id, rec, game.Checks{}, ""); err != nil {
					b.Fatal(err)
				}
				if followers > 0 {
					for want := seen + 1; seen < want; {
						seen = <-told
					}
				}
			}
		})
	}
}

// BenchmarkRecordAPI is a deal posted to the JSON API (POST
// /api/games/{id}/hands), as tappbook-bench's tables post theirs: a
// Zuger evening of 200 deals, then a new one. B/op and allocs/op are what
// one API deal allocates, the new evenings' share included: what the
// runtime's collector is paid for at many tables.
//
//	go test -run '^$' -bench BenchmarkRecordAPI -benchmem ./internal/web/
func BenchmarkRecordAPI(b *testing.B) {
	h := newServerF(b)
	bodies := []string{
		`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`,
		`{"contract":"tapp","declarer":"Anna","points":55,"tricks":3}`,
		`{"contract":"super","declarer":"Dan","points":74,"tricks":6}`,
		`{"contract":"vice","declarer":"Cleo","points":80,"tricks":7}`,
	}
	var path string
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		if n%200 == 0 {
			req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
			req.Header.Set("Content-Type", "application/json")
			var g struct{ ID string }
			if err := json.Unmarshal(serve(b, h, req, http.StatusCreated).Body.Bytes(), &g); err != nil {
				b.Fatal(err)
			}
			path = "/api/games/" + g.ID + "/hands"
		}
		req := httptest.NewRequest("POST", path, strings.NewReader(bodies[n%len(bodies)]))
		req.Header.Set("Content-Type", "application/json")
		serve(b, h, req, http.StatusCreated)
		n++
	}
}
