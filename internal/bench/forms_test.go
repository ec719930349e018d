package bench

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A phone opens its evening before its first deal, and reads every
// answer's bytes as the server sent them: gzip, not inflated.
func TestFormPhoneOpensTheEveningThenReadsThePagesAsSent(t *testing.T) {
	// Given a server whose evening page is sent gzipped, and whose deal
	// form answers with a 303 to that page,
	var page bytes.Buffer
	zw := gzip.NewWriter(&page)
	zw.Write([]byte(strings.Repeat("<tr><td>deal</td></tr>\n", 500)))
	zw.Close()
	var asked []string
	var gzipAsked []bool
	mux := http.NewServeMux()
	mux.HandleFunc("GET /g/e1", func(w http.ResponseWriter, r *http.Request) {
		asked, gzipAsked = append(asked, "GET "+r.URL.Path), append(gzipAsked, r.Header.Get("Accept-Encoding") == "gzip")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(page.Bytes())
	})
	mux.HandleFunc("POST /g/e1/record", func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, "POST "+r.URL.Path+" "+r.FormValue("contract"))
		http.Redirect(w, r, "/g/e1", http.StatusSeeOther)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	p := &formPhone{page: srv.URL + "/g/e1", client: srv.Client()}

	// when it arrives and records two deals,
	opening, err := arrive([]*formPhone{p})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := p.next(); err != nil {
			t.Fatal(err)
		}
	}

	// then it opened the evening once, first, then posted each deal and
	// followed it to the page, asking for gzip each time;
	want := []string{"GET /g/e1", "POST /g/e1/record solo", "GET /g/e1", "POST /g/e1/record tapp", "GET /g/e1"}
	if !slices.Equal(asked, want) {
		t.Errorf("requests %q, want %q", asked, want)
	}
	if slices.Contains(gzipAsked, false) {
		t.Errorf("gzip asked for: %v, want every page", gzipAsked)
	}
	if p.deals != 2 || opening <= 0 {
		t.Errorf("deals %d, opening %v: want 2 deals and the opening timed", p.deals, opening)
	}
	// and it read the three pages' bytes as sent, not inflated.
	if want := int64(3 * page.Len()); p.read != want {
		t.Errorf("read %d bytes, want %d (3 pages of %d gzipped bytes)", p.read, want, page.Len())
	}
}

// The form path's trace is the server's, asked of its metrics address for
// the measure's whole seconds, and written as it came.
func TestTraceDuringWritesTheServersTrace(t *testing.T) {
	// Given a server whose metrics address gives a trace,
	var asked string
	metrics := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.String()
		w.Write([]byte("go 1.26 trace\x00bytes"))
	}))
	defer metrics.Close()
	file := filepath.Join(t.TempDir(), "form.trace")

	// when a measure of 2.5 s is traced,
	if err := traceDuring(t.Context(), &server{metrics: metrics.URL}, file, 2500*time.Millisecond)(); err != nil {
		t.Fatal(err)
	}

	// then 3 s were asked for, and the file holds what the server sent;
	if asked != "/debug/pprof/trace?seconds=3" {
		t.Errorf("asked %q", asked)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "go 1.26 trace\x00bytes" {
		t.Errorf("file %q, %v", b, err)
	}
	// and a server in this process, with no metrics address, has none.
	if err := traceDuring(t.Context(), &server{}, file, time.Second)(); err == nil {
		t.Error("no metrics address: no error")
	}
}
