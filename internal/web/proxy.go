package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// Reach is how people reach the server: its public address, the reverse
// proxies in front of it, and the names it takes changes under.
type Reach struct {
	// PublicURL is the address people use (--public-url): share links, QR
	// codes and the join page name it, and forms from it are its own.
	PublicURL *url.URL
	// TrustedProxies are the addresses whose X-Forwarded-For, -Proto and
	// -Host are believed; from anyone else those headers are dropped.
	TrustedProxies []netip.Prefix
	// Names are the names the server was given (--public-url's host,
	// --domain). When there are any, a request that changes state naming
	// another host is refused (api.md: a defence against DNS rebinding).
	Names []string
	// OwnHosts are the server's own network addresses and mDNS name, asked
	// at each such request: they change when the network does.
	OwnHosts func() []string
}

// fromProxy is the context key saying a request came through a trusted
// proxy; ignoredHeaders names the forwarded headers dropped from another.
const (
	fromProxy      = "tappbook.from-proxy"
	ignoredHeaders = "tappbook.ignored-forwarded"
)

// forwardedHeaders are every header a proxy uses to say where a request
// came from; echo reads the scheme from several of them.
var forwardedHeaders = []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto",
	"X-Forwarded-Protocol", "X-Forwarded-Ssl", "X-Url-Scheme", "X-Real-Ip", "Forwarded"}

// trusts tells whether a connection's address is one of the proxies.
func (r Reach) trusts(remoteAddr string) bool {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return false
	}
	ip := ap.Addr().Unmap()
	return slices.ContainsFunc(r.TrustedProxies, func(p netip.Prefix) bool { return p.Contains(ip) })
}

// trustOptions trust the proxies and nothing else: echo's own defaults
// would believe any loopback or private address, and would not believe a
// proxy named on a public one (a cloud load balancer).
func (r Reach) trustOptions() []echo.TrustOption {
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range r.TrustedProxies {
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return opts
}

// ipExtractor reads the client's address from X-Forwarded-For only when
// the connection is a trusted proxy's: the per-client limits then count
// the phone, not the proxy every phone comes through, and the access log
// names the phone.
func (r Reach) ipExtractor() echo.IPExtractor {
	if len(r.TrustedProxies) == 0 {
		return echo.ExtractIPDirect()
	}
	return echo.ExtractIPFromXFFHeader(r.trustOptions()...)
}

// schemeExtractor reads X-Forwarded-Proto (and its kin) from the proxies
// forwarded trusts, as ipExtractor does: the scheme decides the links
// and whether cookies are Secure.
func (r Reach) schemeExtractor() echo.SchemeExtractor {
	return echo.ExtractSchemeFromHeaders(r.trustOptions()...)
}

// secure tells whether the browser reached the server over HTTPS: by TLS,
// by a trusted proxy's X-Forwarded-Proto, or under the name of an https
// --public-url (a proxy that ends TLS and passes the Host, trusted or
// not). A phone that opens the server's own address over plain HTTP on
// the LAN is not: its browser would drop a Secure cookie.
func (r Reach) secure(c echo.Context) bool {
	if c.Scheme() == "https" {
		return true
	}
	if r.PublicURL == nil || r.PublicURL.Scheme != "https" {
		return false
	}
	host := c.Request().Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.EqualFold(strings.TrimSuffix(strings.Trim(host, "[]"), "."), strings.TrimSuffix(r.PublicURL.Hostname(), "."))
}

// forwarded believes a trusted proxy's X-Forwarded-Host (the request's
// host from then on, for the origin check and the links) and
// X-Forwarded-Proto (read by echo's Scheme); from anyone else it drops
// every forwarded header, so that nothing after it reads one.
func (r Reach) forwarded(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if r.trusts(req.RemoteAddr) {
			c.Set(fromProxy, true)
			if h, _, _ := strings.Cut(req.Header.Get("X-Forwarded-Host"), ","); strings.TrimSpace(h) != "" {
				req.Host = strings.TrimSpace(h)
			}
			return next(c)
		}
		var ignored []string
		for _, h := range forwardedHeaders {
			if req.Header.Get(h) != "" {
				ignored = append(ignored, h)
				req.Header.Del(h)
			}
		}
		if ignored != nil {
			c.Set(ignoredHeaders, ignored)
		}
		return next(c)
	}
}

// Root is the path the public URL serves the app under: "" at a name of
// its own, "/tapp" for https://example.org/tapp/. Every link, form,
// redirect, cookie and asset address the server writes starts with it.
func (r Reach) Root() string {
	if r.PublicURL == nil {
		return ""
	}
	return strings.TrimSuffix(r.PublicURL.EscapedPath(), "/")
}

