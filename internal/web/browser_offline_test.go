package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// tableServer is tappbook on a file database at a fixed port, to stop and
// start again as a laptop at the table does.
type tableServer struct {
	t    *testing.T
	db   string
	addr string
	wrap func(http.Handler) http.Handler
	srv  *http.Server
	st   *sqlite.Store
}

func newTableServer(t *testing.T, wrap func(http.Handler) http.Handler) *tableServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &tableServer{t: t, db: filepath.Join(t.TempDir(), "table.db"), addr: ln.Addr().String(), wrap: wrap}
	s.serve(ln)
	t.Cleanup(s.stop)
	return s
}

// formKey stays the same across restarts, as serve keeps it in a file.
var formKey = []byte("a form key for the tests, 32 byte")

func (s *tableServer) serve(ln net.Listener) {
	st, err := sqlite.Open(context.Background(), s.db, sqlite.Options{})
	if err != nil {
		s.t.Fatal(err)
	}
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)), Options{FormKey: formKey})
	if err != nil {
		s.t.Fatal(err)
	}
	s.st, s.srv = st, &http.Server{Handler: s.wrap(h)}
	go func() { _ = s.srv.Serve(ln) }()
}

// start serves again on the same port and database.
func (s *tableServer) start() {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatalf("listen again on %s: %v", s.addr, err)
	}
	s.serve(ln)
}

// stop drops every connection at once, as a server that went away.
func (s *tableServer) stop() {
	if s.srv != nil {
		_ = s.srv.Close()
		s.st.Close()
		s.srv, s.st = nil, nil
	}
}

func (s *tableServer) port() string { _, p, _ := net.SplitHostPort(s.addr); return p }

// ledger reads the game's ledger directly from the database file's server.
func (s *tableServer) hands(t *testing.T, id string) float64 {
	t.Helper()
	res, err := http.Get("http://" + s.addr + "/api/games/" + id + "/ledger")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var l struct{ Hands float64 }
	if err := jsonDecode(res.Body, &l); err != nil {
		t.Fatal(err)
	}
	return l.Hands
}

// waitingDeals is what the page keeps to send: the banner's text and the
// posts in localStorage.
func waitingDeals(t *testing.T, ctx context.Context) (string, int) {
	t.Helper()
	banner := value(t, ctx, "read the banner", chromedp.Evaluate[string](`(function(){var q=document.getElementById("queue");return q&&!q.hidden?q.querySelector("strong").textContent:""})()`))
	n := value(t, ctx, "read the queue", chromedp.Evaluate[int](`(JSON.parse(localStorage.getItem("tappbook.waiting"))||[]).length`))
	return banner, n
}

