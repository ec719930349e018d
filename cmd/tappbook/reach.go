package main

import (
	"flag"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"

	"tappbook/internal/lan"
	"tappbook/internal/web"
)

// reachFlags say how people reach the server: its public address and the
// reverse proxies in front of it.
type reachFlags struct {
	publicURL      string
	trustedProxies string
}

func (r *reachFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.publicURL, "public-url", envOr("TAPPBOOK_PUBLIC_URL", ""), "the address people open, e.g. https://tapp.example.org/ or https://example.org/tapp/, when it is not the server's own (a reverse proxy): links, QR codes and the join page name it, and changes are taken only under its name (env TAPPBOOK_PUBLIC_URL)")
	fs.StringVar(&r.trustedProxies, "trusted-proxies", envOr("TAPPBOOK_TRUSTED_PROXIES", ""), "reverse proxies whose X-Forwarded-For, -Proto and -Host are believed, as addresses or CIDRs separated by commas or spaces, e.g. 127.0.0.1/32,::1 (env TAPPBOOK_TRUSTED_PROXIES; default none: those headers are ignored)")
}

// reach builds the web server's view of its reach from the flags, the
// --domain names and its own addresses (read when asked: they change).
func (r reachFlags) reach(domains []string, own func() []string) (web.Reach, error) {
	reach := web.Reach{OwnHosts: own}
	if r.publicURL != "" {
		u, err := parsePublicURL(r.publicURL)
		if err != nil {
			return reach, err
		}
		reach.PublicURL = u
		reach.Names = append(reach.Names, u.Hostname())
	}
	reach.Names = append(reach.Names, domains...)
	for _, s := range strings.FieldsFunc(r.trustedProxies, func(c rune) bool { return c == ',' || c == ' ' }) {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return reach, fmt.Errorf("--trusted-proxies: %q is neither an address nor a CIDR (such as 127.0.0.1/32 or 10.0.0.0/8)", s)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		reach.TrustedProxies = append(reach.TrustedProxies, p.Masked())
	}
	return reach, nil
}

// plainSegment is a path segment that needs no escaping.
var plainSegment = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)

// parsePublicURL checks --public-url: an http or https address with a
// host, nothing after its path.
func parsePublicURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("--public-url: %w", err)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return nil, fmt.Errorf("--public-url %q: give the whole address, such as https://tapp.example.org/", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return nil, fmt.Errorf("--public-url %q: no query, fragment or user name, only scheme, host and path", s)
	}
	// A subpath, https://example.org/tapp/: plain path segments only, so
	// that the prefix is the same escaped or not, in a link or a route.
	path := strings.Trim(u.EscapedPath(), "/")
	for _, seg := range strings.Split(path, "/") {
		if path != "" && (!plainSegment.MatchString(seg) || seg == "." || seg == "..") {
			return nil, fmt.Errorf("--public-url %q: the path may hold only letters, digits and . _ ~ - between its slashes, such as https://example.org/tapp/", s)
		}
	}
	u.Path, u.RawPath = "", ""
	if path != "" {
		u.Path = "/" + path
	}
	return u, nil
}

// ownHosts are the server's own network addresses and its mDNS name, as
// they are now.
func ownHosts(mdnsName string) func() []string {
	return func() []string {
		var out []string
		if mdnsName != "" {
			out = append(out, mdnsName)
		}
		ifs, err := lan.System()
		if err != nil {
			return out
		}
		for _, a := range lan.Addresses(ifs) {
			out = append(out, a.String())
		}
		return out
	}
}

// publicFirst puts the public URL before the addresses phones on the
// network can join at.
func publicFirst(reach web.Reach, join func() []string) func() []string {
	if reach.PublicURL == nil {
		return join
	}
	return func() []string { return append([]string{reach.PublicURL.String() + "/"}, join()...) }
}
