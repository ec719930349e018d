package web

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	staticfiles "tappbook/static"
)

// Every page links its stylesheets, scripts and icons by their content
// hash, and a file under that address is kept by the browser for good; any
// other address is asked about each time (304 while unchanged). So a phone
// that kept the old app.js never runs it against the pages of a new binary.
func TestStaticFilesLinkedByContent(t *testing.T) {
	h := newServer(t)
	id := do(t, h, "POST", "/api/games", zugerGame).json(t)["id"].(string)
	group := do(t, h, "POST", "/api/groups", `{"name":"Thursday","players":["Anna","Ben","Cleo","Dan"]}`).json(t)["id"].(string)
	linked := map[string]bool{}
	link := regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`)
	for _, path := range []string{"/", "/g/" + id, "/g/" + id + "/record", "/groups/" + group} {
		body := page(t, h, path, "en").body
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			linked[strings.ReplaceAll(m[1], "&amp;", "&")] = true
		}
	}
	for _, want := range []string{"app.css", "app.js", "groups.css", "mine.js", "icon-192.png"} {
		found := false
		for u := range linked {
			found = found || strings.HasPrefix(u, "/static/"+want+"?")
		}
		if !found {
			t.Errorf("no page links %s by its hash; links: %v", want, linked)
		}
	}
	get := func(target string, headers ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", target, nil)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for u := range linked {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(parsed.Path, "/static/")
		content, err := staticfiles.FS.ReadFile(name)
		if err != nil {
			t.Fatalf("%s links %s, which is not embedded: %v", u, name, err)
		}
		sum := sha256.Sum256(content)
		hash := hex.EncodeToString(sum[:6])
		if v := parsed.Query().Get("v"); v != hash {
			t.Errorf("%s: v=%q, want the file's hash %q", u, v, hash)
		}
		rec := get(u)
		if rec.Code != http.StatusOK || rec.Body.String() != string(content) {
			t.Fatalf("GET %s: %d, %d bytes; want 200 and the file", u, rec.Code, rec.Body.Len())
		}
		if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
			t.Errorf("GET %s: Cache-Control %q, want it kept for good", u, cc)
		}
		if et := rec.Header().Get("ETag"); et != `W/"`+hash+`"` {
			t.Errorf("GET %s: ETag %q, want %q", u, et, `W/"`+hash+`"`)
		}
		// The plain address and an old page's hash: asked about each time.
		for _, other := range []string{parsed.Path, parsed.Path + "?v=0123456789ab"} {
			rec := get(other)
			if cc := rec.Header().Get("Cache-Control"); rec.Code != http.StatusOK || cc != "no-cache" {
				t.Errorf("GET %s: %d, Cache-Control %q; want 200 and no-cache", other, rec.Code, cc)
			}
			if rec := get(other, "If-None-Match", `"`+hash+`"`); rec.Code != http.StatusNotModified {
				t.Errorf("GET %s with the file's ETag: %d, want 304", other, rec.Code)
			}
			if rec := get(other, "If-None-Match", `"0123456789ab"`); rec.Code != http.StatusOK {
				t.Errorf("GET %s with an old ETag: %d, want 200 and the file", other, rec.Code)
			}
		}
	}
}

// The service worker keeps for offline use the files by the addresses
// pages link them by, under a version made of every file's hash: a release
// with other files is a worker of other bytes, which the browser installs
// (and whose activation lets the old files go).
func TestServiceWorkerNamesThisRelease(t *testing.T) {
	h := newServer(t)
	req := httptest.NewRequest("GET", "/sw.js", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	sw := rec.Body.String()
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("GET /sw.js: %d, Cache-Control %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	if !strings.Contains(sw, "\nvar VERSION = \""+staticfiles.Digest()+"\";\n") || strings.Contains(sw, `"dev"`) {
		t.Errorf("the worker does not name this release (%s): %s", staticfiles.Digest(), sw)
	}
	for _, name := range []string{"app.css", "app.js", "icon-192.png"} {
		u := staticfiles.URL(name)
		if !strings.Contains(sw, `"`+u+`"`) {
			t.Errorf("the worker does not keep %s: %s", u, sw)
		}
		if r := do(t, h, "GET", u, ""); r.status != http.StatusOK {
			t.Errorf("GET %s, which the worker keeps: %d", u, r.status)
		}
	}
	if strings.Contains(sw, `"/static/app.js"`) {
		t.Errorf("the worker keeps app.js by its plain address, which pages no longer ask for: %s", sw)
	}
}
