package main

import (
	"context"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

// A server started before the network (no address yet) says phones can
// join once there is one, not that it listens on this machine only; when
// an address comes, it announces NAME.local with it and logs where phones
// join; a server on 127.0.0.1 says it listens on this machine only.
func TestHomeNetworkLateAddress(t *testing.T) {
	var mu sync.Mutex
	var now []netip.Addr
	var announced [][]netip.Addr
	logs := &clitest.Buffer{}
	h := &homeNet{name: "tappbook.local", scheme: "http", listen: "[::]:8080",
		addrs: func() []netip.Addr { mu.Lock(); defer mu.Unlock(); return now },
		announce: func(a []netip.Addr) (func() error, error) {
			mu.Lock()
			defer mu.Unlock()
			announced = append(announced, a)
			return func() error { return nil }, nil
		},
		log: slog.New(slog.NewTextHandler(logs, nil))}
	h.joinURLs = func() []string {
		mu.Lock()
		defer mu.Unlock()
		if len(now) == 0 || !h.announced.Load() {
			return nil
		}
		return []string{"http://" + now[0].String() + ":8080/", "http://tappbook.local:8080/"}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.run(ctx, 10*time.Millisecond)
	if !strings.Contains(logs.String(), "phones cannot join yet: this machine has no network address") || strings.Contains(logs.String(), "this machine only") {
		t.Fatalf("before the network:\n%s", logs)
	}
	mu.Lock()
	now = []netip.Addr{netip.MustParseAddr("192.168.1.7")}
	mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "url=http://tappbook.local:8080/") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	got := announced
	mu.Unlock()
	if len(got) != 1 || got[0][0] != now[0] || !strings.Contains(logs.String(), "url=http://192.168.1.7:8080/") {
		t.Fatalf("after the network came: announced %v\n%s", got, logs)
	}

	local := &clitest.Buffer{}
	(&homeNet{name: "tappbook.local", scheme: "http", listen: "127.0.0.1:8080", addrs: h.addrs,
		announce: h.announce, joinURLs: func() []string { return nil },
		log: slog.New(slog.NewTextHandler(local, nil))}).run(ctx, time.Hour)
	if !strings.Contains(local.String(), "listens on this machine only") {
		t.Fatalf("on loopback:\n%s", local)
	}
}
