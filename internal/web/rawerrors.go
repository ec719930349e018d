package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// JSONErrors wraps a listener so that the few answers net/http writes by
// itself, before any handler runs (431 for headers over
// http.Server.MaxHeaderBytes, 400 for a request it cannot parse, 501 for an
// unknown transfer encoding), come in api.md's shape, {"error": "…"}, like
// every other refusal. net/http gives no hook for them: it writes each in
// one Write to the connection, as a status line, exactly rawErrorHeaders
// and a short text, and closes. Only a Write of that exact form is
// rewritten; a handler's answer always carries more headers (Date) and
// never matches. Wrap the listener a server's connections are read from
// (with TLS: the TLS listener, so that the plain text is seen).
func JSONErrors(ln net.Listener) net.Listener { return jsonErrorListener{ln} }

// rawErrorHeaders are the headers net/http's own error answers carry.
const rawErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return jsonErrorConn{c}, nil
}

type jsonErrorConn struct{ net.Conn }

func (c jsonErrorConn) Write(b []byte) (int, error) {
	answer, ok := rawErrorAnswer(b)
	if !ok {
		return c.Conn.Write(b)
	}
	if _, err := c.Conn.Write(answer); err != nil {
		return 0, err
	}
	return len(b), nil
}

// rawErrorAnswer rewrites one of net/http's own error answers as JSON.
func rawErrorAnswer(b []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !ok || len(rest) < 3 {
		return nil, false
	}
	// The status first: every answer's first write passes here, and a
	// handler's (not an error's) need not be searched for the headers.
	code, err := strconv.Atoi(string(rest[:3]))
	if err != nil || code < 400 {
		return nil, false
	}
	status, _, ok := bytes.Cut(rest, []byte(rawErrorHeaders))
	if !ok || bytes.ContainsAny(status, "\r\n") {
		return nil, false
	}
	var msg string
	switch code {
	case http.StatusRequestHeaderFieldsTooLarge:
		msg = "the request's headers are larger than the server takes (1 MiB); send fewer or smaller headers"
	case http.StatusBadRequest:
		msg = "the request is not HTTP the server can read; see docs/api.md"
	case http.StatusNotImplemented:
		msg = "the request's Transfer-Encoding is not one the server takes; send the body plainly"
	default:
		msg = http.StatusText(code)
	}
	body, _ := json.Marshal(map[string]string{"error": msg})
	body = append(body, '\n')
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		code, http.StatusText(code), len(body), body), true
}
