package netserve

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// FileTLS is a TLS configuration with the certificate and key of two PEM
// files (a certificate the user has, e.g. from their own CA or mkcert).
func FileTLS(certFile, keyFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate %s with key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}}, nil
}

// ACME gets certificates automatically from an ACME certificate authority
// (Let's Encrypt by default) for the domains, and renews them.
type ACME struct {
	Domains   []string
	CacheDir  string // where certificates and the account key are kept
	Directory string // the CA's directory URL; Let's Encrypt when empty
	Email     string // for the CA's notices; optional
	CAFile    string // PEM roots to trust for the CA's own address (a private CA); the system's when empty
}

// Manager is the autocert manager for the settings.
func (a ACME) Manager() (*autocert.Manager, error) {
	if len(a.Domains) == 0 {
		return nil, fmt.Errorf("ACME: no domain")
	}
	for _, d := range a.Domains {
		if !strings.Contains(strings.Trim(d, "."), ".") {
			return nil, fmt.Errorf("ACME: %q is not a domain name a certificate authority can check (such as tapp.example.org)", d)
		}
	}
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		HostPolicy: autocert.HostWhitelist(a.Domains...),
		Cache:      autocert.DirCache(a.CacheDir),
		Email:      a.Email,
	}
	if a.Directory != "" || a.CAFile != "" {
		client := &acme.Client{DirectoryURL: a.Directory}
		if a.CAFile != "" {
			pem, err := os.ReadFile(a.CAFile)
			if err != nil {
				return nil, fmt.Errorf("ACME CA roots: %w", err)
			}
			roots := x509.NewCertPool()
			if !roots.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("ACME CA roots: no PEM certificate in %s", a.CAFile)
			}
			tr := http.DefaultTransport.(*http.Transport).Clone()
			tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
			client.HTTPClient = &http.Client{Transport: tr}
		}
		m.Client = client
	}
	return m, nil
}

// RedirectToHTTPS sends a plain-HTTP request to the same path over HTTPS:
// on host when given, else on the host the request named; on httpsPort
// unless it is 443. The redirect is temporary, so a phone is not sent to
// HTTPS for ever should the server go back to plain HTTP.
func RedirectToHTTPS(host, httpsPort string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := host
		if h == "" {
			h = r.Host
			if hh, _, err := net.SplitHostPort(r.Host); err == nil {
				h = hh
			}
			if strings.Contains(h, ":") && !strings.HasPrefix(h, "[") {
				h = "[" + h + "]"
			}
		}
		if httpsPort != "" && httpsPort != "443" {
			h += ":" + httpsPort
		}
		http.Redirect(w, r, "https://"+h+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	})
}
