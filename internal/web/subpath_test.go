package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// subpathPublic is the public URL of the subpath tests: the app under
// /tapp/ of a name it shares with other sites.
const subpathPublic = "https://tapp.test/tapp"

// subpathServer serves a fresh database at subpathPublic.
func subpathServer(t *testing.T) http.Handler {
	t.Helper()
	public, _ := url.Parse(subpathPublic)
	h, _ := reachServer(t, Reach{PublicURL: public, Names: []string{"tapp.test"}}, 0)
	return h
}

// postPublic posts a form from the app's own page at the public URL, as a
// browser does, and gives the answer.
func postPublic(h http.Handler, path string, form url.Values) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", subpathPublic+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://tapp.test")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// seeOtherUnder is the path a form's 303 leads to, which must be under
// /tapp/.
func seeOtherUnder(t *testing.T, rec *httptest.ResponseRecorder, what string) string {
	t.Helper()
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/tapp/") {
		t.Fatalf("%s: %d, Location %q, want 303 to /tapp/…\n%s", what, rec.Code, loc, rec.Body.String())
	}
	return loc
}

// addressAttr is an attribute that holds an address (or may: data-*).
var addressAttr = regexp.MustCompile(`\s(href|src|action|data-[a-z-]+)="([^"]*)"`)