// A deal saved while the server is down waits on the phone, with what was
// typed still on the page, and arrives exactly once when the server is back;
// a deal whose answer is lost on the way is not recorded twice.
func TestBrowserDealWaitsForTheServer(t *testing.T) {
	var loseNext atomic.Bool
	var recordPosts atomic.Int32
	srv := newTableServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/record") {
				recordPosts.Add(1)
				if loseNext.CompareAndSwap(true, false) {
					// The deal is recorded, then the answer is lost.
					h.ServeHTTP(httptest.NewRecorder(), r)
					if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
						conn.Close()
					}
					return
				}
			}
			h.ServeHTTP(w, r)
		})
	})
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	id := startEvening(t, ctx, base, "old-tapp", []string{"Anna", "Ben", "Cleo"})
	recordDeal(t, ctx, 1, deal{contract: "coeurfrage", taps: []string{tap("declarer", "Ben")}, typed: [][2]string{{"#points", "73"}}})

	// Deal 2 is typed in; the server goes away; it is saved.
	run(t, ctx, "type deal 2",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Cleo"))), chromedp.Click(chromedp.CSS(tap("trump", "clubs"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "45"))
	srv.stop()
	run(t, ctx, "save deal 2 with the server down",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID(`queue`)))
	banner, queued := waitingDeals(t, ctx)
	if banner != "1 deal waiting to be sent" || queued != 1 {
		t.Fatalf("with the server down the page says %q and keeps %d posts", banner, queued)
	}
	if pts := value(t, ctx, "read the points", chromedp.Evaluate[string](`document.getElementById("points").value`)); pts != "45" {
		t.Fatalf("the points typed are gone: %q", pts)
	}
	shot(t, ctx, "waiting")

	// The server is back on the same port and database: the deal arrives.
	srv.start()
	run(t, ctx, "deal 2 arrives", chromedp.WaitVisible(chromedp.ID(`hand-2`)))
	if banner, queued := waitingDeals(t, ctx); banner != "" || queued != 0 {
		t.Fatalf("after sending, the page says %q and keeps %d posts", banner, queued)
	}
	if n := srv.hands(t, id); n != 2 {
		t.Fatalf("%v deals after the server came back, want 2 (exactly one more)", n)
	}
	t.Logf("server down: the deal waited, then arrived once: 2 deals")

	// Deal 3 is recorded, but its answer never reaches the phone.
	before := recordPosts.Load()
	loseNext.Store(true)
	recordDeal(t, ctx, 3, deal{contract: "pass"})
	if n := srv.hands(t, id); n != 3 {
		t.Fatalf("%v deals after a lost answer, want 3 (exactly one more)", n)
	}
	if sent := recordPosts.Load() - before; sent < 2 {
		t.Fatalf("deal 3 was posted %d times: the lost answer was not tried again", sent)
	} else {
		t.Logf("answer lost: deal 3 posted %d times, recorded once: 3 deals", sent)
	}
}

// forwarder carries connections from one address to another, so that one
// phone alone can lose the server.
type forwarder struct {
	from, to string
	mu       sync.Mutex
	ln       net.Listener
	conns    []net.Conn
}

func (f *forwarder) up(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", f.from)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.ln = ln
	f.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", f.to)
			if err != nil {
				c.Close()
				continue
			}
			f.mu.Lock()
			f.conns = append(f.conns, c, s)
			f.mu.Unlock()
			go func() { _, _ = io.Copy(s, c); s.Close() }()
			go func() { _, _ = io.Copy(c, s); c.Close() }()
		}
	}()
}

func (f *forwarder) down() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ln != nil {
		f.ln.Close()
		f.ln = nil
	}
	for _, c := range f.conns {
		c.Close()
	}
	f.conns = nil
}

