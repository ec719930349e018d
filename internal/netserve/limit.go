package netserve

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// tooMany is the answer to a connection over the cap, written before any
// request is read: in three languages (the reader's is not known yet) and
// in api.md's shape, {"error": "…"} (nor is whether it is a script).
const tooMany = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\nRetry-After: 10\r\nContent-Length: %d\r\n\r\n%s"

const tooManyText = `{"error":"Too many connections from this address: close some tabs and try again. / ` +
	`Zu viele Verbindungen von dieser Adresse: schließe ein paar Tabs und versuche es noch einmal. / ` +
	`För många anslutningar från den här adressen: stäng några flikar och försök igen."}` + "\n"

// LimitListener caps the connections open at once from one address: one
// client cannot take every file descriptor and goroutine of the server with
// connections that never finish. A connection over the cap is answered 429
// at once and closed (answer false: only closed, as on a TLS listener,
// where plain text would not be read).
func LimitListener(ln net.Listener, max int, answer bool) net.Listener {
	return LimitListenerExcept(ln, max, answer, nil)
}

// LimitListenerExcept is LimitListener leaving the connections of the
// given addresses uncapped: a trusted reverse proxy's, which carry every
// phone's requests (the handler then caps them by the forwarded address).
func LimitListenerExcept(ln net.Listener, max int, answer bool, except []netip.Prefix) net.Listener {
	return &limitListener{Listener: ln, max: max, answer: answer, open: map[string]int{}, except: except}
}

type limitListener struct {
	net.Listener
	max    int
	answer bool
	mu     sync.Mutex
	open   map[string]int // connections open, by client address
	except []netip.Prefix // addresses not capped
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := clientOf(c)
		if l.exempt(host) {
			return c, nil
		}
		l.mu.Lock()
		if l.max > 0 && l.open[host] >= l.max {
			l.mu.Unlock()
			go l.refuse(c)
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(host) }}, nil
	}
}

func (l *limitListener) exempt(host string) bool {
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(l.except, func(p netip.Prefix) bool { return p.Contains(ip.Unmap()) })
}

func (l *limitListener) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
	}
}

func (l *limitListener) refuse(c net.Conn) {
	defer c.Close()
	if l.answer {
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.Write([]byte(formatTooMany()))
	}
}

func formatTooMany() string {
	return fmt.Sprintf(tooMany, len(tooManyText), tooManyText)
}

// clientOf is the address a connection comes from, without its port.
func clientOf(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// countedConn gives its place back when closed, once.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
