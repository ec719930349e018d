package web

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"tappbook/internal/game"
)

// reachServer serves a fresh database with the reach given, logging to
// the buffer returned.
func reachServer(t *testing.T, reach Reach, maxConns int) (http.Handler, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	h, err := New(game.New(testStore(t)), slog.New(slog.NewTextHandler(&logs, nil)),
		Options{Reach: reach, MaxConnsPerClient: maxConns})
	if err != nil {
		t.Fatal(err)
	}
	return h, &logs
}

// postForm sends the new-evening form from remote (an address:port) to
// target, with the headers given, and gives the answer.
func postForm(h http.Handler, remote, target string, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", target, strings.NewReader(players("Anna", "Ben", "Cleo").Encode()))
	req.RemoteAddr = remote
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Given a public name, a change under another name is refused 403 with a
// sentence naming the server's names (JSON on the API, a page in the
// reader's language on a form), and changes nothing; under the public
// name, localhost, loopback, its own addresses and mDNS name it is taken;
// reading is never refused.
func TestHostAllowList(t *testing.T) {
	reach := Reach{Names: []string{"tapp.example.org"}, OwnHosts: func() []string { return []string{"tappbook.local", "192.168.1.5"} }}
	h, logs := reachServer(t, reach, 0)
	create := func(host string) resp {
		return do(t, h, "POST", "http://"+host+"/api/games", `{"variant":"old-tapp","players":["A","B","C"]}`)
	}
	r := create("rebound.example:8080")
	if r.status != http.StatusForbidden || !strings.Contains(r.json(t)["error"].(string), "tapp.example.org") {
		t.Fatalf("a change under another name: %d %s", r.status, r.body)
	}
	if !strings.Contains(logs.String(), "host=rebound.example:8080") {
		t.Fatalf("the refusal is not logged with the host:\n%s", logs)
	}
	if r := do(t, h, "GET", "/api/games", ""); strings.Contains(r.body, `"id"`) {
		t.Fatalf("the refused change recorded a game: %s", r.body)
	}
	for _, host := range []string{"tapp.example.org", "TAPP.example.org.:443", "localhost:8080", "127.0.0.1:8080", "[::1]:8080", "192.168.1.5:8080", "tappbook.local:8080"} {
		if r := create(host); r.status != http.StatusCreated {
			t.Fatalf("a change under %s: %d %s", host, r.status, r.body)
		}
	}
	id := create("localhost").json(t)["id"].(string)
	if r := do(t, h, "GET", "http://rebound.example/api/games/"+id, ""); r.status != http.StatusOK {
		t.Fatalf("reading under another name: %d", r.status)
	}
	rec := postForm(h, "192.0.2.1:1234", "http://rebound.example/new/old-tapp", "Origin", "http://rebound.example", "Accept-Language", "de")
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "nimmt Änderungen nur unter seinen eigenen Adressen") {
		t.Fatalf("a form under another name: %d %s", rec.Code, rec.Body.String())
	}

	// At home, no name given: any name is served.
	home, _ := reachServer(t, Reach{}, 0)
	if r := do(t, home, "POST", "http://mybox.fritz.box/api/games", `{"variant":"old-tapp","players":["A","B","C"]}`); r.status != http.StatusCreated {
		t.Fatalf("at home, a change under the home network's name: %d %s", r.status, r.body)
	}
}