// Two phones record the same deal while one of them has lost the server:
// when it is back, its waiting deal meets the other's, and it is told so in
// words, with what it typed still in the form; nothing is recorded twice.
func TestBrowserTwoPhonesOneDeal(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	fwd := &forwarder{from: "127.0.0.2:" + srv.port(), to: srv.addr}
	fwd.up(t)
	t.Cleanup(fwd.down)
	base := "http://tapp.test:" + srv.port()
	a := browser(t, lanNames)
	b := browser(t, chromedp.Flag("host-resolver-rules", "MAP tapp.test 127.0.0.2"))
	id := startEvening(t, a, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	recordDeal(t, a, 1, deal{contract: "pass"})

	run(t, b, "phone B types deal 2",
		asPhone("light"),
		chromedp.Navigate(base+"/g/"+id+"/record?contract=solo&lang=en"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "70"))
	fwd.down()
	run(t, b, "phone B saves without the server",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`queue`)))
	if banner, n := waitingDeals(t, b); banner != "1 deal waiting to be sent" || n != 1 {
		t.Fatalf("phone B: %q, %d waiting", banner, n)
	}
	recordDeal(t, a, 2, deal{contract: "pass"}) // phone A records deal 2 meanwhile
	fwd.up(t)
	run(t, b, "phone B hears of the other deal", chromedp.WaitVisible(chromedp.CSS(`p.error`)))
	msg := value(t, b, "read the message", chromedp.Text(chromedp.CSS(`p.error`)))
	if !strings.Contains(msg, "This is deal 3, not 2") {
		t.Fatalf("phone B is told %q", msg)
	}
	if pts := value(t, b, "read the points", chromedp.Evaluate[string](`document.getElementById("points").value`)); pts != "70" {
		t.Fatalf("phone B's points are gone: %q", pts)
	}
	// Phone B had scrolled down to Save: the message is brought into view,
	// or one more tap would record the same deal again unread.
	if top := value(t, b, "where the message is", chromedp.Evaluate[float64](`(function(){var r=document.querySelector("p.error").getBoundingClientRect();return r.top<0||r.bottom>innerHeight?-1:r.top})()`)); top < 0 {
		shot(t, b, "conflict-message-out-of-view")
		t.Fatal("phone B's message about the other deal is outside the screen")
	}
	if _, n := waitingDeals(t, b); n != 0 {
		t.Fatalf("phone B still keeps %d posts", n)
	}
	// The form it was shown is deal 3's, with deal 2's values to be
	// checked: they are no draft of deal 3, which a later Record would
	// fill in unasked.
	if kept := value(t, b, "read the drafts", chromedp.Evaluate[[]string](`Object.keys(sessionStorage).filter(function(k){return k.indexOf("tappbook.draft:")===0})`)); len(kept) != 0 {
		t.Fatalf("phone B keeps drafts %v after the other phone's deal", kept)
	}
	if n := srv.hands(t, id); n != 2 {
		t.Fatalf("%v deals, want 2: phone A's deal 2, phone B's not recorded over it", n)
	}
	t.Logf("phone B was told: %s", msg)
	// Phone B sends its deal as deal 3, from the form it was shown.
	run(t, b, "phone B records deal 3",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-3`)))
	if n := srv.hands(t, id); n != 3 {
		t.Fatalf("%v deals, want 3", n)
	}
}

// One phone, two evenings in two tabs of one browser (one localStorage,
// one queue), a deal waiting in each while the phone has lost the server;
// another phone records the first evening's deal meanwhile. When the
// server is back, whichever tab sends a post, each tab says what became of
// its own deal: the second, still on its own evening, that its deal was
// saved; the first, on its evening, the other phone's deal, no longer
// "Saving…". Each tab's banner counted only its own evening's deals.
// Either tab may send first: the other evening's deal then is its own, or
// the other tab's. With tab 1 gone elsewhere, its refusal is shown when
// its evening is next opened.
func TestBrowserQueueTwoEveningsInTwoTabs(t *testing.T) {
	for _, first := range []int{2, 1, 0} {
		name := fmt.Sprintf("tab %d sends first", first)
		if first == 0 {
			name = "tab 1 gone"
		}
		t.Run(name, func(t *testing.T) { queueTwoEveningsInTwoTabs(t, first) })
	}
}

// queueTwoEveningsInTwoTabs plays it with tab first told first that the
// network is back; 0: tab 2, with tab 1 on another site meanwhile.
func queueTwoEveningsInTwoTabs(t *testing.T, first int) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	fwd := &forwarder{from: "127.0.0.2:" + srv.port(), to: srv.addr}
	fwd.up(t)
	t.Cleanup(fwd.down)
	base := "http://tapp.test:" + srv.port()
	tab1 := browser(t, chromedp.Flag("host-resolver-rules", "MAP tapp.test 127.0.0.2"))
	// The second tab: same browser context (its storage), a window of its
	// own, so that it runs as a tab in front does.
	tab2, cancel := chromedp.NewContext(tab1)
	t.Cleanup(cancel)
	if err := chromedp.Do(tab2); err != nil {
		t.Fatalf("the second tab: %v", err)
	}
	run(t, tab1, "a phone", asPhone("light"))
	run(t, tab2, "its second tab", asPhone("light"))
	zuger := startEvening(t, tab1, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	recordDeal(t, tab1, 1, deal{contract: "pass"})
	tapp := startEvening(t, tab2, base, "old-tapp", []string{"Eva", "Finn", "Gus"})
	run(t, tab1, "tab 1 opens Zuger's deal 2", chromedp.Navigate(base+"/g/"+zuger+"/record?contract=pass&lang=en"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	run(t, tab2, "tab 2 opens old tapp's deal 1", chromedp.Navigate(base+"/g/"+tapp+"/record?contract=pass&lang=en"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))

	fwd.down()
	run(t, tab1, "tab 1 saves without the server",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`queue`)))
	run(t, tab2, "tab 2 saves without the server",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`queue`)),
		chromedp.Sleep(1500*time.Millisecond)) // tab 1 hears of it, or tries again
	for i, tab := range []context.Context{tab1, tab2} {
		if banner, n := waitingDeals(t, tab); banner != "1 deal waiting to be sent" || n != 2 {
			t.Errorf("tab %d says %q with %d posts kept; want its own evening's 1 deal of 2", i+1, banner, n)
		}
	}
	// Another phone records Zuger's deal 2 meanwhile.
	res, err := http.Post("http://"+srv.addr+"/api/games/"+zuger+"/hands", "application/json", strings.NewReader(`{"contract":"pass"}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("the other phone's deal 2: %v %v", res, err)
	}
	res.Body.Close()
	if first == 0 {
		run(t, tab1, "tab 1 leaves", chromedp.Navigate("about:blank"))
	}
	fwd.up(t)
	// The network is back: the tab told first sends the oldest post, tab
	// 1's Zuger deal, at once (the other tab tries again within seconds).
	run(t, []context.Context{tab2, tab1, tab2}[first], "online", js(`window.dispatchEvent(new Event("online"))`))

	// Tab 2 stays on its evening, and says its deal was saved.
	step, cancelStep := context.WithTimeout(tab2, 25*time.Second)
	_, err = chromedp.Run(step, loaded(`location.pathname === '/g/`+tapp+`' && document.getElementById("main").innerText.includes("Deal 1 saved.")`))
	cancelStep()
	if err != nil {
		shot(t, tab2, "tab-2-after")
		t.Fatalf("tab 2 does not say its deal was saved: at %s: %v\n%s", value(t, tab2, "where", chromedp.Location()), err,
			value(t, tab2, "read tab 2", chromedp.Evaluate[string](`document.getElementById("main").innerText`)))
	}
	if h := value(t, tab2, "tab 2's heading", chromedp.Text(chromedp.CSS(`#main h1`))); h != "Tapp with a pot (19th century)" {
		t.Errorf("tab 2's heading: %q", h)
	}
	if first == 0 {
		run(t, tab1, "tab 1 opens Zuger's table again", chromedp.Navigate(base+"/g/"+zuger+"?lang=en"))
	}
	// Tab 1 is told of the other phone's deal, on its own evening.
	step, cancelStep = context.WithTimeout(tab1, 25*time.Second)
	_, err = chromedp.Run(step, loaded(`location.pathname.indexOf('/g/`+zuger+`/') === 0 && document.querySelector("p.error") !== null`))
	cancelStep()
	if err != nil {
		shot(t, tab1, "tab-1-after")
		t.Fatalf("tab 1 is not told of the other phone's deal: at %s: %v\n%s", value(t, tab1, "where", chromedp.Location()), err,
			value(t, tab1, "read tab 1", chromedp.Evaluate[string](`document.getElementById("main").innerText`)))
	}
	if msg := value(t, tab1, "read tab 1's message", chromedp.Text(chromedp.CSS(`p.error`))); !strings.Contains(msg, "This is deal 3, not 2") {
		t.Errorf("tab 1 is told %q", msg)
	}
	if busy := value(t, tab1, "tab 1 busy", chromedp.Evaluate[bool](`document.querySelector("[aria-busy=true]") !== null`)); busy {
		shot(t, tab1, "tab-1-busy")
		t.Error("tab 1 still says it is saving")
	}
	for i, tab := range []context.Context{tab1, tab2} {
		if _, n := waitingDeals(t, tab); n != 0 {
			t.Errorf("tab %d: %d posts still kept", i+1, n)
		}
	}
	if n := srv.hands(t, zuger); n != 2 {
		t.Errorf("Zuger: %v deals, want 2 (the other phone's deal 2 only)", n)
	}
	if n := srv.hands(t, tapp); n != 1 {
		t.Errorf("old tapp: %v deals, want 1", n)
	}
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