// Given --public-url https://tapp.test/tapp/, when a phone goes through
// every page it can reach from the start page (an evening with deals and
// closed, its pay page, a group, its tab and stats), then every link, form
// action, asset and script address on them starts with /tapp/ and answers
// there; forms answer 303 to /tapp/…; cookies, the service worker and the
// manifest stay under /tapp/; share links name the public URL.
func TestServedUnderASubpath(t *testing.T) {
	h := subpathServer(t)
	loc := seeOtherUnder(t, postPublic(h, "/new/zuger", players("Anna", "Ben", "Cleo", "Dan")), "the new-evening form")
	id := strings.TrimPrefix(loc, "/tapp/g/")
	for _, deal := range []string{`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`, `{"contract":"tapp","declarer":"Anna","points":40,"tricks":5}`} {
		mustStatus(t, do(t, h, "POST", subpathPublic+"/api/games/"+id+"/hands", deal), http.StatusCreated)
	}
	mustStatus(t, do(t, h, "PUT", subpathPublic+"/api/games/"+id+"/players/Ben/pay", `{"paypal":"benmuster"}`), http.StatusOK)
	mustStatus(t, do(t, h, "PUT", subpathPublic+"/api/games/"+id+"/players/Anna/pay", `{"paypal":"anna"}`), http.StatusOK)
	open := seeOtherUnder(t, postPublic(h, "/new/zuger", players("Anna", "Ben", "Cleo", "Dan")), "a second evening")
	openID := strings.TrimPrefix(open, "/tapp/g/")
	for range 2 {
		mustStatus(t, do(t, h, "POST", subpathPublic+"/api/games/"+openID+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)
	}
	mustStatus(t, do(t, h, "POST", subpathPublic+"/api/games/"+id+"/close", `{}`), http.StatusOK)

	group := url.Values{"name": {"Thursday"}, "player": {"Anna", "Ben", "Cleo"}, "unit": {"1"}, "currency": {"EUR"}}
	gloc := seeOtherUnder(t, postPublic(h, "/groups/new", group), "the new-group form")
	gid := strings.TrimPrefix(gloc, "/tapp/groups/")
	ev := mustStatus(t, do(t, h, "POST", subpathPublic+"/api/games", zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan")), http.StatusCreated).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", subpathPublic+"/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Cleo","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", subpathPublic+"/api/games/"+ev+"/close", `{}`), http.StatusOK)
	mustStatus(t, do(t, h, "PUT", subpathPublic+"/api/groups/"+gid+"/members/Cleo/pay", `{"paypal":"cleo"}`), http.StatusOK)
	seeOtherUnder(t, postPublic(h, "/g/"+openID+"/hands/1/void", url.Values{"reason": {"typo"}}), "the void form")
	// A browser on plain HTTP may hide the page's origin: the form's token,
	// signed for the address the page names, lets the post through.
	page := mustStatus(t, do(t, h, "GET", subpathPublic+"/groups/new", ""), http.StatusOK).body
	token := regexp.MustCompile(`name="form_token" value="([^"]+)"`).FindStringSubmatch(page)
	if token == nil {
		t.Fatal("the new-group form has no token")
	}
	group.Set("form_token", token[1])
	req := httptest.NewRequest("POST", subpathPublic+"/groups/new", strings.NewReader(group.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "null")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	seeOtherUnder(t, rec, "the new-group form with Origin: null and its token")

	pages := crawlUnder(t, h, []string{"/tapp/", "/tapp/g/" + id + "/pay", "/tapp/groups/" + gid, open})
	for _, want := range []string{"/tapp/g/" + id, "/tapp/g/" + id + "/close", "/tapp/g/" + id + "/pay", "/tapp/g/" + id + "/audit",
		"/tapp/g/" + id + "/board", "/tapp/g/" + id + "/share", open + "/record", "/tapp/groups/" + gid + "/tab", "/tapp/groups/" + gid + "/stats",
		"/tapp/new/zuger", "/tapp/groups/new"} {
		if !pages[want] {
			t.Errorf("the crawl never reached %s", want)
		}
	}
	if body := do(t, h, "GET", subpathPublic+"/g/"+id+"/share", "").body; !strings.Contains(body, subpathPublic+"/g/"+id) || !strings.Contains(body, subpathPublic+"/r/") {
		t.Errorf("the share page does not link %s/g/%s and its read-only link", subpathPublic, id)
	}

	checkRootFiles(t, h)
}

// crawlUnder follows every address the pages from start link (by path,
// each once), checks each is under /tapp/ and answers there, and gives the
// paths it reached.
func crawlUnder(t *testing.T, h http.Handler, start []string) map[string]bool {
	t.Helper()
	seen, queue := map[string]bool{}, start
	for len(queue) > 0 && len(seen) < 150 {
		target := queue[0]
		queue = queue[1:]
		path, _, _ := strings.Cut(target, "?")
		if seen[path] {
			continue
		}
		seen[path] = true
		r := do(t, h, "GET", "https://tapp.test"+target, "")
		if r.status != http.StatusOK {
			t.Errorf("GET %s (linked under /tapp/): %d", target, r.status)
			continue
		}
		if !strings.HasSuffix(path, "/") && strings.Contains(path, ".") || !strings.Contains(r.body, "<html") {
			continue // an asset, an export, a QR code: no addresses in it
		}
		for _, m := range addressAttr.FindAllStringSubmatch(r.body, -1) {
			attr, v := m[1], strings.ReplaceAll(m[2], "&amp;", "&")
			switch {
			case strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://"):
				if strings.Contains(v, "tapp.test") && !strings.HasPrefix(v, subpathPublic+"/") {
					t.Errorf("%s on %s: %s=%q is not under %s/", attr, target, attr, v, subpathPublic)
				}
			case !strings.HasPrefix(v, "/"):
				// a fragment, data:, a word
			case attr == "data-root" && v == "/tapp":
			case !strings.HasPrefix(v, "/tapp/"):
				t.Errorf("%s: %s=%q is not under /tapp/", target, attr, v)
			case attr == "action" || strings.HasPrefix(attr, "data-"):
				// posted, or asked by the script with its own query
			default:
				queue = append(queue, v)
			}
		}
	}
	return seen
}

// checkRootFiles: the language cookie's path, the manifest, the service
// worker, the bare prefix and the health check without the prefix.
func checkRootFiles(t *testing.T, h http.Handler) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", subpathPublic+"/?lang=de", nil))
	if ck := rec.Header().Get("Set-Cookie"); !strings.Contains(ck, "Path=/tapp/") {
		t.Errorf("the language cookie: %q, want Path=/tapp/", ck)
	}
	manifest := mustStatus(t, do(t, h, "GET", subpathPublic+"/manifest.webmanifest", ""), http.StatusOK).json(t)
	if manifest["start_url"] != "./" || manifest["scope"] != "./" {
		t.Errorf("the manifest's start_url and scope are not relative to /tapp/manifest.webmanifest: %v", manifest)
	}
	sw := mustStatus(t, do(t, h, "GET", subpathPublic+"/sw.js", ""), http.StatusOK).body
	shell := regexp.MustCompile(`(?m)^var SHELL = (.*);$`).FindStringSubmatch(sw)
	if !strings.Contains(sw, "\nvar ROOT = \"/tapp\";\n") || shell == nil || strings.Count(shell[1], `"/tapp/`) != 4 {
		t.Errorf("the service worker does not keep /tapp/'s files:\n%s", sw)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", subpathPublic+"?lang=sv", nil))
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/tapp/?lang=sv" {
		t.Errorf("GET /tapp: %d %q, want 301 to /tapp/?lang=sv", rec.Code, rec.Header().Get("Location"))
	}
	mustStatus(t, do(t, h, "GET", "http://127.0.0.1:8080/readyz", ""), http.StatusOK)
}

// A public URL whose path is one of the app's own (/g/, /api/) would hide
// the addresses it serves without the prefix: the server refuses to start.
func TestSubpathClashRefused(t *testing.T) {
	for _, path := range []string{"/g", "/api", "/static"} {
		public, _ := url.Parse("https://tapp.test" + path)
		if _, err := New(nil, nil, Options{Reach: Reach{PublicURL: public}}); err == nil || !strings.Contains(err.Error(), "one of tappbook's own addresses") {
			t.Errorf("--public-url https://tapp.test%s/: %v", path, err)
		}
	}
}