// Behind a proxy that passes another Host (a bare proxy_pass), a form is
// refused and the log says which header is missing; with the proxy
// trusted its X-Forwarded-Host is the host, and with a public URL the
// public origin is the server's own.
func TestProxyForms(t *testing.T) {
	proxied := []string{"Origin", "http://tapp.example.org", "X-Forwarded-Host", "tapp.example.org", "X-Forwarded-Proto", "http"}
	h, logs := reachServer(t, Reach{}, 0)
	if rec := postForm(h, "127.0.0.1:40000", "http://127.0.0.1:8080/new/old-tapp", proxied...); rec.Code != http.StatusForbidden {
		t.Fatalf("an untrusted proxy's form: %d", rec.Code)
	}
	if !strings.Contains(logs.String(), "X-Forwarded-Host, X-Forwarded-Proto were ignored because 127.0.0.1:40000 is not in --trusted-proxies") {
		t.Fatalf("the log does not say why:\n%s", logs)
	}

	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	trusted, logs := reachServer(t, Reach{TrustedProxies: loopback}, 0)
	if rec := postForm(trusted, "127.0.0.1:40000", "http://127.0.0.1:8080/new/old-tapp", proxied...); rec.Code != http.StatusSeeOther {
		t.Fatalf("a trusted proxy's form: %d %s", rec.Code, rec.Body.String())
	}
	rec := postForm(trusted, "127.0.0.1:40000", "http://127.0.0.1:8080/new/old-tapp", "Origin", "http://tapp.example.org")
	if rec.Code != http.StatusForbidden || !strings.Contains(logs.String(), "the trusted proxy sent no X-Forwarded-Host") {
		t.Fatalf("a trusted proxy without X-Forwarded-Host: %d\n%s", rec.Code, logs)
	}
	// A page of another site, through the trusted proxy that did its
	// part, is said to be that, not the proxy's fault.
	evil := []string{"Origin", "https://evil.example", "X-Forwarded-Host", "tapp.example.org", "X-Forwarded-Proto", "http"}
	if rec := postForm(trusted, "127.0.0.1:40000", "http://127.0.0.1:8080/new/old-tapp", evil...); rec.Code != http.StatusForbidden ||
		!strings.Contains(logs.String(), "Origin names evil.example but the trusted proxy forwarded the Host tapp.example.org: a page of another site sent it") {
		t.Fatalf("another site's form through the proxy: %d\n%s", rec.Code, logs)
	}
	// The proxy is trusted, not whoever connects elsewhere.
	if rec := postForm(trusted, "192.0.2.7:40000", "http://127.0.0.1:8080/new/old-tapp", proxied...); rec.Code != http.StatusForbidden {
		t.Fatalf("an untrusted address's forwarded headers were believed: %d", rec.Code)
	}

	public, _ := url.Parse("https://tapp.example.org")
	named, namedLogs := reachServer(t, Reach{PublicURL: public, Names: []string{"tapp.example.org"}}, 0)
	if rec := postForm(named, "127.0.0.1:40000", "http://tapp.example.org/new/old-tapp", "Origin", "https://tapp.example.org"); rec.Code != http.StatusSeeOther {
		t.Fatalf("a form of the public URL behind a proxy passing Host: %d %s", rec.Code, rec.Body.String())
	}
	if rec := postForm(named, "127.0.0.1:40000", "http://tapp.example.org/new/old-tapp", "Origin", "https://evil.example"); rec.Code != http.StatusForbidden ||
		!strings.Contains(namedLogs.String(), "Origin names evil.example, which is neither the public URL https://tapp.example.org nor the Host tapp.example.org: a page of another site sent it") {
		t.Fatalf("another site's form with a public URL: %d\n%s", rec.Code, namedLogs)
	}
}

// Share links and QR codes name the public URL when given, the forwarded
// scheme and host through a trusted proxy (wherever it is), and never a
// forwarded header from anyone else.
func TestShareLinkNamesThePublicAddress(t *testing.T) {
	link := func(h http.Handler, remote string, headers ...string) string {
		id := createGame(t, h, `{"variant":"old-tapp","players":["A","B","C"]}`)
		req := httptest.NewRequest("GET", "http://127.0.0.1:8080/g/"+id+"/share", nil)
		req.RemoteAddr = remote
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("share: %d", rec.Code)
		}
		m := regexp.MustCompile(`(https?://[^"<\s]*)/g/` + id).FindStringSubmatch(rec.Body.String())
		if m == nil {
			t.Fatalf("no link in the share page:\n%s", rec.Body.String())
		}
		return m[1]
	}
	public, _ := url.Parse("https://tapp.example.org")
	named, _ := reachServer(t, Reach{PublicURL: public}, 0)
	if got := link(named, "127.0.0.1:40000"); got != "https://tapp.example.org" {
		t.Fatalf("with a public URL the link starts %q", got)
	}
	fwd := []string{"X-Forwarded-Host", "tapp.example.org", "X-Forwarded-Proto", "https"}
	trusted, _ := reachServer(t, Reach{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("127.0.0.1/32")}}, 0)
	if got := link(trusted, "127.0.0.1:40000", fwd...); got != "https://tapp.example.org" {
		t.Fatalf("through a trusted proxy the link starts %q", got)
	}
	if got := link(trusted, "192.0.2.1:40000", fwd...); got != "http://127.0.0.1:8080" {
		t.Fatalf("an untrusted address's headers made the link start %q", got)
	}
	// A proxy on a public address (a cloud load balancer) is believed as
	// much as one on loopback.
	balancer, _ := reachServer(t, Reach{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}}, 0)
	if got := link(balancer, "203.0.113.5:40000", fwd...); got != "https://tapp.example.org" {
		t.Fatalf("through a trusted proxy on a public address the link starts %q", got)
	}
}

