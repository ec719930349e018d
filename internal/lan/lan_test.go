package lan

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

func ipnet(s string) net.Addr {
	ip, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	n.IP = ip
	return n
}

var table = []Interface{
	{Name: "lo", Flags: net.FlagUp | net.FlagLoopback, Addrs: []net.Addr{ipnet("127.0.0.1/8"), ipnet("::1/128")}},
	{Name: "wlan0", Flags: net.FlagUp | net.FlagMulticast, Addrs: []net.Addr{ipnet("fe80::1/64"), ipnet("2001:db8::5/64"), ipnet("192.168.1.20/24")}},
	{Name: "eth0", Flags: net.FlagMulticast, Addrs: []net.Addr{ipnet("10.0.0.5/24")}}, // down
	{Name: "eth1", Flags: net.FlagUp, Addrs: []net.Addr{ipnet("172.16.0.9/16"), ipnet("192.168.1.20/24")}},
}

// The addresses phones can use: up, not loopback, no link-local IPv6, each
// once, IPv4 first.
func TestAddresses(t *testing.T) {
	got := fmt.Sprint(Addresses(table))
	if want := "[192.168.1.20 172.16.0.9 2001:db8::5]"; got != want {
		t.Fatalf("addresses %s, want %s", got, want)
	}
}

func TestURLs(t *testing.T) {
	addrs := Addresses(table)
	cases := []struct {
		scheme, listen, local string
		want                  string
	}{
		{"http", ":8080", "tappbook.local", "[http://tappbook.local:8080 http://192.168.1.20:8080 http://172.16.0.9:8080 http://[2001:db8::5]:8080]"},
		{"http", "0.0.0.0:80", "", "[http://192.168.1.20 http://172.16.0.9 http://[2001:db8::5]]"},
		{"https", "192.168.1.20:8443", "", "[https://192.168.1.20:8443]"},
		{"http", "127.0.0.1:8080", "tappbook.local", "[]"},
		{"https", "tapp.example.org:443", "", "[https://tapp.example.org]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(URLs(c.scheme, c.listen, addrs, c.local)); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.scheme, c.listen, got, c.want)
		}
	}
}

// The zone answers a query for the name with the addresses, and a DNS-SD
// browse for the service with the instance and its port.
func TestZoneAnswers(t *testing.T) {
	z, err := Zone("tappbook", "_http._tcp", 8080, []netip.Addr{netip.MustParseAddr("192.168.1.20")})
	if err != nil {
		t.Fatal(err)
	}
	a := z.Records(dns.Question{Name: "tappbook.local.", Qtype: dns.TypeA, Qclass: dns.ClassINET})
	if len(a) != 1 || a[0].(*dns.A).A.String() != "192.168.1.20" {
		t.Fatalf("A tappbook.local.: %v", a)
	}
	ptr := z.Records(dns.Question{Name: "_http._tcp.local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET})
	var srv *dns.SRV
	for _, rr := range ptr {
		if s, ok := rr.(*dns.SRV); ok {
			srv = s
		}
	}
	if srv == nil || srv.Port != 8080 || srv.Target != "tappbook.local." {
		t.Fatalf("browse _http._tcp.local.: %v", ptr)
	}
	if _, err := Zone("tapp.book", "_http._tcp", 8080, nil); err == nil {
		t.Fatal("a name of two labels was taken")
	}
}

// The announcement answers a real multicast query. Multicast needs an
// interface that carries it: the test runs itself again in a network
// namespace of its own, where loopback does (no packet leaves the machine).
func TestAnnouncementAnswersOnMulticast(t *testing.T) {
	if os.Getenv("TAPPBOOK_TEST_NETNS") != "1" {
		unshare, err := exec.LookPath("unshare")
		if err == nil && os.Geteuid() != 0 {
			err = fmt.Errorf("not root")
		}
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("a network namespace is needed (unshare as root): %v", err)
			}
			t.Skipf("a network namespace is needed (unshare as root): %v", err)
		}
		cmd := exec.Command(unshare, "--net", os.Args[0], "-test.run=^TestAnnouncementAnswersOnMulticast$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "TAPPBOOK_TEST_NETNS=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a network namespace:\n%s", out)
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("the test in the namespace failed: %v", err)
		}
		return
	}
	for _, args := range [][]string{{"link", "set", "lo", "up"}, {"link", "set", "lo", "multicast", "on"}, {"route", "add", "224.0.0.0/4", "dev", "lo"}} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	z, err := Zone("tappbook", "_http._tcp", 8080, []netip.Addr{netip.MustParseAddr("127.0.0.1")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Announce(z, lo, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	entries := make(chan *mdns.ServiceEntry, 4)
	params := mdns.DefaultParams("_http._tcp")
	params.Interface, params.Entries, params.Timeout, params.DisableIPv6 = lo, entries, 5*time.Second, true
	params.Logger = nil
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() { _ = mdns.QueryContext(ctx, params); close(entries) }()
	for e := range entries {
		t.Logf("answer: %s at %s:%d (%s)", e.Name, e.AddrV4, e.Port, e.Host)
		if e.Host == "tappbook.local." && e.Port == 8080 && e.AddrV4.String() == "127.0.0.1" {
			return
		}
	}
	t.Fatal("no answer to the multicast query")
}
