// Package web serves tappbook over HTTP: the JSON API of docs/api.md and
// the health check. Handlers stay thin: decode, call the game service,
// encode.
package web

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/signing"
	staticfiles "tappbook/static"
)

// MaxBody is api.md's limit on a request body.
const MaxBody = 64 << 10

// Options tune the server; the zero value serves.
type Options struct {
	// FormKey signs the forms' tokens (see origin.go); a random key when
	// empty, so that the tokens of open pages end with the process.
	FormKey []byte
	// Heartbeat is how often a live stream sends a ping, which keeps it open
	// through idle proxies and tells the page its stream is alive; 25 s
	// when zero.
	Heartbeat time.Duration
	// JoinURLs lists the addresses other phones can open (the LAN addresses
	// and the mDNS name), for the start page; none when nil.
	JoinURLs func() []string
	// CreateBurst and CreateEvery limit how fast one client address starts
	// games and groups: CreateBurst at once, then one every CreateEvery;
	// 1,000 and one a second when zero. Far above a table's pace (one
	// evening a night) and a script checking the API, it still stops a
	// flood from filling the disk.
	CreateBurst int
	CreateEvery time.Duration
	// Reach is the server's public address and the proxies in front of it
	// (proxy.go).
	Reach Reach
	// MaxConnsPerClient caps the requests one client has open at once
	// through a trusted proxy, as the listener caps connections of one
	// address (netserve.Limits).
	MaxConnsPerClient int
	// Metrics counts requests, deals and live streams for /metrics; none
	// when nil.
	Metrics *Metrics
	// SigningKey signs receipts (receipt.go); a key made for the process
	// when nil, whose receipts no key file verifies after it ends.
	SigningKey *signing.Key
}

// Server is tappbook over HTTP.
type Server struct {
	http.Handler
	streams chan struct{} // closed when the server shuts down
	once    sync.Once
	pages   *pageCache // rendered table pages
}

// CloseStreams ends every live stream, so that a graceful shutdown does not
// wait on pages that would follow the game forever; requests in flight are
// left to finish. Give it to http.Server.RegisterOnShutdown.
func (s *Server) CloseStreams() { s.once.Do(func() { close(s.streams) }) }

