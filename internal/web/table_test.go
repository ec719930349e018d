package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"tappbook/static"
)

// Player names with markup are shown as text everywhere, and CSV cells
// cannot be run as formulas.
func TestNamesAreEscaped(t *testing.T) {
	h := newServer(t)
	evil := `<script>alert(1)</script>`
	id := startForm(t, h, "old-tapp", players(evil, "=HYPERLINK(1)", "Cleo"))
	form(t, h, "/g/"+id+"/record", url.Values{"contract": {"coeurfrage"}, "declarer": {evil}, "points": {"73"}})
	for _, p := range []string{"/g/" + id, "/g/" + id + "/record?contract=solo", "/g/" + id + "/hands/1", "/g/" + id + "/close", "/g/" + id + "/audit"} {
		body := page(t, h, p, "en").body
		if strings.Contains(body, evil) {
			t.Fatalf("%s shows the name unescaped", p)
		}
		if !strings.Contains(body, "&lt;script&gt;") {
			t.Fatalf("%s does not show the name at all", p)
		}
	}
	csv := page(t, h, "/g/"+id+"/deals.csv", "en").body
	if !strings.Contains(csv, "'=HYPERLINK(1)") || strings.Contains(csv, ",=HYPERLINK") {
		t.Fatalf("CSV does not neutralise a formula: %s", csv)
	}
	if !strings.Contains(csv, "hand,dealer,contract") || !strings.Contains(csv, "coeurfrage") {
		t.Fatalf("CSV: %s", csv)
	}
}

