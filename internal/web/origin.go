package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// formTokenField is the hidden field that carries a form's token.
const formTokenField = "form_token"

// errCrossSite is a write refused because it came from another site.
var errCrossSite = errors.New("this request came from another site and was refused; use tappbook's own pages")

// formTokens signs the address a form posts to. A page of tappbook is the
// only place a browser can read the token from (another site cannot read
// tappbook's pages), so a post that carries it was made from tappbook's own
// page, even where the browser does not say where it came from.
type formTokens struct{ key []byte }

// newFormTokens takes the server's key, or makes one.
func newFormTokens(key []byte) (formTokens, error) {
	if len(key) == 0 {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return formTokens{}, fmt.Errorf("form key: %w", err)
		}
	}
	if len(key) < 16 {
		return formTokens{}, fmt.Errorf("form key: %d bytes, want at least 16", len(key))
	}
	return formTokens{key: key}, nil
}

// For is the token of the form that posts to path (a path, no query), as
// the page writes it: under --public-url's path, with that prefix.
func (f formTokens) For(path string) string {
	mac := hmac.New(sha256.New, f.key)
	mac.Write([]byte("tappbook form\x00" + path))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

func (f formTokens) valid(path, token string) bool {
	return token != "" && hmac.Equal([]byte(f.For(path)), []byte(token))
}

// sameOrigin refuses a POST, PUT, PATCH or DELETE from another site.
//
//   - A browser's Sec-Fetch-Site (sent to secure origins: HTTPS, localhost)
//     decides when present: same-origin or none (typed, bookmarked) pass.
//   - Else its Origin decides: the page's own host passes, another refused.
//   - "Origin: null" is what a browser on an insecure origin sends when the
//     referrer policy hides the origin, and also what a sandboxed frame or
//     a data: page of another site sends. It passes only with the form's
//     token for the very address it posts to.
//   - No Origin and no Sec-Fetch-Site: not a browser of the last years (they
//     all send Origin with every POST), so a script such as curl: it passes,
//     as the JSON API promises.
func sameOrigin(forms formTokens, reach Reach, log *slog.Logger) echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	if o := reach.publicOrigin(); o != "" {
		// A form of the public address, reached through a proxy that
		// passes another Host.
		if err := cop.AddTrustedOrigin(o); err != nil {
			log.Warn("the public URL cannot be trusted as the forms' origin", "url", o, "err", err)
		}
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if cop.Check(r) == nil {
				return next(c)
			}
			if r.Header.Get("Sec-Fetch-Site") == "" && r.Header.Get("Origin") == "null" &&
				forms.valid(reach.Root()+r.URL.Path, c.FormValue(formTokenField)) {
				return next(c)
			}
			log.Warn("refused a change as sent from another site", "method", r.Method, "route", c.Path(),
				"origin", r.Header.Get("Origin"), "host", r.Host, "sec_fetch_site", r.Header.Get("Sec-Fetch-Site"),
				"why", whyCrossSite(c, reach))
			return errCrossSite
		}
	}
}

// whyCrossSite says, for the operator's log, which header made a request
// look sent from another site: most often a reverse proxy that does not
// pass the Host the browser used.
func whyCrossSite(c echo.Context, reach Reach) string {
	r := c.Request()
	origin := r.Header.Get("Origin")
	switch site := r.Header.Get("Sec-Fetch-Site"); {
	case site != "" && site != "same-origin" && site != "none":
		return "the browser says (Sec-Fetch-Site: " + site + ") that the page that sent it is another site's"
	case origin == "null":
		return "the browser hid the page's origin (Origin: null) and the form's token (form_token) is missing or not this server's"
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return "the Origin header is not an address"
	}
	// Where the proxy did its part (the public address known, or its
	// X-Forwarded-Host taken), an Origin that names neither is another
	// site's page, not the proxy's fault.
	if o := reach.publicOrigin(); o != "" && origin != o && u.Host != r.Host {
		return fmt.Sprintf("Origin names %s, which is neither the public URL %s nor the Host %s: a page of another site sent it (or phones reach the server under another address than --public-url)", u.Host, o, r.Host)
	}
	if c.Get(fromProxy) != nil && r.Header.Get("X-Forwarded-Host") != "" {
		return fmt.Sprintf("Origin names %s but the trusted proxy forwarded the Host %s: a page of another site sent it", u.Host, r.Host)
	}
	if ignored, ok := c.Get(ignoredHeaders).([]string); ok {
		return fmt.Sprintf("Origin names %s but Host is %s; the proxy's %s were ignored because %s is not in --trusted-proxies",
			u.Host, r.Host, strings.Join(ignored, ", "), r.RemoteAddr)
	}
	if c.Get(fromProxy) != nil {
		return fmt.Sprintf("Origin names %s but Host is %s and the trusted proxy sent no X-Forwarded-Host: pass it (nginx: proxy_set_header X-Forwarded-Host $http_host), or give --public-url", u.Host, r.Host)
	}
	return fmt.Sprintf("Origin names %s but Host is %s: a reverse proxy must pass the Host header unchanged (nginx: proxy_set_header Host $http_host), or send X-Forwarded-Host and be named in --trusted-proxies, or give --public-url", u.Host, r.Host)
}
