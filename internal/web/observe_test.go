package web

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// Every request gets one access line with its route's pattern, status,
// bytes and the request id it answers in X-Request-Id; the game's id (its
// capability) is in no line. A trusted proxy's request id is kept, anyone
// else's replaced. /livez and /readyz answer JSON.
func TestAccessLog(t *testing.T) {
	h, logs := reachServer(t, Reach{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, 0)
	id := createGame(t, h, `{"variant":"old-tapp","players":["A","B","C"]}`)
	req := httptest.NewRequest("GET", "/g/"+id+"/share", nil)
	req.Header.Set("X-Request-Id", "from-anyone")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	rid := rec.Header().Get("X-Request-Id")
	if rid == "" || rid == "from-anyone" {
		t.Fatalf("X-Request-Id %q", rid)
	}
	line := `msg=request method=GET route=/g/:id/share status=200 `
	if !strings.Contains(logs.String(), line) || !strings.Contains(logs.String(), "request_id="+rid) {
		t.Fatalf("no access line %q with request_id=%s:\n%s", line, rid, logs)
	}
	if strings.Contains(logs.String(), id) {
		t.Fatalf("the log names the game's id:\n%s", logs)
	}
	req = httptest.NewRequest("GET", "/livez", nil)
	req.RemoteAddr = "127.0.0.1:5000"
	req.Header.Set("X-Request-Id", "proxy-7")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("X-Request-Id") != "proxy-7" || rec.Body.String() != `{"status":"ok"}`+"\n" {
		t.Fatalf("livez through a trusted proxy: %d %q %s", rec.Code, rec.Header().Get("X-Request-Id"), rec.Body)
	}
	if r := do(t, h, "GET", "/readyz", ""); r.status != http.StatusOK || r.body != `{"status":"ok"}`+"\n" {
		t.Fatalf("readyz: %d %s", r.status, r.body)
	}
	if r := do(t, h, "POST", "/readyz", ""); r.status != http.StatusMethodNotAllowed || r.json(t)["error"] == "" {
		t.Fatalf("readyz answers errors as JSON: %d %s", r.status, r.body)
	}
}

// The access line names the client as the server decides it: the phone a
// trusted proxy forwards (the address nearest the proxy that is not
// itself one, so that a phone cannot name another by sending its own
// X-Forwarded-For), else the address that connected, whatever headers it
// sent.
func TestAccessLogNamesTheClient(t *testing.T) {
	proxy := netip.MustParsePrefix("127.0.0.1/32")
	proxied, proxiedLogs := reachServer(t, Reach{TrustedProxies: []netip.Prefix{proxy}}, 0)
	home, homeLogs := reachServer(t, Reach{}, 0)
	cases := []struct {
		name        string
		h           http.Handler
		remote, xff string
		want        string
	}{
		{"through the trusted proxy", proxied, "127.0.0.1:40000", "198.51.100.7", "198.51.100.7"},
		{"a phone's own X-Forwarded-For through the proxy", proxied, "127.0.0.1:40000", "203.0.113.66, 198.51.100.8", "198.51.100.8"},
		{"the trusted proxy's own request", proxied, "127.0.0.1:40000", "", "127.0.0.1"},
		{"another address beside the proxy", proxied, "192.0.2.9:1234", "198.51.100.9", "192.0.2.9"},
		{"no proxy trusted", home, "192.0.2.10:1234", "198.51.100.10", "192.0.2.10"},
	}
	for _, tc := range cases {
		logs := proxiedLogs
		if tc.h == home {
			logs = homeLogs
		}
		logs.Reset()
		req := httptest.NewRequest("GET", "/livez", nil)
		req.RemoteAddr = tc.remote
		if tc.xff != "" {
			req.Header.Set("X-Forwarded-For", tc.xff)
		}
		tc.h.ServeHTTP(httptest.NewRecorder(), req)
		if line := logs.String(); !strings.Contains(line, "route=/livez") || !strings.Contains(line, " client_ip="+tc.want+" ") {
			t.Errorf("%s: want client_ip=%s in the access line:\n%s", tc.name, tc.want, line)
		}
	}
}