// underRoot routes a request under the public URL's path as the app's own:
// /tapp/g/x is /g/x (a proxy that passes the prefix through, the usual
// nginx and Caddy configuration). A path without the prefix is served as
// it is: a proxy that strips it, or a health check on loopback. Each
// redirect the server answers gets the prefix back as it leaves, so that
// handlers redirect to the app's own paths.
func (r Reach) underRoot(next echo.HandlerFunc) echo.HandlerFunc {
	root := r.Root()
	if root == "" {
		return next
	}
	return func(c echo.Context) error {
		req, res := c.Request(), c.Response()
		res.Before(func() {
			if loc := res.Header().Get("Location"); strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//") {
				res.Header().Set("Location", root+loc)
			}
		})
		if req.URL.Path == root {
			target := "/"
			if req.URL.RawQuery != "" {
				target += "?" + req.URL.RawQuery
			}
			return c.Redirect(http.StatusMovedPermanently, target)
		}
		if rest, ok := strings.CutPrefix(req.URL.Path, root+"/"); ok {
			req.URL.Path = "/" + rest
			if req.URL.RawPath != "" {
				req.URL.RawPath = "/" + strings.TrimPrefix(req.URL.RawPath, root+"/")
			}
		}
		return next(c)
	}
}

// clashes names a route the public URL's path would hide: served without
// the prefix too, /g/abc under a root of /g would be read as /abc.
func (r Reach) clashes(routes []*echo.Route) string {
	root := r.Root()
	if root == "" {
		return ""
	}
	for _, rt := range routes {
		if rt.Path == root || strings.HasPrefix(rt.Path, root+"/") {
			return rt.Path
		}
	}
	return ""
}

// origin is the scheme, host and path prefix links start with: the public
// URL's when given, else the request's own (through a trusted proxy, the
// one it forwarded).
func (r Reach) origin(c echo.Context) string {
	if r.PublicURL != nil {
		return strings.TrimSuffix(r.PublicURL.String(), "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}

// publicOrigin is the public URL's origin (scheme and host), the one a
// browser names in Origin; empty without a public URL.
func (r Reach) publicOrigin() string {
	if r.PublicURL == nil {
		return ""
	}
	return r.PublicURL.Scheme + "://" + r.PublicURL.Host
}

// wrongHost is a change sent under a name the server was not given.
type wrongHost struct{ names []string }

func (e wrongHost) Error() string {
	return fmt.Sprintf("this server takes changes only at %s, localhost and its own network addresses; open it at one of those and send this again (nothing was changed)",
		strings.Join(e.names, ", "))
}

var errWrongHost = errors.New("wrong host")

func (e wrongHost) Is(target error) bool { return target == errWrongHost }

// hostAllowList refuses a request that changes state under a name the
// server was not given, once it was given any (api.md, "Starting the
// server"): a page of another site whose name was made to point at the
// server (DNS rebinding) is the same origin to the browser, so only the
// name tells it apart. Reading is never refused; at home, with no name
// given, any name is served.
func (r Reach) hostAllowList(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if len(r.Names) == 0 {
			return next
		}
		return func(c echo.Context) error {
			req := c.Request()
			switch req.Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				return next(c)
			}
			if r.allowed(req.Host) {
				return next(c)
			}
			log.Warn("refused a change sent under a name this server was not given", "method", req.Method,
				"route", c.Path(), "host", req.Host, "serves", r.Names,
				"why", "add the name to --public-url or --domain, or open the server under one of its names")
			return wrongHost{names: r.Names}
		}
	}
}

// allowed tells whether a Host names this server: a configured name,
// localhost, a loopback address, or one of its own addresses or its mDNS
// name.
func (r Reach) allowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Unmap().IsLoopback() {
		return true
	}
	same := func(n string) bool { return strings.EqualFold(strings.TrimSuffix(n, "."), host) }
	if slices.ContainsFunc(r.Names, same) {
		return true
	}
	return r.OwnHosts != nil && slices.ContainsFunc(r.OwnHosts(), same)
}

// errTooManyConns is a request over the per-client cap, answered 429.
var errTooManyConns = errors.New("too many connections from this address: close some tabs and try again")

// perClient caps the requests one client has open at once through a
// trusted proxy. The listener caps connections by their address, which
// behind a proxy is the proxy's for every phone, so it leaves the proxy
// alone and this counts by the forwarded address instead: live streams
// are the requests that stay open.
func (r Reach) perClient(max int) echo.MiddlewareFunc {
	var mu sync.Mutex
	open := map[string]int{}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if max <= 0 || len(r.TrustedProxies) == 0 {
			return next
		}
		return func(c echo.Context) error {
			if c.Get(fromProxy) == nil {
				return next(c)
			}
			ip := c.RealIP()
			mu.Lock()
			if open[ip] >= max {
				mu.Unlock()
				c.Response().Header().Set("Retry-After", "10")
				return errTooManyConns
			}
			open[ip]++
			mu.Unlock()
			defer func() {
				mu.Lock()
				if open[ip]--; open[ip] <= 0 {
					delete(open, ip)
				}
				mu.Unlock()
			}()
			return next(c)
		}
	}
}
