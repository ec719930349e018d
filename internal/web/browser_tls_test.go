package web

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// testCertificate is a certificate for tapp.test, and the flag that makes
// Chromium trust it as if a CA had signed it.
func testCertificate(t *testing.T) (tls.Certificate, chromedp.ExecAllocatorOption) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tapp.test"}, DNSNames: []string{"tapp.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	spki := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert},
		chromedp.Flag("ignore-certificate-errors-spki-list", base64.StdEncoding.EncodeToString(spki[:]))
}

// Over HTTPS the app is installable (a manifest, a service worker), keeps
// the screen on without a hint, and its table opens with the server gone,
// showing the state last seen. Over plain HTTP the page says how else to
// keep the screen on.
func TestBrowserHTTPS(t *testing.T) {
	h := newServer(t)
	cert, trust := testCertificate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() { srv.Close() })
	base := fmt.Sprintf("https://tapp.test:%d", ln.Addr().(*net.TCPAddr).Port)
	ctx := browser(t, lanNames, trust)
	// Every page counts the screen locks it asks for.
	run(t, ctx, "count wake locks", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `window.wakeLocks = 0;
			if (navigator.wakeLock) { const ask = navigator.wakeLock.request.bind(navigator.wakeLock);
				navigator.wakeLock.request = (type) => { window.wakeLocks++; return ask(type); }; }`})
		return err
	}))

	id := startEvening(t, ctx, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"})
	recordDeal(t, ctx, 1, deal{contract: "solo", taps: []string{tap("declarer", "Ben"), tap("tricks", "5")}, typed: [][2]string{{"#points", "70"}}})
	if !value(t, ctx, "isSecureContext", chromedp.Evaluate[bool](`window.isSecureContext && !!navigator.wakeLock`)) {
		t.Fatal("the HTTPS page is not a secure context with the Wake Lock API")
	}
	if n := value(t, ctx, "wake locks", chromedp.Evaluate[int](`window.wakeLocks`)); n < 1 {
		t.Fatal("an open evening's table does not keep the screen on")
	}
	closed := createGame(t, h, zugerGame)
	mustStatus(t, do(t, h, "POST", "/api/games/"+closed+"/close", `{}`), http.StatusOK)
	run(t, ctx, "a closed evening", chromedp.Navigate(base+"/g/"+closed), chromedp.WaitVisible(chromedp.ID(`live`)))
	if n := value(t, ctx, "wake locks", chromedp.Evaluate[int](`window.wakeLocks`)); n != 0 {
		t.Fatalf("a closed evening's table asked %d times to keep the screen on", n)
	}
	run(t, ctx, "back to the open evening", chromedp.Navigate(base+"/g/"+id), chromedp.WaitVisible(chromedp.ID(`live`)))
	if value(t, ctx, "the hint", chromedp.Evaluate[bool](`!document.getElementById("wake").hidden`)) {
		t.Fatal("over HTTPS the page says it cannot keep the screen on")
	}
	name := value(t, ctx, "the manifest", chromedp.Evaluate[string](`fetch("/manifest.webmanifest").then(r => r.json()).then(m => m.name + " " + m.icons.length + " " + m.display)`, chromedp.EvalAwaitPromise))
	if name != "tappbook 2 standalone" {
		t.Fatalf("manifest: %q", name)
	}
	// The service worker takes the page over; a reload passes through it and
	// leaves the page in its cache.
	run(t, ctx, "the service worker", js(`navigator.serviceWorker.ready`),
		chromedp.Poll[chromedp.Void](`navigator.serviceWorker.controller !== null || (location.reload(), false)`, chromedp.WithPollingInterval(500*time.Millisecond)),
		chromedp.WaitVisible(chromedp.ID(`live`)))
	run(t, ctx, "the page again through the worker", chromedp.Navigate(base+"/g/"+id), chromedp.WaitVisible(chromedp.ID(`live`)))
	before := pageUnits(t, ctx)

	srv.Close() // the server is gone
	run(t, ctx, "the table with the server gone", chromedp.Navigate(base+"/g/"+id), chromedp.WaitVisible(chromedp.ID(`live`)))
	if after := pageUnits(t, ctx); fmt.Sprint(after) != fmt.Sprint(before) || after["Ben"] != "6" {
		t.Fatalf("offline the table shows %v, last seen %v", after, before)
	}
	shot(t, ctx, "offline-table")
}

// Over plain HTTP a game's page says how to keep the screen on instead,
// while the evening is open.
func TestBrowserWakeHintOnHTTP(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	id := createGame(t, h, zugerGame)
	run(t, ctx, "open the table in German", chromedp.Navigate(base+"/g/"+id+"?lang=de"), chromedp.WaitVisible(chromedp.ID(`wake`)),
		chromedp.Click(chromedp.CSS(`#wake summary`))) // one line, opened for the why
	hint := value(t, ctx, "read the hint", chromedp.Text(chromedp.ID(`wake`)))
	if !strings.Contains(hint, "HTTPS") || !strings.Contains(hint, "Bildschirm") {
		t.Fatalf("the hint says %q", hint)
	}
	// #36.6: said once is enough: hidden, it stays hidden on this phone,
	// on this evening's pages and the next's.
	run(t, ctx, "hide the hint", chromedp.Click(chromedp.CSS(`#wake [data-wake-hide]`)), chromedp.WaitNotVisible(chromedp.ID(`wake`)))
	other := createGame(t, h, zugerGame)
	run(t, ctx, "open another evening", chromedp.Navigate(base+"/g/"+other+"?lang=de"), chromedp.WaitVisible(chromedp.ID(`live`)), chromedp.Sleep(200*time.Millisecond))
	if value(t, ctx, "the hint", chromedp.Evaluate[bool](`!document.getElementById("wake").hidden`)) {
		t.Fatal("the hidden hint is back on the next evening")
	}
	// A closed evening records nothing more: its table has no hint.
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK)
	run(t, ctx, "open the closed table", chromedp.Navigate(base+"/g/"+id+"?lang=de"), chromedp.WaitVisible(chromedp.ID(`live`)))
	if value(t, ctx, "the hint", chromedp.Evaluate[bool](`document.getElementById("wake") !== null`)) {
		t.Fatal("a closed evening's table says the screen may turn off")
	}
}