// A deal saved while the server was away, on a phone that then opened the
// table afresh once it was back: the table sends it and shows it as saved,
// not the standings from before it (which would have it entered again).
func TestBrowserWaitingDealShownOnTheTable(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	recordDeal(t, ctx, 1, deal{contract: "pass"})
	run(t, ctx, "open deal 2's form",
		chromedp.Click(chromedp.CSS(`a.button.primary`)), chromedp.WaitVisible(chromedp.CSS(`nav.contracts`)),
		chromedp.Click(chromedp.CSS(`a.pick[href="?contract=solo"]`)), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("declarer", "Ben"))), chromedp.Click(chromedp.CSS(tap("tricks", "5"))),
		chromedp.SendKeys(chromedp.CSS(`#points`), "70"))
	srv.stop()
	run(t, ctx, "save deal 2 with the server down",
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`queue`)))
	srv.start()
	// The phone comes back by opening the table, not by staying on the form.
	run(t, ctx, "open the table", chromedp.Navigate(base+"/g/"+id+"?lang=en"))
	run(t, ctx, "deal 2 is on the table", chromedp.WaitVisible(chromedp.ID(`hand-2`)))
	if n := srv.hands(t, id); n != 2 {
		t.Fatalf("%v deals after the waiting one was sent, want 2", n)
	}
	// The live stream may show deal 2 a moment before the queue's answer
	// brings the table that says it was saved: wait for that one.
	run(t, ctx, "the table that says it was saved", chromedp.Poll[chromedp.Void](`document.getElementById("main").innerText.includes("Deal 2 saved.")`, chromedp.WithPollingTimeout(5*time.Second)))
	said := value(t, ctx, "read the page", chromedp.Evaluate[string](`document.getElementById("main").innerText`))
	if !strings.Contains(said, "Deal 2 saved.") || !strings.Contains(said, "Record deal 3") {
		shot(t, ctx, "table-after-waiting-deal")
		t.Fatalf("the table after the waiting deal was sent does not say it was saved and offer deal 3:\n%s", said)
	}
}

