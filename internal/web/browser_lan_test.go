package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lanNames makes Chromium resolve tapp.test (tappbook) and evil.test
// (another site) to this machine: pages load from a name that is not
// localhost, so over plain HTTP they are an insecure context, as on a phone
// at the table.
var lanNames = chromedp.Flag("host-resolver-rules", "MAP tapp.test 127.0.0.1, MAP evil.test 127.0.0.1")

// post is one write the server answered.
type post struct {
	path, origin, fetchSite string
	status                  int
}

// postLog records the writes a server answers, with the headers that tell
// where they came from.
type postLog struct {
	mu    sync.Mutex
	posts []post
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (l *postLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			h.ServeHTTP(w, r)
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		l.mu.Lock()
		l.posts = append(l.posts, post{r.URL.Path, r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"), sw.status})
		l.mu.Unlock()
	})
}

func (l *postLog) all() []post {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]post(nil), l.posts...)
}

// wait returns the posts once there are at least n (the page posts on its
// own); it gives up after a while so that a test fails rather than hangs.
func (l *postLog) wait(t *testing.T, n int) []post {
	t.Helper()
	for range 200 {
		if ps := l.all(); len(ps) >= n {
			return ps
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the server saw %d posts, waited for %d: %v", len(l.all()), n, l.all())
	return nil
}

// check: at least min posts, every one from origin with Sec-Fetch-Site
// fetchSite, and none refused.
func (l *postLog) check(t *testing.T, origin, fetchSite string, min int) {
	t.Helper()
	ps := l.all()
	if len(ps) < min {
		t.Fatalf("%d posts, want at least %d", len(ps), min)
	}
	for _, p := range ps {
		if p.origin != origin || p.fetchSite != fetchSite || p.status >= 400 {
			t.Fatalf("post %s: Origin %q, Sec-Fetch-Site %q, status %d; want Origin %q, Sec-Fetch-Site %q, accepted",
				p.path, p.origin, p.fetchSite, p.status, origin, fetchSite)
		}
	}
	t.Logf("%d posts, each with Origin %s and Sec-Fetch-Site %q", len(ps), origin, fetchSite)
}

// lanServer serves h on 127.0.0.1 and gives the address a browser with
// lanNames reaches it by.
func lanServer(t *testing.T, h http.Handler) (string, *postLog) {
	t.Helper()
	log := &postLog{}
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(srv.Close)
	return fmt.Sprintf("http://tapp.test:%d", srv.Listener.Addr().(*net.TCPAddr).Port), log
}

// herzAsToTheEnd plays the end of a Württemberg evening through the table's
// forms: Herz-As, the next deal, who was dealt ♥A, the last round, and a
// Zwangsramsch for every player.
func herzAsToTheEnd(t *testing.T, ctx context.Context, next int, ramsch deal) {
	t.Helper()
	suit := deal{contract: "suit", taps: []string{tap("declarer", "Ben"), tap("trump", "clubs")}, typed: [][2]string{{"#points", "70"}}}
	run(t, ctx, "announce Herz-As",
		chromedp.Click(chromedp.CSS(`a[href$="/herz-as"]`)),
		chromedp.Click(chromedp.CSS(`form button.primary`)), // asked again: it ends the evening
		chromedp.WaitVisible(chromedp.CSS(`p.status.herz`)))
	recordDeal(t, ctx, next, suit)
	next++
	run(t, ctx, "say who was dealt the ace of hearts",
		chromedp.WaitVisible(chromedp.CSS(`form[action$="/herz-as/holder"]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/herz-as/holder"] button[value="Cleo"]`)), // one tap
		chromedp.WaitNotPresent(chromedp.CSS(`form.holder[action$="/herz-as/holder"]`)))
	forced := 0
	for range 20 {
		status := value(t, ctx, "read the status", chromedp.Text(chromedp.CSS(`p.status.herz`)))
		switch {
		case strings.HasPrefix(status, "Last regular deal"):
			recordDeal(t, ctx, next, suit)
		case strings.HasPrefix(status, "Zwangsramsch"):
			recordDeal(t, ctx, next, deal{typed: ramsch.typed})
			forced++
		case strings.HasPrefix(status, "Every Zwangsramsch is played"):
			if forced != 4 {
				t.Fatalf("%d Zwangsramsch played, want one per player (4)", forced)
			}
			return
		default:
			t.Fatalf("unexpected status %q", status)
		}
		next++
	}
	t.Fatal("the evening did not reach its end")
}

// One evening stays on 127.0.0.1, a secure context: there the browser sends
// Sec-Fetch-Site, and the forms pass by it.
func TestBrowserEveningOnLoopback(t *testing.T) {
	h := newServer(t)
	log := &postLog{}
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(srv.Close)
	ctx := browser(t)
	id := startEvening(t, ctx, srv.URL, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	evening(t, ctx, srv.URL, id, []deal{
		{contract: "coeurfrage", taps: []string{tap("declarer", "Ben")}, typed: [][2]string{{"#points", "73"}}},
		{contract: "pass"},
		{contract: "solo", taps: []string{tap("declarer", "Cleo"), tap("trump", "clubs")}, typed: [][2]string{{"#points", "45"}}},
	}, deal{typed: [][2]string{{"#points", "50"}}})
	log.check(t, srv.URL, "same-origin", 6)
}

// Another site cannot post into tappbook: not a form on another origin, not
// a sandboxed frame or a data: page, whose Origin is "null".
func TestBrowserRefusesCrossSitePosts(t *testing.T) {
	h := newServer(t)
	base, posts := lanServer(t, h)
	id := createGame(t, h, zugerGame)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/sandbox":
			fmt.Fprint(w, `<!DOCTYPE html><iframe sandbox="allow-forms allow-scripts" src="/form?to=`+r.URL.Query().Get("to")+`"></iframe>`)
		default:
			fmt.Fprint(w, crossSiteForm(base+r.URL.Query().Get("to")))
		}
	}))
	t.Cleanup(evil.Close)
	evilBase := fmt.Sprintf("http://evil.test:%d", evil.Listener.Addr().(*net.TCPAddr).Port)
	ctx := browser(t, lanNames)

	attempts := []struct{ what, url, to, origin string }{
		{"a form on another site", evilBase + "/form", "/new/zuger", evilBase},
		{"a form on another site, into a game", evilBase + "/form", "/g/" + id + "/record", evilBase},
		{"a sandboxed frame", evilBase + "/sandbox", "/g/" + id + "/record", "null"},
		{"a data: page", "data:text/html;charset=utf-8," + strings.ReplaceAll(crossSiteForm(base+"/g/"+id+"/record"), "#", "%23"), "/g/" + id + "/record", "null"},
	}
	for i, a := range attempts {
		u := a.url
		if !strings.HasPrefix(u, "data:") {
			u += "?to=" + a.to
		}
		run(t, ctx, a.what, chromedp.Navigate(u))
		p := posts.wait(t, i+1)[i]
		if p.path != a.to || p.origin != a.origin || p.status != http.StatusForbidden {
			t.Fatalf("%s: the server answered %+v; want %s refused (403) with Origin %q", a.what, p, a.to, a.origin)
		}
		t.Logf("%s: %s with Origin %q refused", a.what, p.path, p.origin)
	}
	// The refusal a person sees is a page that says so.
	run(t, ctx, "the refusal page", chromedp.Navigate(evilBase+"/form?to=/g/"+id+"/record"), chromedp.WaitVisible(chromedp.CSS(`p.error`)))
	if msg := value(t, ctx, "read it", chromedp.Text(chromedp.CSS(`p.error`))); !strings.Contains(msg, "was refused") {
		t.Fatalf("the refusal says %q", msg)
	}
	if l := do(t, h, "GET", "/api/games/"+id+"/ledger", "").json(t); l["hands"] != 0.0 {
		t.Fatalf("a cross-site post recorded a deal: %v", l)
	}
}

// crossSiteForm is another site's page that posts a deal (and a start form's
// names) to action as soon as it loads.
func crossSiteForm(action string) string {
	return `<!DOCTYPE html><form method="post" action="` + action + `">` +
		`<input name="contract" value="pass"><input name="player" value="A"><input name="player" value="B">` +
		`<input name="player" value="C"><input name="player" value="D"></form>` +
		`<script>document.forms[0].submit()</script>`
}
