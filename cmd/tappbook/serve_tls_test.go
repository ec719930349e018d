package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"

	"net/http/httptest"

	"tappbook/cmd/tappbook/internal/clitest"
)

// startServe runs serve with args until the test ends.
func startServe(t *testing.T, args ...string) (*clitest.Buffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &clitest.Buffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"serve"}, args...), logs, logs) }()
	stop := func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v\n%s", err, logs.String())
			}
		case <-time.After(20 * time.Second):
			t.Errorf("serve did not stop")
		}
	}
	var once sync.Once
	t.Cleanup(func() { once.Do(stop) })
	return logs, func() { once.Do(stop) }
}

// httpsClient trusts roots and reaches name at addr.
func httpsClient(roots *x509.CertPool, addr string) *http.Client {
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "tapp.test"},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// getUntil asks url until it answers (the server is starting), for a while.
func getUntil(t *testing.T, c *http.Client, url string, logs *clitest.Buffer) *http.Response {
	t.Helper()
	var err error
	for range 300 {
		var res *http.Response
		if res, err = c.Get(url); err == nil {
			return res
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("GET %s: %v\nlogs:\n%s", url, err, logs.String())
	return nil
}

// selfSigned writes a certificate for tapp.test and 127.0.0.1 and its key.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tapp.test"},
		DNSNames: []string{"tapp.test"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ = x509.ParseCertificate(der)
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile, cert
}

// serve --tls-cert/--tls-key answers HTTPS with that certificate, and a
// plain-HTTP address sends phones to it.
func TestServeTLSFromFiles(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, cert := selfSigned(t, dir)
	tlsAddr, httpAddr := clitest.FreeAddr(t), clitest.FreeAddr(t)
	logs, _ := startServe(t, "--addr", tlsAddr, "--http-addr", httpAddr, "--db", filepath.Join(dir, "t.db"),
		"--tls-cert", certFile, "--tls-key", keyFile, "--mdns", "off")
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	res := getUntil(t, httpsClient(roots, tlsAddr), "https://tapp.test/healthz", logs)
	res.Body.Close()
	if res.StatusCode != 200 || res.TLS == nil {
		t.Fatalf("https healthz: %d", res.StatusCode)
	}
	_, tlsPort, _ := net.SplitHostPort(tlsAddr)
	plain := httpsClient(nil, httpAddr)
	res = getUntil(t, plain, "http://"+httpAddr+"/g/abc?lang=de", logs)
	res.Body.Close()
	if want := "https://127.0.0.1:" + tlsPort + "/g/abc?lang=de"; res.StatusCode != http.StatusTemporaryRedirect || res.Header.Get("Location") != want {
		t.Fatalf("plain HTTP: %d to %q, want a redirect to %s", res.StatusCode, res.Header.Get("Location"), want)
	}
}

// pebble runs Let's Encrypt's test CA in this process: its directory over
// HTTPS, its validation reaching tapp.test through a DNS server of the test
// that answers 127.0.0.1, on the ports given. Nothing leaves the machine.
func pebble(t *testing.T, httpPort, tlsPort int) (directory, caFile string, root *x509.Certificate) {
	t.Helper()
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")
	t.Setenv("PEBBLE_WFE_NONCEREJECT", "0")
	dnsLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	names := &dns.Server{Listener: dnsLn, Net: "tcp", Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		for _, q := range r.Question {
			if q.Qtype == dns.TypeA && strings.EqualFold(q.Name, "tapp.test.") {
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}, A: net.IPv4(127, 0, 0, 1)})
			}
		}
		_ = w.WriteMsg(m)
	})}
	go func() { _ = names.ActivateAndServe() }()
	t.Cleanup(func() { _ = names.Shutdown() })

	logger := log.New(io.Discard, "pebble ", 0)
	if testing.Verbose() {
		logger = log.New(os.Stderr, "pebble ", 0)
	}
	mem := db.NewMemoryStore()
	authority := ca.New(logger, mem, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {Description: "default"}})
	validator := va.New(logger, httpPort, tlsPort, false, dnsLn.Addr().String(), mem)
	front := wfe.New(logger, mem, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	srv := httptest.NewTLSServer(front.Handler())
	t.Cleanup(srv.Close)
	caFile = filepath.Join(t.TempDir(), "pebble-https.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv.URL + wfe.DirectoryPath, caFile, authority.GetRootCert(0).Cert
}

// serve --domain gets a certificate from an ACME CA (Pebble, here), serves
// it, keeps it in the data directory, and sends plain HTTP to HTTPS.
func TestServeDomainByACME(t *testing.T) {
	tlsAddr, httpAddr := clitest.FreeAddr(t), clitest.FreeAddr(t)
	_, tlsPort, _ := net.SplitHostPort(tlsAddr)
	_, httpPort, _ := net.SplitHostPort(httpAddr)
	directory, caFile, root := pebble(t, atoi(t, httpPort), atoi(t, tlsPort))
	dir := t.TempDir()
	args := []string{"--domain", "tapp.test", "--addr", tlsAddr, "--http-addr", httpAddr, "--db", filepath.Join(dir, "t.db"),
		"--acme-directory", directory, "--acme-ca", caFile, "--mdns", "off"}
	logs, stop := startServe(t, args...)
	roots := x509.NewCertPool()
	roots.AddCert(root)
	client := httpsClient(roots, tlsAddr)
	res := getUntil(t, client, "https://tapp.test/healthz", logs)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("healthz over the ACME certificate: %d", res.StatusCode)
	}
	leaf := res.TLS.PeerCertificates[0]
	if leaf.VerifyHostname("tapp.test") != nil || leaf.Issuer.String() == leaf.Subject.String() {
		t.Fatalf("served certificate %s issued by %s", leaf.Subject, leaf.Issuer)
	}
	t.Logf("certificate for %v issued by %s", leaf.DNSNames, leaf.Issuer)
	if _, err := os.Stat(filepath.Join(dir, "tappbook-certs", "tapp.test")); err != nil {
		t.Fatalf("the certificate is not kept next to the database: %v", err)
	}
	redirect, err := http.NewRequest("GET", "http://"+httpAddr+"/g/abc", nil)
	if err != nil {
		t.Fatal(err)
	}
	redirect.Host = "tapp.test"
	res, err = httpsClient(nil, httpAddr).Do(redirect)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if want := "https://tapp.test:" + tlsPort + "/g/abc"; res.StatusCode != http.StatusTemporaryRedirect || res.Header.Get("Location") != want {
		t.Fatalf("plain HTTP: %d to %q, want %s", res.StatusCode, res.Header.Get("Location"), want)
	}
	if !strings.Contains(logs.String(), "url=https://tapp.test:"+tlsPort) {
		t.Fatalf("serve does not log the address phones join at:\n%s", logs.String())
	}

	// A restart serves the kept certificate, with no CA to ask.
	stop()
	directoryGone := "https://127.0.0.1:1/dir"
	args[len(args)-5] = directoryGone
	logs, _ = startServe(t, args...)
	res = getUntil(t, client, "https://tapp.test/healthz", logs)
	res.Body.Close()
	if res.StatusCode != 200 || res.TLS.PeerCertificates[0].SerialNumber.Cmp(leaf.SerialNumber) != 0 {
		t.Fatalf("after a restart: %d, a certificate other than the kept one", res.StatusCode)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