// dealFormBehind opens deal 1's form of a new Zuger evening on a phone, in
// lang, from a table server whose every post of a deal form first meets
// hook (which answers it itself by returning true).
func dealFormBehind(t *testing.T, lang string, hook func(http.ResponseWriter) bool) (*tableServer, context.Context, string) {
	t.Helper()
	srv := newTableServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/record") && hook(w) {
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	run(t, ctx, "open deal 1's form",
		chromedp.Navigate(base+"/g/"+id+"/record?contract=pass&lang="+lang), chromedp.WaitVisible(chromedp.CSS(`form.deal`)))
	return srv, ctx, id
}

// On a slow network the Save button says at once that the deal is being
// sent, in the page's language, and a second tap meanwhile records nothing
// more.
func TestBrowserSaveSaysItIsSending(t *testing.T) {
	var slow atomic.Bool
	srv, ctx, id := dealFormBehind(t, "de", func(http.ResponseWriter) bool {
		if slow.Load() {
			time.Sleep(1500 * time.Millisecond) // a phone on a weak signal
		}
		return false
	})
	slow.Store(true)
	run(t, ctx, "tap Save twice", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)))
	label := value(t, ctx, "read the button", chromedp.Evaluate[string](`document.querySelector("form.deal button[type=submit]").textContent.trim()`))
	if label != "Wird gespeichert …" {
		shot(t, ctx, "slow-save")
		t.Fatalf("while the deal is on its way the button says %q, want %q", label, "Wird gespeichert …")
	}
	// Nothing has failed: no banner says the server is out of reach while
	// a slow network carries the deal.
	if banner, _ := waitingDeals(t, ctx); banner != "" {
		shot(t, ctx, "slow-save-banner")
		t.Fatalf("while the deal is on its way the page says it waits: %q", banner)
	}
	run(t, ctx, "the deal arrives", chromedp.WaitVisible(chromedp.ID(`hand-1`)))
	if n := srv.hands(t, id); n != 1 {
		t.Fatalf("%v deals after two taps on a slow network, want 1", n)
	}
}