// New builds the HTTP handler: the phone UI, the JSON API, the health check.
//
// Every POST, PUT and DELETE from another site is refused (origin.go): by
// the browser's Sec-Fetch-Site and Origin headers, or, where a browser on
// plain HTTP sends "Origin: null", by the form's signed token. Scripts such
// as curl send neither header and pass.
func New(svc *game.Service, log *slog.Logger, options ...Options) (*Server, error) {
	var opts Options
	if len(options) > 0 {
		opts = options[0]
	}
	refusals, err := game.Refusals()
	if err != nil {
		return nil, err
	}
	bundle, err := i18n.Load(refusals, payout.EnglishPhrases())
	if err != nil {
		return nil, err
	}
	forms, err := newFormTokens(opts.FormKey)
	if err != nil {
		return nil, err
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 25 * time.Second
	}
	if opts.SigningKey == nil {
		if opts.SigningKey, err = signing.Generate("tappbook"); err != nil {
			return nil, err
		}
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The client is the address that connected, and the scheme its
	// connection's: a header saying otherwise is believed only from a
	// trusted proxy (--trusted-proxies), wherever that proxy is.
	e.IPExtractor = opts.Reach.ipExtractor()
	e.SchemeExtractor = opts.Reach.schemeExtractor()
	e.Pre(opts.Reach.forwarded, opts.Reach.underRoot)
	srv := &Server{streams: make(chan struct{}), pages: newPageCache(pageCacheBytes)}
	u := ui{svc: svc, i18n: bundle, streams: srv.streams, tables: srv.pages, forms: forms, explained: newExplained(), rows: newRows(rowsBytes), sums: newChartSums(),
		heartbeat: opts.Heartbeat, joinURLs: opts.JoinURLs, log: log, reach: opts.Reach, metrics: opts.Metrics, key: opts.SigningKey}
	e.HTTPErrorHandler = errorHandler(log, u.errorPage, u.apiMessage)
	e.Use(observe(log, opts.Metrics, opts.Reach))
	e.Use(middleware.Recover())
	e.Use(securityHeaders())
	// "64KiB", not "64K": echo reads K as 1000 bytes, which would refuse
	// bodies api.md allows (up to 65,536 bytes).
	e.Use(middleware.BodyLimit("64KiB"))
	e.Use(checkIdempotencyKey)
	gz, err := compress(keptWriters())
	if err != nil {
		return nil, err
	}
	e.Use(gz)
	e.Use(opts.Reach.perClient(opts.MaxConnsPerClient))
	e.Use(opts.Reach.hostAllowList(log))
	e.Use(sameOrigin(forms, opts.Reach, log))
	e.Use(readOnlyLinksRead)
	creations := createLimit(opts.CreateBurst, opts.CreateEvery)
	heavy := heavyLimit(heavyBuilds, heavyWait)
	u.createLimit, u.heavy = creations, heavy
	a := api{svc: svc, createLimit: creations, heavy: heavy, key: opts.SigningKey}
	if err := appRoutes(e, svc, log, opts.Reach, a, u); err != nil {
		return nil, err
	}
	srv.Handler = headAsGet(e)
	return srv, nil
}

// appRoutes routes every address of the app on e, refusing a public URL
// whose path is one of them.
func appRoutes(e *echo.Echo, svc *game.Service, log *slog.Logger, reach Reach, a api, u ui) error {
	if err := rootRoutes(e, svc, log, reach.Root()); err != nil {
		return err
	}
	a.routes(e)
	u.routes(e)
	if route := reach.clashes(e.Routes()); route != "" {
		return fmt.Errorf("the public URL's path %s is one of tappbook's own addresses (%s); serve it under another, such as /tapp/", reach.Root(), route)
	}
	return nil
}

// CheckReach refuses what New would refuse of reach, with no store: a
// public URL whose path is one of the app's own addresses. serve asks it
// before it opens the database or makes a key file.
func CheckReach(reach Reach) error {
	pass := func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	return appRoutes(echo.New(), nil, nil, reach, api{createLimit: pass, heavy: pass}, ui{createLimit: pass, heavy: pass, reach: reach})
}

// rootRoutes are the addresses beside the app's pages and API: health,
// the static files, the service worker, the manifest and the icon.
func rootRoutes(e *echo.Echo, svc *game.Service, log *slog.Logger, root string) error {
	ready := readiness(svc, log)
	e.GET("/healthz", ready)
	e.GET("/readyz", ready)
	// Alive: the process answers. A container's or a supervisor's restart
	// cannot help a database out of reach, so liveness does not ask it.
	e.GET("/livez", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"status": "ok"}) })
	static := e.Group("/static", staticCaching)
	static.StaticFS("/", staticfiles.FS)
	// The service worker answers for the whole app only from its root (under
	// --public-url's path, the worker's scope is that path); the browser
	// checks it for updates, so it is never cached long.
	sw, err := serviceWorker(root)
	if err != nil {
		return err
	}
	e.GET("/sw.js", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-cache")
		return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", sw)
	})
	e.GET("/manifest.webmanifest", rootFile("manifest.webmanifest", "application/manifest+json", "public, max-age=3600"))
	// Browsers ask for /favicon.ico whatever the page links: the app's icon.
	e.GET("/favicon.ico", rootFile("icon-192.png", "image/png", "public, max-age=86400"))
	return nil
}

// readiness answers /healthz and /readyz: ready while the store answers
// and its writes succeed.
func readiness(svc *game.Service, log *slog.Logger) echo.HandlerFunc {
	return func(c echo.Context) error {
		// Anyone who reaches the server may ask: the answer says what is
		// wrong, the log the details (the database's user, host and port, a
		// file's path, a damaged game's id, which is its capability).
		//
		// Not ready while the store's writes fail (a full disk): it
		// recovers by itself once a write succeeds again.
		if p, ok := svc.Store().(events.Pinger); ok {
			if err := p.Ping(c.Request().Context()); err != nil {
				log.Warn("health: the database does not answer", "err", err)
				return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "degraded", "error": "the database is out of reach"})
			}
		}
		if h := svc.Store().Health(); !h.OK {
			if h.Summary == events.ErrFileGone.Error() { // its paragraph was logged when it stopped
				log.Warn("health: the store stopped writing, as logged when it stopped", "since", h.Since)
			} else {
				log.Warn("health: writes fail", "since", h.Since, "problem", h.Problem)
			}
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "degraded", "error": cmp.Or(h.Summary, "writes fail: see the server's log")})
		}
		// A game whose stored history is damaged is served read-only; the
		// server still serves every other game, so it stays ready.
		if damaged := svc.Damaged(); len(damaged) > 0 {
			var problems []string
			for id, d := range damaged {
				problems = append(problems, fmt.Sprintf("game %s: event %d (version %d): %s", id, d.Seq, d.Version, d.Why))
			}
			slices.Sort(problems)
			log.Warn("health: games with a damaged history", "games", problems)
			return c.JSON(http.StatusOK, map[string]any{"status": "degraded", "damaged": len(damaged),
				"error": fmt.Sprintf("%d game(s) with a damaged stored history, served read-only; the server's log names them", len(damaged))})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	}
}

