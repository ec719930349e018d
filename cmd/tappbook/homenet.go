package main

import (
	"context"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"sync/atomic"
	"time"

	"tappbook/internal/lan"
)

// homeNet announces NAME.local and says where phones join, again whenever
// the machine's network addresses change: a unit started at boot may run
// before the Wi-Fi is up, and a new lease changes the address.
type homeNet struct {
	name, scheme, listen string // name "" for no mDNS
	addrs                func() []netip.Addr
	announce             func(addrs []netip.Addr) (func() error, error)
	joinURLs             func() []string
	log                  *slog.Logger
	announced            atomic.Bool // NAME.local answers now
}

// systemAddrs are the machine's addresses phones may reach it by.
func systemAddrs() []netip.Addr {
	ifs, err := lan.System()
	if err != nil {
		return nil
	}
	return lan.Addresses(ifs)
}

// onEveryAddress tells whether the server listens on every address (and
// so on the home network's), not on one only.
func onEveryAddress(listen string) bool {
	host, _, _ := net.SplitHostPort(listen)
	ip := net.ParseIP(host)
	return host == "" || (ip != nil && ip.IsUnspecified())
}

// run announces and logs for the addresses now, then looks again every
// `every` until ctx ends, and withdraws the announcement.
func (h *homeNet) run(ctx context.Context, every time.Duration) {
	var last []netip.Addr
	closeAnn := func() error { return nil }
	update := func(addrs []netip.Addr) {
		_ = closeAnn()
		closeAnn = func() error { return nil }
		h.announced.Store(false)
		if h.name != "" && onEveryAddress(h.listen) && len(addrs) > 0 {
			if c, err := h.announce(addrs); err != nil {
				h.log.Warn("not announced on the home network", "name", h.name, "err", err)
			} else {
				closeAnn = c
				h.announced.Store(true)
				h.log.Info("announced on the home network", "name", h.name)
			}
		}
		urls := h.joinURLs()
		switch {
		case len(urls) > 0:
			for _, u := range urls {
				h.log.Info("phones join at", "url", u)
			}
		case !onEveryAddress(h.listen):
			h.log.Info("phones cannot join: the server listens on this machine only", "addr", h.listen)
		default:
			h.log.Info("phones cannot join yet: this machine has no network address; they can as soon as it has one", "addr", h.listen)
		}
	}
	last = h.addrs()
	update(last)
	go func() {
		defer func() { _ = closeAnn() }()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if now := h.addrs(); !slices.Equal(now, last) {
				h.log.Info("the network addresses changed", "was", last, "now", now)
				last = now
				update(now)
			}
		}
	}()
}

// mdnsAnnouncer answers mDNS queries for name with the addresses given.
func mdnsAnnouncer(label, scheme, listen string, log *slog.Logger) func([]netip.Addr) (func() error, error) {
	return func(addrs []netip.Addr) (func() error, error) {
		zone, err := lan.Zone(label, "_"+scheme+"._tcp", lan.Port(listen), addrs)
		if err != nil {
			return nil, err
		}
		a, err := lan.Announce(zone, nil, slog.NewLogLogger(log.Handler(), slog.LevelDebug).Writer())
		if err != nil {
			return nil, err
		}
		return a.Close, nil
	}
}
