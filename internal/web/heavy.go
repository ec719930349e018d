package web

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// Heavy pages (a game's history, its downloads) read every event of the
// evening: a few at once keep the server's memory and both cores busy, and
// 64 readers of a 5,000-deal evening at once would starve every table. At
// most heavyBuilds are built at once; a request that finds them all taken
// waits up to heavyWait for one, then is answered 503 with Retry-After
// (BenchmarkHistoryUnderReaders measures it).
const (
	heavyBuilds = 1 // of the 2 cores tappbook is measured on, one stays for the tables
	heavyWait   = 2 * time.Second
	heavyRetry  = 5 // seconds, the Retry-After of a request turned away
)

// errBusy is a heavy page turned away: every build slot was taken for
// heavyWait.
var errBusy = errors.New("the server is building other long pages (histories, downloads) just now; try again in a few seconds")

// heavyLimit lets at most n requests through at once; the others wait up to
// wait, then get errBusy.
func heavyLimit(n int, wait time.Duration) echo.MiddlewareFunc {
	slots := make(chan struct{}, n)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			timer := time.NewTimer(wait)
			defer timer.Stop()
			select {
			case slots <- struct{}{}:
			case <-timer.C:
				c.Response().Header().Set("Retry-After", strconv.Itoa(heavyRetry))
				return errBusy
			case <-c.Request().Context().Done():
				return errBusy // the reader left: nothing to build
			}
			defer func() { <-slots }()
			return next(c)
		}
	}
}

// busyStatus is how errBusy is answered.
const busyStatus = http.StatusServiceUnavailable