// headAsGet answers HEAD as the GET of the same address, without its body
// (RFC 9110 §9.3.2: monitors and link previews ask with HEAD). The router
// is handed the GET; the writer, net/http's, still serves the HEAD and
// drops the body. A live stream is not one to ask about: it would never
// end.
func headAsGet(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead && !strings.HasSuffix(r.URL.Path, "/live") {
			get := r.Clone(r.Context())
			get.Method = http.MethodGet
			r = get
		}
		h.ServeHTTP(w, r)
	})
}

// securityHeaders: no inline script or style may run, no site may frame a
// page, and no page tells another site its address (a game's address is
// its key). "same-origin" sends the referrer, and so the Origin of a form
// post, to tappbook itself only: over plain HTTP a browser then names the
// page's origin where "no-referrer" made it send "Origin: null".
//
// The values are made once and every answer's header map shares them:
// net/http only reads them, and Set and Add put a new slice in place
// (each has room for exactly one value, so an Add copies it).
func securityHeaders() echo.MiddlewareFunc {
	set := []struct {
		key   string
		value []string
	}{
		{"Content-Security-Policy", []string{"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Referrer-Policy", []string{"same-origin"}},
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			for _, s := range set {
				h[s.key] = s.value
			}
			return next(c)
		}
	}
}

// errorHandler answers every error with the status its kind calls for: on
// the API (and /healthz) api.md's {"error": "…"}, on every other route a page
// in the reader's language with a way back. An unexpected error is logged
// and answered 500 without its details.
func errorHandler(log *slog.Logger, page func(c echo.Context, status int, err error) error,
	say func(r *http.Request, err error, english string) string) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		status, msg := statusOf(err)
		if status >= 500 {
			logFailed(log, c, err)
		}
		setRetryAfter(c, err)
		if c.Request().Method == http.MethodHead {
			_ = c.NoContent(status)
			return
		}
		if !isAPI(c.Request().URL.Path) {
			if perr := page(c, status, err); perr == nil {
				return
			} else {
				log.Error("error page failed", "route", c.Path(), "err", withoutKeys(c, perr))
			}
			if c.Response().Committed {
				return
			}
		}
		c.Response().Header().Add(echo.HeaderVary, "Accept-Language")
		_ = c.JSON(status, map[string]string{"error": say(c.Request(), err, msg)})
	}
}

// logFailed logs a request the server could not answer. A store that
// stopped writing said once what happened and what to do: each request it
// refuses then is a short line, not that paragraph again.
// A game's or group's id is its key: the line names the route, and the
// error its text with the ids of the path taken out, as the access log
// does.
func logFailed(log *slog.Logger, c echo.Context, err error) {
	if errors.Is(err, events.ErrFileGone) {
		log.Warn("request refused: the store stopped writing, as logged when it stopped", "method", c.Request().Method, "route", c.Path())
		return
	}
	log.Error("request failed", "method", c.Request().Method, "route", c.Path(), "err", withoutKeys(c, err))
}

// withoutKeys is err's text with each of the path's parameters (a game's
// id, a read-only key) given by its name instead, ":id".
func withoutKeys(c echo.Context, err error) string {
	msg := err.Error()
	for i, v := range c.ParamValues() {
		if i < len(c.ParamNames()) && len(v) >= 8 {
			msg = strings.ReplaceAll(msg, v, ":"+c.ParamNames()[i])
		}
	}
	return msg
}

// isAPI tells the routes that answer JSON, errors included.
func isAPI(path string) bool {
	switch path {
	case "/api", "/healthz", "/livez", "/readyz":
		return true
	}
	return strings.HasPrefix(path, "/api/")
}

// errReadOnlyLink is a write sent to a read-only link.
var errReadOnlyLink = errors.New("this is a read-only link: it reads and never writes; to write, use the game's or group's own id")

// readOnlyLinksRead answers a write to /api/r/… 405 before the link's
// token is resolved (which would answer 404 "no game" for a group's link):
// its routes take only GET. A middleware of every route, so that the
// answer has the security headers.
func readOnlyLinksRead(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if strings.HasPrefix(r.URL.Path, "/api/r/") && r.Method != http.MethodGet && r.Method != http.MethodHead {
			c.Response().Header().Set(echo.HeaderAllow, "GET, HEAD")
			return errReadOnlyLink
		}
		return next(c)
	}
}

