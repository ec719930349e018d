package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/tapp"
)

// streamWriteWindow is how long one write to a live stream may take.
const streamWriteWindow = 30 * time.Second

// live streams a game's version to a page that follows it (server-sent
// events): once on connecting, so that a phone that was away catches up, and
// after every change.
func (u ui) live(c echo.Context) error {
	id := gameID(c)
	// Followed before the version is read, so that a change between the
	// two is sent, not lost.
	changes, stop := u.svc.Follow(id)
	defer stop()
	defer u.metrics.streamOpened()()
	var version int64
	if err := u.svc.View(c.Request().Context(), id, func(g *tapp.State) error { version = g.Version; return nil }); err != nil {
		return u.problem(c, err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Response().WriteHeader(http.StatusOK)
	// A stream outlives the server's write deadline, which is for answers
	// that end: each write gets a deadline of its own instead, so a phone
	// that vanished is let go, and the heartbeat shows the stream is alive.
	rc := http.NewResponseController(c.Response())
	window := func() { _ = rc.SetWriteDeadline(time.Now().Add(streamWriteWindow)) }
	window()
	send := func(v int64) error {
		window()
		if _, err := fmt.Fprintf(c.Response(), "id: %d\ndata: %d\n\n", v, v); err != nil {
			return err
		}
		c.Response().Flush()
		return nil
	}
	if _, err := fmt.Fprint(c.Response(), "retry: 1000\n\n"); err != nil {
		return nil
	}
	if err := send(version); err != nil {
		return nil
	}
	// The heartbeat is an event the page sees (a comment it would not),
	// with how often it comes: a page that hears nothing for a few of them
	// knows its stream hangs and connects again.
	beat := func() error {
		window()
		if _, err := fmt.Fprintf(c.Response(), "event: ping\ndata: %d\n\n", u.heartbeat.Milliseconds()); err != nil {
			return err
		}
		c.Response().Flush()
		return nil
	}
	if beat() != nil {
		return nil
	}
	ping := time.NewTicker(u.heartbeat)
	defer ping.Stop()
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case <-u.streams:
			return nil
		case v := <-changes:
			if send(v) != nil {
				return nil
			}
		case <-ping.C:
			if beat() != nil {
				return nil
			}
		}
	}
}