// Through a trusted proxy the per-client cap counts the phone the proxy
// names, not the proxy: a second live stream of one phone over a cap of
// one is refused 429, another phone's is served.
func TestPerClientCapThroughProxy(t *testing.T) {
	h, _ := reachServer(t, Reach{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, 1)
	srv := httptest.NewServer(h)
	defer srv.Close()
	id := createGame(t, h, `{"variant":"old-tapp","players":["A","B","C"]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream := func(phone string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/g/"+id+"/live", nil)
		req.Header.Set("X-Forwarded-For", phone)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := stream("10.0.0.1")
	defer first.Body.Close()
	if first.StatusCode != http.StatusOK {
		t.Fatalf("first stream: %d", first.StatusCode)
	}
	second := stream("10.0.0.1")
	page, _ := io.ReadAll(second.Body)
	second.Body.Close()
	if second.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the same phone's second stream: %d", second.StatusCode)
	}
	// The page says why in its own words (not the cap on starting evenings).
	if !strings.Contains(string(page), "Too many pages are open from this phone at once") {
		t.Errorf("the page over the cap says:\n%s", page)
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/games/"+id, nil)
	req.Header.Set("X-Forwarded-For", "10.0.0.1")
	api, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(api.Body)
	api.Body.Close()
	if api.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "too many connections from this address") {
		t.Errorf("the API over the cap: %d %s", api.StatusCode, body)
	}
	other := stream("10.0.0.2")
	defer other.Body.Close()
	if other.StatusCode != http.StatusOK {
		t.Fatalf("another phone's stream: %d", other.StatusCode)
	}
}

// The language and theme cookies are Secure whenever the browser came over
// HTTPS: by TLS, through a trusted proxy that says https (wherever that
// proxy is, a public address too), or under the name of an https
// --public-url; not where the browser is on plain HTTP, which would drop
// them, nor on a forwarded header from anyone else. Always HttpOnly and
// SameSite=Lax.
func TestPreferenceCookiesSecureOverHTTPS(t *testing.T) {
	public, _ := url.Parse("https://tapp.example.org/")
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("203.0.113.5/32")}
	home, _ := reachServer(t, Reach{}, 0)
	proxied, _ := reachServer(t, Reach{TrustedProxies: proxies}, 0)
	named, _ := reachServer(t, Reach{PublicURL: public, Names: []string{"tapp.example.org"}}, 0)
	https := []string{"X-Forwarded-Proto", "https"}
	cases := []struct {
		name           string
		h              http.Handler
		remote, target string
		headers        []string
		secure         bool
	}{
		{"plain HTTP at home", home, "192.168.1.20:5000", "http://192.168.1.5:8080/", nil, false},
		{"TLS of its own", home, "192.168.1.20:5000", "https://tapp.test/", nil, true},
		{"a trusted proxy that says https", proxied, "127.0.0.1:40000", "http://127.0.0.1:8080/", https, true},
		{"a trusted proxy on a public address", proxied, "203.0.113.5:40000", "http://10.0.0.2:8080/", https, true},
		{"a trusted proxy that says http", proxied, "127.0.0.1:40000", "http://127.0.0.1:8080/", []string{"X-Forwarded-Proto", "http"}, false},
		{"anyone else saying https", proxied, "192.0.2.7:40000", "http://127.0.0.1:8080/", https, false},
		{"an https public URL's name through a proxy", named, "127.0.0.1:40000", "http://tapp.example.org/", nil, true},
		{"the server's LAN address beside an https public URL", named, "192.168.1.20:5000", "http://192.168.1.5:8080/", nil, false},
	}
	for _, tc := range cases {
		for _, choice := range []string{"lang=de", "theme=dark"} {
			req := httptest.NewRequest("GET", tc.target+"?"+choice, nil)
			req.RemoteAddr = tc.remote
			for i := 0; i+1 < len(tc.headers); i += 2 {
				req.Header.Set(tc.headers[i], tc.headers[i+1])
			}
			rec := httptest.NewRecorder()
			tc.h.ServeHTTP(rec, req)
			cookies := rec.Result().Cookies()
			if rec.Code != http.StatusOK || len(cookies) != 1 {
				t.Fatalf("%s, ?%s: %d, cookies %v", tc.name, choice, rec.Code, cookies)
			}
			if ck := cookies[0]; ck.Secure != tc.secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
				t.Errorf("%s, ?%s: %s; want Secure %v, HttpOnly, SameSite=Lax, Path=/", tc.name, choice, rec.Header().Get("Set-Cookie"), tc.secure)
			}
		}
	}
	// A theme that is none of the three is kept as the phone's own, not
	// as whatever the address said.
	rec := doFull(home, "GET", "/?theme=purple", "")
	if ck := rec.Result().Cookies(); len(ck) != 1 || ck[0].Value != "auto" || strings.Contains(rec.Body.String(), "data-theme") {
		t.Errorf("?theme=purple: %v", ck)
	}
}