// A form POST from another site is refused; from the same site, also over
// plain HTTP on a LAN address, it works.
func TestCrossSiteForms(t *testing.T) {
	h := newServer(t)
	v := players("Anna", "Ben", "Cleo")
	post := func(headers ...string) int {
		req := httptest.NewRequest("POST", "http://192.168.1.20:8080/new/old-tapp", strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	if s := post("Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example"); s != http.StatusForbidden {
		t.Fatalf("cross-site POST: %d", s)
	}
	if s := post("Origin", "http://evil.example"); s != http.StatusForbidden {
		t.Fatalf("POST from another origin (no Sec-Fetch-Site): %d", s)
	}
	if s := post("Sec-Fetch-Site", "same-origin", "Origin", "http://192.168.1.20:8080"); s != http.StatusSeeOther {
		t.Fatalf("same-origin POST on a LAN address: %d", s)
	}
	if s := post("Origin", "http://192.168.1.20:8080"); s != http.StatusSeeOther {
		t.Fatalf("same-origin POST, older browser: %d", s)
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := newServer(t)
	req := httptest.NewRequest("GET", "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("CSP %q", csp)
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" || rec.Header().Get("Referrer-Policy") == "" {
		t.Fatalf("headers %v", rec.Header())
	}
	if strings.Contains(rec.Body.String(), "<script>") || strings.Contains(rec.Body.String(), " style=") {
		t.Fatal("a page has inline script or style, which the CSP blocks")
	}
}

// The record page with its CSS and JavaScript weighs at most 30 KB gzipped.
func TestRecordPageWeight(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo", "Dan"))
	gz := func(b []byte) int {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		w.Write(b)
		w.Close()
		return buf.Len()
	}
	total := 0
	for _, c := range []string{"ramsch", "durch", "suit"} {
		body := page(t, h, "/g/"+id+"/record?contract="+c, "de").body
		total = max(total, gz([]byte(body)))
	}
	for _, f := range []string{"app.css", "app.js"} {
		b, err := static.FS.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += gz(b)
	}
	t.Logf("record page, CSS and JS: %d bytes gzipped", total)
	if total > 30*1024 {
		t.Fatalf("the record page weighs %d bytes gzipped, over 30 KB", total)
	}
	if total < 2000 {
		t.Fatalf("%d bytes: the page or its assets did not load", total)
	}
}

// The live stream sends the game's version on connecting and after every
// change, and a ping with its period (25 s by default) on connecting and
// every period.
func TestLiveStream(t *testing.T) {
	h := newServer(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	res, err := http.Get(srv.URL + "/g/" + id + "/live")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := make(chan string, 20)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// next gives the next version the stream sends; pings (named events,
	// with their period) are counted on the way.
	pings := 0
	next := func() string {
		event := ""
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatal("stream ended")
				}
				switch {
				case strings.HasPrefix(l, "event: "):
					event = strings.TrimPrefix(l, "event: ")
				case strings.HasPrefix(l, "data: ") && event == "ping":
					if l != "data: 25000" {
						t.Fatalf("a ping says %q, want its period in ms", l)
					}
					pings++
				case strings.HasPrefix(l, "data: ") && event == "":
					return strings.TrimPrefix(l, "data: ")
				case l == "":
					event = ""
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no event within 5 s")
			}
		}
	}
	if v := next(); v != "1" {
		t.Fatalf("first event %q, want the current version 1", v)
	}
	form(t, h, "/g/"+id+"/record", url.Values{"contract": {"pass"}})
	if v := next(); v != "2" {
		t.Fatalf("after a deal: %q, want 2", v)
	}
	// A page learns how often to expect a ping as soon as it connects.
	if pings != 1 {
		t.Fatalf("%d pings before the deal, want the one sent on connecting", pings)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 0))
}

// The end of a Württemberg evening, guided: Herz-As, who was dealt ♥A, the
// last round, then one Zwangsramsch per player with only Ramsch offered.
func TestHerzAsEndOfEvening(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "wuerttemberg", players("Anna", "Ben", "Cleo"))
	suit := url.Values{"contract": {"suit"}, "declarer": {"Anna"}, "trump": {"clubs"}, "points": {"70"}}
	ramsch := url.Values{"contract": {"ramsch"}, "ramsch_points_0": {"50"}, "ramsch_tricks_0": {"5"}, "ramsch_points_1": {"40"}, "ramsch_tricks_1": {"4"}, "ramsch_points_2": {"30"}, "ramsch_tricks_2": {"2"}}
	status := func() string {
		m := regexp.MustCompile(`<p class="status herz">([^<]*)<`).FindStringSubmatch(page(t, h, "/g/"+id, "en").body)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	for range 2 {
		form(t, h, "/g/"+id+"/record", suit)
	}
	if !strings.Contains(page(t, h, "/g/"+id, "en").body, "Announce Herz-As") {
		t.Fatal("no Herz-As button")
	}
	if r := form(t, h, "/g/"+id+"/herz-as", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("Herz-As: %d", r.status)
	}
	if s := status(); !strings.Contains(s, "Herz-As! Whoever is dealt ♥A in the next deal deals the last regular deal, the next time they deal.") {
		t.Fatalf("after Herz-As: %q", s)
	}
	form(t, h, "/g/"+id+"/record", suit) // deal 3: Ben was dealt ♥A
	if !strings.Contains(page(t, h, "/g/"+id, "en").body, "Who was dealt ♥A in deal 3?") {
		t.Fatal("not asked who was dealt ♥A")
	}
	if r := form(t, h, "/g/"+id+"/herz-as/holder", url.Values{"player": {"Ben"}}); r.status != http.StatusSeeOther {
		t.Fatalf("holder: %d %s", r.status, r.body)
	}
	// Ben deals deals 2, 5, 8 …: deal 5 is the last regular one.
	if s := status(); s != "Last regular deal: deal 5, dealt by Ben." {
		t.Fatalf("last round: %q", s)
	}
	form(t, h, "/g/"+id+"/record", suit)
	form(t, h, "/g/"+id+"/record", suit)
	for k := 1; k <= 3; k++ {
		if s := status(); s != fmt.Sprintf("Zwangsramsch %d of 3", k) {
			t.Fatalf("Zwangsramsch %d: %q", k, s)
		}
		rec := page(t, h, "/g/"+id+"/record", "en").body
		if strings.Contains(rec, `href="?contract=suit"`) || !strings.Contains(rec, `name="ramsch_points_0"`) {
			t.Fatalf("Zwangsramsch %d: the form offers more than Ramsch", k)
		}
		if r := form(t, h, "/g/"+id+"/record", ramsch); r.status != http.StatusSeeOther {
			t.Fatalf("Zwangsramsch %d: %d", k, r.status)
		}
	}
	if s := status(); s != "Every Zwangsramsch is played: end the evening." {
		t.Fatalf("after the last Zwangsramsch: %q", s)
	}
	// The deals' list says which was the last regular deal and which the
	// Zwangsramsch were, in the page's language.
	for lang, want := range map[string][]string{
		"en": {"Deal 5 · Ben dealt · the last regular deal", "Deal 6 · Cleo dealt · Zwangsramsch 1 of 3", "Deal 8 · Ben dealt · Zwangsramsch 3 of 3"},
		"de": {"Zwangsramsch 2 von 3", "das letzte reguläre Spiel"},
	} {
		text := strings.Join(strings.Fields(html.UnescapeString(visibleText(page(t, h, "/g/"+id+"?all=1", lang).body))), " ")
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Fatalf("%s: the deals' list does not say %q: %s", lang, w, text)
			}
		}
	}
	if r := form(t, h, "/g/"+id+"/herz-as", url.Values{}); r.status != http.StatusConflict {
		t.Fatalf("Herz-As twice: %d", r.status)
	}
}

