package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// get asks for path, gzipped or not, and gives the answer and its body as
// the browser reads it (unzipped).
func get(t *testing.T, h http.Handler, method, path string, gzipped bool) (*httptest.ResponseRecorder, string) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	if gzipped {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body io.Reader = rec.Body
	if rec.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rec, string(b)
}

// Given a browser that takes gzip, when it asks for a page, an asset or a
// page that is not there, then it is sent the same bytes gzipped (and told
// the answer varies by what it takes); the API's answers are not gzipped.
func TestPagesAreSentGzipped(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	form(t, h, "/g/"+id+"/record", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}})
	for _, path := range []string{"/g/" + id, "/g/" + id + "?saved=1", "/g/" + id + "/audit", "/static/app.css", "/g/nosuchgame"} {
		plain, want := get(t, h, "GET", path, false)
		zipped, got := get(t, h, "GET", path, true)
		if zipped.Code != plain.Code {
			t.Fatalf("%s: %d gzipped, %d plain", path, zipped.Code, plain.Code)
		}
		if len(want) >= 1024 && zipped.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: %d bytes sent without gzip", path, len(want))
		}
		if !strings.Contains(zipped.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary is %q", path, zipped.Header().Get("Vary"))
		}
		if path != "/g/"+id+"?saved=1" && got != want { // saved: each page has its own form token
			t.Errorf("%s: the gzipped page differs from the plain one", path)
		}
		if len(got) < 200 {
			t.Errorf("%s: %d bytes: no page", path, len(got))
		}
	}
	if rec, _ := get(t, h, "HEAD", "/g/"+id, true); rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes", rec.Code, rec.Body.Len())
	}
	if rec, body := get(t, h, "GET", "/api/games/"+id+"/ledger", true); rec.Header().Get("Content-Encoding") != "" || !strings.Contains(body, "Anna") {
		t.Errorf("the API answered with Content-Encoding %q: %.100s", rec.Header().Get("Content-Encoding"), body)
	}
}

// gunzip is what a browser reads from a gzip stream.
func gunzip(t *testing.T, zipped []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Given one writer kept, when two pages are gzipped at once, then the
// second is gzipped by a stateless writer rather than waiting; when the
// first is done, the kept writer is lent again and gzips the next page
// from a clean start: each page reads back as it was written.
func TestKeptGzipWritersAreLentOneAtATime(t *testing.T) {
	kept := newKeptGzip(1)
	pages := []string{strings.Repeat("<tr><td>Anna</td><td>+1.20</td></tr>\n", 300), strings.Repeat("<li>Ben 0.40</li>", 500), "<p>Cleo</p>"}
	var first, second, third bytes.Buffer
	zw1 := kept.lend(&first, 1)
	if _, ok := zw1.(*gatheringGzip); !ok {
		t.Fatalf("the first page got a %T, not the kept writer", zw1)
	}
	if _, err := zw1.Write([]byte(pages[0][:1024])); err != nil {
		t.Fatal(err)
	}
	zw2 := kept.lend(&second, 1)
	if _, ok := zw2.(*gatheringGzip); ok {
		t.Fatal("the kept writer was lent twice at once")
	}
	for _, step := range []func() error{
		func() error { _, err := zw2.Write([]byte(pages[1])); return err }, zw2.Close,
		func() error { _, err := zw1.Write([]byte(pages[0][1024:])); return err }, zw1.Close,
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	zw3 := kept.lend(&third, 1)
	if _, ok := zw3.(*gatheringGzip); !ok {
		t.Fatalf("once given back, the kept writer was not lent again: %T", zw3)
	}
	if _, err := zw3.Write([]byte(pages[2])); err != nil {
		t.Fatal(err)
	}
	if err := zw3.Close(); err != nil {
		t.Fatal(err)
	}
	for i, zipped := range []*bytes.Buffer{&first, &second, &third} {
		if got := gunzip(t, zipped.Bytes()); got != pages[i] {
			t.Errorf("page %d reads back as %.80q", i+1, got)
		}
	}
}
