package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"tappbook/internal/lan"
	"tappbook/internal/netserve"
	"tappbook/internal/web"
)

// httpsPlan is how the server answers: HTTPS from certificate files or by
// ACME for domains, or plain HTTP (conf nil).
type httpsPlan struct {
	conf    *tls.Config
	plain   http.Handler // what --http-addr serves beside HTTPS: the redirect
	domains []string     // ACME's, nil otherwise
	scheme  string
	port    string // --addr's, which the redirect and the domains' links name
}

func (f *serveFlags) https() (httpsPlan, error) {
	h := httpsPlan{scheme: "http"}
	_, h.port, _ = net.SplitHostPort(f.addr)
	switch {
	case f.tlsCert != "":
		conf, err := netserve.FileTLS(f.tlsCert, f.tlsKey)
		if err != nil {
			return h, err
		}
		h.conf, h.plain, h.scheme = conf, netserve.RedirectToHTTPS("", h.port), "https"
	case f.domains != "":
		for _, d := range strings.Split(f.domains, ",") {
			if d = strings.TrimSpace(d); d != "" {
				h.domains = append(h.domains, d)
			}
		}
		m, err := netserve.ACME{Domains: h.domains, CacheDir: filepath.Join(f.dataDir, "tappbook-certs"),
			Directory: f.acmeDir, Email: f.acmeEmail, CAFile: f.acmeCA}.Manager()
		if err != nil {
			return h, err
		}
		h.conf, h.scheme = m.TLSConfig(), "https"
		h.conf.MinVersion = tls.VersionTLS12
		h.plain = m.HTTPHandler(netserve.RedirectToHTTPS(h.domains[0], h.port))
	}
	return h, nil
}

// home is the server's presence on the home network (its mDNS name,
// when it has no domains) and the addresses a phone joins by, the public
// one first; and the server's view of how people reach it.
func (f *serveFlags) home(h httpsPlan, listen string, log *slog.Logger) (*homeNet, web.Reach, error) {
	mdnsName := ""
	if f.mdns != "" && h.domains == nil {
		mdnsName = f.mdns + ".local"
	}
	home := &homeNet{name: mdnsName, scheme: h.scheme, listen: listen, addrs: systemAddrs,
		announce: mdnsAnnouncer(f.mdns, h.scheme, listen, log), log: log}
	reach, err := f.reach.reach(h.domains, ownHosts(mdnsName))
	if err != nil {
		return nil, reach, err
	}
	home.joinURLs = publicFirst(reach, func() []string {
		if h.domains != nil {
			var out []string
			for _, d := range h.domains {
				out = append(out, lan.URLs(h.scheme, net.JoinHostPort(d, h.port), nil, "")...)
			}
			return out
		}
		name := ""
		if home.announced.Load() {
			name = mdnsName
		}
		return lan.URLs(h.scheme, listen, systemAddrs(), name)
	})
	return home, reach, nil
}

// servers are the HTTP servers serve runs: the app's, and the redirect to
// HTTPS on --http-addr when it has one. ended gets the first one's end.
type servers struct {
	app, redirect *http.Server
	ended         chan error
}

// start serves handler on ln, behind TLS when h says so, and the redirect
// to HTTPS on --http-addr.
func (f *serveFlags) start(ln net.Listener, handler *web.Server, h httpsPlan, reach web.Reach, log *slog.Logger) (*servers, error) {
	limits := netserve.DefaultLimits()
	limits.MaxConnsPerClient = f.maxConns
	s := &servers{app: netserve.NewServer(handler, limits), ended: make(chan error, 2)}
	s.app.RegisterOnShutdown(handler.CloseStreams)
	if h.conf != nil {
		s.app.TLSConfig = h.conf
		// net/http's own answers (a header too large) are rewritten as
		// api.md's JSON error inside the TLS layer, where they are plain.
		tlsLn := tls.NewListener(netserve.LimitListenerExcept(ln, limits.MaxConnsPerClient, false, reach.TrustedProxies), h.conf)
		go func() { s.ended <- s.app.Serve(web.JSONErrors(tlsLn)) }()
	} else {
		go func() {
			s.ended <- s.app.Serve(web.JSONErrors(netserve.LimitListenerExcept(ln, limits.MaxConnsPerClient, true, reach.TrustedProxies)))
		}()
	}
	if h.plain != nil && f.httpAddr != "" {
		hln, err := net.Listen("tcp", f.httpAddr)
		if err != nil {
			s.app.Close() // the app's listener with it
			return nil, fmt.Errorf("listen on %s for the redirect to HTTPS: %w", f.httpAddr, err)
		}
		s.redirect = netserve.NewServer(h.plain, limits)
		go func() { s.ended <- s.redirect.Serve(netserve.LimitListener(hln, limits.MaxConnsPerClient, true)) }()
		log.Info("redirecting plain HTTP to HTTPS", "addr", hln.Addr().String())
	}
	return s, nil
}

// shutdown stops taking requests and lets those in flight finish (the
// database is closed after, by serve).
func (s *servers) shutdown(log *slog.Logger) error {
	log.Info("shutting down")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if s.redirect != nil {
		_ = s.redirect.Shutdown(ctx)
	}
	if err := s.app.Shutdown(ctx); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	log.Info("stopped")
	return nil
}
