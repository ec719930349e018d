// Package lan finds where the phones at the table can reach the server: the
// machine's addresses on the home network, and a .local name announced by
// multicast DNS.
package lan

import (
	"net"
	"net/netip"
	"sort"
	"strconv"
	"strings"
)

// Interface is a network interface as the addresses need it; System gives
// the machine's, a test its own.
type Interface struct {
	Name  string
	Flags net.Flags
	Addrs []net.Addr
}

// System lists the machine's interfaces.
func System() ([]Interface, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	out := make([]Interface, 0, len(ifs))
	for _, i := range ifs {
		addrs, err := i.Addrs()
		if err != nil {
			continue // an interface that went away meanwhile
		}
		out = append(out, Interface{Name: i.Name, Flags: i.Flags, Addrs: addrs})
	}
	return out, nil
}

// Addresses are the addresses another device may reach this one by: of
// interfaces that are up, not loopback, IPv4 and global IPv6 (a link-local
// IPv6 address needs a zone no phone can type). IPv4 first.
func Addresses(ifs []Interface) []netip.Addr {
	var out []netip.Addr
	seen := map[netip.Addr]bool{}
	for _, i := range ifs {
		if i.Flags&net.FlagUp == 0 || i.Flags&net.FlagLoopback != 0 {
			continue
		}
		for _, a := range i.Addrs {
			var ip net.IP
			switch v := a.(type) {
			case *net.IPNet:
				ip = v.IP
			case *net.IPAddr:
				ip = v.IP
			}
			addr, ok := netip.AddrFromSlice(ip)
			if !ok {
				continue
			}
			addr = addr.Unmap()
			if addr.IsLoopback() || addr.IsLinkLocalUnicast() || addr.IsMulticast() || addr.IsUnspecified() || seen[addr] {
				continue
			}
			seen[addr] = true
			out = append(out, addr)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Is4() && !out[b].Is4() })
	return out
}

// URLs are the addresses a browser opens: for a server listening on listen
// (HOST:PORT; an empty or unspecified host means every address) by scheme,
// each of addrs it answers on, and the .local name if there is one. A
// server on a loopback address has none: no phone can reach it.
func URLs(scheme, listen string, addrs []netip.Addr, localName string) []string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil
	}
	suffix := ":" + port
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		suffix = ""
	}
	var out []string
	if host != "" {
		ip, err := netip.ParseAddr(host)
		switch {
		case err != nil: // a name: the one to use
			return []string{scheme + "://" + host + suffix}
		case ip.IsLoopback():
			return nil
		case !ip.IsUnspecified():
			addrs = []netip.Addr{ip}
		}
	}
	if localName != "" {
		out = append(out, scheme+"://"+strings.TrimSuffix(localName, ".")+suffix)
	}
	for _, a := range addrs {
		h := a.String()
		if a.Is6() {
			h = "[" + h + "]"
		}
		out = append(out, scheme+"://"+h+suffix)
	}
	return out
}

// Port is the port of a HOST:PORT address, 0 when it has none.
func Port(listen string) int {
	_, p, err := net.SplitHostPort(listen)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(p)
	return n
}