// The read-only link reads everything, shows no form and never the game's
// writing id, and every writing endpoint refuses it.
func TestReadOnlyLink(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "old-tapp", players("Anna", "Ben", "Cleo"))
	form(t, h, "/g/"+id+"/record", url.Values{"contract": {"coeurfrage"}, "declarer": {"Ben"}, "points": {"73"}})
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	if len(ro) < 26 || ro == id {
		t.Fatalf("read id %q", ro)
	}
	for _, p := range []string{"/r/" + ro, "/r/" + ro + "/audit", "/r/" + ro + "/events.json", "/r/" + ro + "/deals.csv", "/api/r/" + ro, "/api/r/" + ro + "/ledger", "/api/r/" + ro + "/hands", "/api/r/" + ro + "/events", "/api/r/" + ro + "/settlement"} {
		r := page(t, h, p, "en")
		if r.status != 200 {
			t.Fatalf("%s: %d", p, r.status)
		}
		if strings.Contains(r.body, id) {
			t.Fatalf("%s shows the game's writing id", p)
		}
	}
	table := page(t, h, "/r/"+ro, "en").body
	if strings.Contains(table, "<form") || strings.Contains(table, "Record deal") || strings.Contains(table, "Correct or void") || !strings.Contains(table, "read-only link") {
		t.Fatal("the read-only table offers to write")
	}
	if l := do(t, h, "GET", "/api/r/"+ro+"/ledger", "").json(t); l["balances"].(map[string]any)["Ben"] != "8" {
		t.Fatalf("read-only ledger: %v", l)
	}
	before := do(t, h, "GET", "/api/games/"+id+"/events", "").body
	writes := []struct{ method, path, body string }{
		{"POST", "/api/games/" + ro + "/hands", `{"contract":"pass"}`},
		{"PUT", "/api/games/" + ro + "/hands/1", `{"contract":"pass"}`},
		{"POST", "/api/games/" + ro + "/hands/1/void", `{"reason":"x"}`},
		{"POST", "/api/games/" + ro + "/close", `{}`},
		{"POST", "/api/games/" + ro + "/deal/announce", `{"contract":"pass"}`},
		{"POST", "/api/r/" + ro + "/hands", `{"contract":"pass"}`},
		{"PUT", "/api/r/" + ro + "/hands/1", `{"contract":"pass"}`},
		{"POST", "/api/r/" + ro + "/hands/1/void", `{"reason":"x"}`},
		{"POST", "/api/r/" + ro + "/close", `{}`},
		{"POST", "/g/" + ro + "/record", "contract=pass"},
		{"POST", "/g/" + ro + "/hands/1", "contract=pass"},
		{"POST", "/g/" + ro + "/hands/1/void", "reason=x"},
		{"POST", "/g/" + ro + "/close", ""},
		{"POST", "/g/" + ro + "/herz-as", ""},
		{"POST", "/r/" + ro + "/record", "contract=pass"},
		{"POST", "/r/" + ro + "/hands/1", "contract=pass"},
		{"POST", "/r/" + ro + "/hands/1/void", "reason=x"},
		{"POST", "/r/" + ro + "/close", ""},
		{"GET", "/r/" + ro + "/record", ""},
		{"GET", "/r/" + ro + "/share", ""},
	}
	for _, w := range writes {
		ct := "application/json"
		if strings.HasPrefix(w.path, "/g/") || strings.HasPrefix(w.path, "/r/") {
			ct = "application/x-www-form-urlencoded"
		}
		r := do(t, h, w.method, w.path, w.body, "Content-Type", ct)
		if r.status != 404 && r.status != 405 {
			t.Fatalf("%s %s with the read-only id: %d %s", w.method, w.path, r.status, r.body)
		}
	}
	if after := do(t, h, "GET", "/api/games/"+id+"/events", "").body; after != before {
		t.Fatal("a request with the read-only id changed the game")
	}
	if r := page(t, h, "/r/nosuchlink", "en"); r.status != 404 {
		t.Fatalf("unknown read-only link: %d", r.status)
	}
}
