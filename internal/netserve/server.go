// Package netserve puts tappbook's handler on the network: deadlines that
// cut off a slow client, a cap on one client's connections, plain HTTP or
// TLS (certificate files or ACME), and the redirect from HTTP to HTTPS.
package netserve

import (
	"net/http"
	"time"
)

// Limits bound what one client can hold of the server.
type Limits struct {
	ReadHeaderTimeout time.Duration // to send the request's headers
	ReadTimeout       time.Duration // to send headers and body
	WriteTimeout      time.Duration // to take the answer; live streams lift it for themselves
	IdleTimeout       time.Duration // a kept-alive connection with no request
	MaxConnsPerClient int           // open connections from one address
}

// DefaultLimits suit phones on a home Wi-Fi: a form is a few KB, a page a
// few dozen, the largest download (a long evening's events) well under a
// minute even on a poor connection; a browser opens at most 6 connections
// to a host, and a phone keeps a live stream or two.
func DefaultLimits() Limits {
	return Limits{
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxConnsPerClient: 32,
	}
}

// NewServer is an http.Server for h with the limits' deadlines. The cap on
// connections is the listener's (LimitListener).
func NewServer(h http.Handler, l Limits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}
