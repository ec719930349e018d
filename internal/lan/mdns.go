package lan

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/netip"
	"strings"

	"github.com/hashicorp/mdns"
)

// Announcement answers multicast DNS queries for a .local name and a
// DNS-SD service (_http._tcp or _https._tcp), so that phones on the home
// network find the server as http://NAME.local:PORT.
type Announcement struct {
	server *mdns.Server
	Name   string // the announced name, with .local
}

// Zone is what the announcement answers: name.local's addresses, and the
// service instance "tappbook" on port.
func Zone(name, service string, port int, addrs []netip.Addr) (*mdns.MDNSService, error) {
	name = strings.TrimSuffix(strings.TrimSuffix(name, "."), ".local")
	if name == "" || strings.Contains(name, ".") {
		return nil, fmt.Errorf("mDNS name %q: one label, such as tappbook", name)
	}
	ips := make([]net.IP, 0, len(addrs))
	for _, a := range addrs {
		ips = append(ips, net.IP(a.AsSlice()))
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("mDNS %s.local: no network address to announce", name)
	}
	return mdns.NewMDNSService("tappbook", service, "local.", name+".local.", port, ips, []string{"path=/"})
}

// Announce starts answering on the interface (nil: the system's default
// multicast interface).
func Announce(zone *mdns.MDNSService, iface *net.Interface, logTo io.Writer) (*Announcement, error) {
	srv, err := mdns.NewServer(&mdns.Config{Zone: zone, Iface: iface, Logger: log.New(logTo, "mdns: ", 0)})
	if err != nil {
		return nil, fmt.Errorf("announce %s: %w", zone.HostName, err)
	}
	return &Announcement{server: srv, Name: strings.TrimSuffix(zone.HostName, ".")}, nil
}

// Close stops answering.
func (a *Announcement) Close() error { return a.server.Shutdown() }