// retryAfter is the Retry-After of a 503 that passes by itself: a
// database out of reach, a save whose outcome is unknown, a server
// restarting. A PostgreSQL failover takes about ten seconds (docs/hosting.md,
// "Highly available"); a client sending again every two finds the
// new primary soon after it takes writes.
const retryAfter = "2"

// retryAfterStopped is the Retry-After of a store that stopped writing (a
// SQLite file deleted or replaced while it served): it writes again only
// once whoever runs the server has restarted it, which no client can
// hurry and the server cannot foresee. So it is how often asking again
// is worth it, not when the store is back: a person takes minutes to
// notice, read the log and restart, and each try before that is refused
// and logged.
const retryAfterStopped = "60"

// setRetryAfter tells a client when to send again what a 503 refused:
// soon for what passes by itself, after a minute for a store that waits
// on its operator.
func setRetryAfter(c echo.Context, err error) {
	switch {
	case errors.Is(err, events.ErrFileGone):
		c.Response().Header().Set("Retry-After", retryAfterStopped)
	case errors.Is(err, events.ErrUnavailable), errors.Is(err, events.ErrOutcomeUnknown), errors.Is(err, events.ErrClosed):
		c.Response().Header().Set("Retry-After", retryAfter)
	}
}

func statusOf(err error) (int, string) {
	var he *echo.HTTPError
	if pe, ok := problem.As(err); ok {
		switch {
		case pe.Kind == problem.NotFound:
			return http.StatusNotFound, pe.Error()
		case pe.Kind == problem.Conflict:
			return http.StatusConflict, pe.Error()
		case pe.Malformed:
			return http.StatusBadRequest, pe.Error()
		}
		return http.StatusUnprocessableEntity, pe.Error()
	}
	switch {
	case errors.Is(err, events.ErrDiskFull):
		return http.StatusInsufficientStorage, "the server's disk is full; nothing was recorded"
	case errors.Is(err, events.ErrFileGone):
		// Trying again cannot help: whoever runs the server must.
		return http.StatusServiceUnavailable, "the server cannot save right now, so this may not have been saved (whoever runs the server finds why in its log): " +
			"once it is back, send this again with the same Idempotency-Key (which records it at most once), or read the game before sending it without one"
	case errors.Is(err, events.ErrOutcomeUnknown):
		return http.StatusServiceUnavailable, "the database stopped answering while this was being saved, so it may or may not have been saved: " +
			"send it again with the same Idempotency-Key (which records it at most once), or read the game before sending it without one"
	case errors.Is(err, events.ErrClosed):
		// The server is stopping (a restart): nothing was written, and
		// the same request succeeds once it is back.
		return http.StatusServiceUnavailable, "the server is stopping; nothing was changed: try again in a moment"
	case errors.Is(err, events.ErrUnavailable):
		return http.StatusServiceUnavailable, "the server's database does not answer just now; nothing was changed: try again in a moment"
	case errors.Is(err, errBusy):
		return busyStatus, errBusy.Error()
	case errors.Is(err, errTooManyConns):
		return http.StatusTooManyRequests, errTooManyConns.Error()
	case errors.Is(err, errCrossSite), errors.Is(err, errWrongHost):
		return http.StatusForbidden, err.Error()
	case errors.Is(err, errReadOnlyLink):
		return http.StatusMethodNotAllowed, err.Error()
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusRequestEntityTooLarge:
			return he.Code, fmt.Sprintf("the request body is larger than %d KiB, the most any request to tappbook takes", MaxBody>>10)
		case http.StatusNotFound:
			return he.Code, "there is no such page or endpoint; see docs/api.md"
		case http.StatusMethodNotAllowed:
			return he.Code, "this endpoint does not take that method; see docs/api.md"
		}
		if m, ok := he.Message.(string); ok {
			return he.Code, m
		}
		return he.Code, http.StatusText(he.Code)
	}
	return http.StatusInternalServerError, "something went wrong on the server; nothing was changed, try again"
}

// createLimit limits how fast one address starts games: a table starts one
// an evening, a script that floods the database is refused with 429.
func createLimit(burst int, every time.Duration) echo.MiddlewareFunc {
	if burst <= 0 {
		burst = 1000
	}
	if every <= 0 {
		every = time.Second
	}
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Every(every), Burst: burst, ExpiresIn: 10 * time.Minute}),
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			// One more may start after every (a second by default).
			wait := max(1, int(math.Ceil(every.Seconds())))
			c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
			return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf(
				"too many games and groups started from this address in a short time; the next can be started in %d s (Retry-After)", wait))
		},
	})
}