// The server answers but cannot save (its database out of reach: a 503):
// the deal waits on the phone, and the banner says the server answered and
// could not save, not that it cannot be reached; it arrives once when the
// server can save again.
func TestBrowserDealWaitsForTheServerToSave(t *testing.T) {
	var failing atomic.Bool
	srv, ctx, id := dealFormBehind(t, "de", func(w http.ResponseWriter) bool {
		if failing.Load() {
			http.Error(w, "database out of reach", http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	failing.Store(true)
	run(t, ctx, "save", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("queue")))
	why := value(t, ctx, "read why", chromedp.Evaluate[string](`document.querySelector("#queue .why").textContent`))
	if !strings.Contains(why, "konnte aber nicht speichern") || strings.Contains(why, "nicht erreichbar. Was") {
		shot(t, ctx, "server-error-banner")
		t.Fatalf("the banner while the server cannot save: %q", why)
	}
	failing.Store(false)
	run(t, ctx, "the deal arrives", chromedp.WaitVisible(chromedp.ID(`hand-1`)))
	if n := srv.hands(t, id); n != 1 {
		t.Fatalf("%v deals, want 1", n)
	}
}

// A table whose live stream stays broken (the laptop went away) says the
// standings may be out of date, and stops saying so when the server is
// back, with what was recorded meanwhile shown.
func TestBrowserTableSaysWhenItIsNotLive(t *testing.T) {
	srv := newTableServer(t, func(h http.Handler) http.Handler { return h })
	base := "http://tapp.test:" + srv.port()
	ctx := browser(t, lanNames)
	run(t, ctx, "a phone", asPhone("light"))
	id := startEvening(t, ctx, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	run(t, ctx, "the table in Swedish", chromedp.Navigate(base+"/g/"+id+"?lang=sv"), chromedp.WaitVisible(chromedp.ID("live")))
	if hidden := value(t, ctx, "the hint while live", chromedp.Evaluate[bool](`document.getElementById("stale").hidden`)); !hidden {
		t.Fatal("a live table says it is not live")
	}
	srv.stop()
	run(t, ctx, "the hint shows", chromedp.WaitVisible(chromedp.ID("stale")))
	text := value(t, ctx, "read the hint", chromedp.Evaluate[string](`document.getElementById("stale").textContent`))
	if !strings.Contains(text, "Uppdateras inte") {
		t.Fatalf("the hint: %q", text)
	}
	srv.start()
	res, err := http.Post("http://"+srv.addr+"/api/games/"+id+"/hands", "application/json", strings.NewReader(`{"contract":"pass"}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("record while the phone reconnects: %v %v", res, err)
	}
	res.Body.Close()
	run(t, ctx, "back live, with the deal", chromedp.WaitNotVisible(chromedp.ID("stale")), chromedp.WaitVisible(chromedp.ID("hand-1")))
}

// A server gone from the network can leave a request unanswered for
// minutes: the deal on its way is not said to wait at first, but once it
// has gone unanswered for a few seconds the banner says it waits on the
// phone; it arrives once the server answers.
func TestBrowserUnansweredDealIsSaidToWait(t *testing.T) {
	release := make(chan struct{})
	var hold atomic.Bool
	srv, ctx, id := dealFormBehind(t, "en", func(http.ResponseWriter) bool {
		if hold.Load() {
			<-release
		}
		return false
	})
	hold.Store(true)
	run(t, ctx, "save", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)))
	if banner, _ := waitingDeals(t, ctx); banner != "" {
		close(release)
		t.Fatalf("at once, the page says the deal waits: %q", banner)
	}
	var banner string
	for range 100 {
		if banner, _ = waitingDeals(t, ctx); banner != "" {
			break
		}
		run(t, ctx, "wait", chromedp.Sleep(100*time.Millisecond))
	}
	if banner == "" {
		hold.Store(false)
		close(release)
		shot(t, ctx, "unanswered")
		t.Fatal("after 10 s unanswered the page does not say the deal waits")
	}
	// Where the phone is scrolled to (the Save button at the foot of a
	// long form), the banner is on the screen.
	run(t, ctx, "scroll to the foot", js(`var d = document.createElement("div"); d.style.height = "3000px"; document.body.appendChild(d); window.scrollTo(0, document.body.scrollHeight)`))
	top := value(t, ctx, "the banner's top", chromedp.Evaluate[float64](`document.getElementById("queue").getBoundingClientRect().top`))
	hold.Store(false)
	close(release)
	if top < 0 {
		shot(t, ctx, "banner-off-screen")
		t.Fatalf("scrolled down, the banner is %v px above the screen", top)
	}
	run(t, ctx, "the deal arrives", chromedp.WaitVisible(chromedp.ID(`hand-1`)))
	if n := srv.hands(t, id); n != 1 {
		t.Fatalf("%v deals, want 1", n)
	}
}

// A deal the server failed on for good (500: a fault, not an outage) is
// not sent again and again: its answer is shown, with the message, and
// the queue is left empty; an outage (503), too many connections (429)
// and a full disk (507, said so) are sent again.
func TestBrowserServerFaultIsShownNotRetried(t *testing.T) {
	var posts atomic.Int32
	var status atomic.Int32
	status.Store(http.StatusInternalServerError)
	srv, ctx, id := dealFormBehind(t, "en", func(w http.ResponseWriter) bool {
		posts.Add(1)
		if s := int(status.Swap(0)); s != 0 {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(s)
			fmt.Fprint(w, `<!doctype html><title>x</title><main id="main"><p class="error" role="alert">Something went wrong on the server; nothing was changed. Try again.</p></main>`)
			return true
		}
		return false
	})
	run(t, ctx, "save", chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)),
		loaded(`document.querySelector('.error[role=alert]') !== null`), chromedp.Sleep(2500*time.Millisecond))
	if banner, n := waitingDeals(t, ctx); banner != "" || n != 0 || posts.Load() != 1 {
		t.Fatalf("after a 500: banner %q, %d waiting, %d posts; want none waiting and one post", banner, n, posts.Load())
	}
	if srv.hands(t, id) != 0 {
		t.Fatal("a deal was recorded")
	}
	// An outage (503), too many connections from this phone at once (429,
	// a JSON answer) and a full disk (507): the deal waits and is sent
	// again, once the server can: two posts, one deal.
	for i, c := range []struct {
		status int
		why    string // how the banner begins, where it is read
	}{{http.StatusServiceUnavailable, ""}, {http.StatusTooManyRequests, ""}, {http.StatusInsufficientStorage, "The server answered but its disk is full."}} {
		status.Store(int32(c.status))
		before := posts.Load()
		run(t, ctx, fmt.Sprintf("save deal %d, answered %d first", i+1, c.status),
			chromedp.Navigate("http://tapp.test:"+srv.port()+"/g/"+id+"/record?contract=pass&lang=en"), chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
			chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)))
		if c.why != "" {
			// Said so, not that the database may be out of reach.
			run(t, ctx, "the banner", chromedp.WaitVisible(chromedp.ID("queue")))
			if why := value(t, ctx, "read why", chromedp.Evaluate[string](`document.querySelector("#queue .why").textContent`)); !strings.HasPrefix(why, c.why) {
				t.Fatalf("the banner after a %d: %q", c.status, why)
			}
		}
		run(t, ctx, "the deal arrives", loaded(`location.pathname === '/g/`+id+`'`))
		if n, sent := srv.hands(t, id), posts.Load()-before; n != float64(i+1) || sent != 2 {
			t.Fatalf("after a %d: %v deals recorded after %d posts; want %d after 2", c.status, n, sent, i+1)
		}
	}
}
