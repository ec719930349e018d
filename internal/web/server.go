// Package web serves tappbook over HTTP: the JSON API of ../shared/api.md and
// the health check. Handlers stay thin: decode, call the game service,
// encode.
package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
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
	staticfiles "tappbook/static"
)

// MaxBody is api.md's limit on a request body.
const MaxBody = 64 << 10

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
// Every POST, PUT and DELETE from another site is refused by Go's
// cross-origin protection, which reads the browser's Sec-Fetch-Site and
// Origin headers: it needs no tokens in forms and works over plain HTTP on a
// LAN address; scripts such as curl send neither header and pass.
func New(svc *game.Service, log *slog.Logger) (*Server, error) {
	refusals, err := game.Refusals()
	if err != nil {
		return nil, err
	}
	bundle, err := i18n.Load(refusals, payout.EnglishPhrases())
	if err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The client is the address that connected: a header saying otherwise
	// is not believed (tappbook runs on a home network, not behind a proxy).
	e.IPExtractor = echo.ExtractIPDirect()
	e.HTTPErrorHandler = errorHandler(log)
	e.Use(middleware.Recover())
	e.Use(securityHeaders)
	e.Use(middleware.BodyLimit("64K"))
	e.Use(checkIdempotencyKey)
	// Pages and assets are compressed; a live stream must flush as it goes,
	// and the API's answers are too small to gain from it.
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{Skipper: func(c echo.Context) bool {
		return strings.HasSuffix(c.Path(), "/live") || strings.HasPrefix(c.Request().URL.Path, "/api/")
	}}))
	e.GET("/healthz", func(c echo.Context) error {
		// Not ready while the store's writes fail (a full disk): it
		// recovers by itself once a write succeeds again.
		if h := svc.Store().Health(); !h.OK {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "degraded", "error": h.Problem})
		}
		// A game whose stored history is damaged is served read-only; the
		// server still serves every other game, so it stays ready.
		if damaged := svc.Damaged(); len(damaged) > 0 {
			var problems []string
			for id, d := range damaged {
				problems = append(problems, fmt.Sprintf("game %s: event %d (version %d): %s", id, d.Seq, d.Version, d.Why))
			}
			slices.Sort(problems)
			return c.JSON(http.StatusOK, map[string]any{"status": "degraded", "damaged": problems})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	static := e.Group("/static", func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set("Cache-Control", "public, max-age=3600")
			return next(c)
		}
	})
	static.StaticFS("/", staticfiles.FS)
	creations := createLimit()
	api{svc: svc, createLimit: creations}.routes(e)
	srv := &Server{streams: make(chan struct{}), pages: newPageCache(pageCacheBytes)}
	ui{svc: svc, i18n: bundle, streams: srv.streams, createLimit: creations, tables: srv.pages}.routes(e)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":"this request came from another site and was refused; use tappbook's own pages"}` + "\n"))
	}))
	srv.Handler = cop.Handler(e)
	return srv, nil
}

// securityHeaders: no inline script or style may run, no site may frame a
// page, and no page tells another site its address (a game's address is
// its key).
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		return next(c)
	}
}

// errorHandler answers every error with api.md's {"error": "…"} and the
// status its kind calls for; an unexpected one is logged and answered 500
// without its details.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		status, msg := statusOf(err)
		if status >= 500 {
			log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
		}
		if c.Request().Method == http.MethodHead {
			_ = c.NoContent(status)
			return
		}
		_ = c.JSON(status, map[string]string{"error": msg})
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
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusRequestEntityTooLarge:
			return he.Code, fmt.Sprintf("the request body is larger than %d KiB; send one deal at a time", MaxBody>>10)
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

// decode reads a JSON body strictly: malformed JSON or a wrong type is a 400,
// an unknown field a 422. An empty body is allowed only where every field is
// optional.
func decode(c echo.Context, v any, emptyOK bool) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return he
		}
		return echo.NewHTTPError(http.StatusBadRequest, "the request body could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if emptyOK {
			return nil
		}
		return malformed("the request body is empty; send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeErr(err)
	}
	if dec.More() {
		return malformed("the request body holds more than one JSON value")
	}
	return nil
}

func malformed(msg string) error { return echo.NewHTTPError(http.StatusBadRequest, msg) }

func unknownField(name string) error { return payout.UnknownField(name) }

func decodeErr(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return malformed(fmt.Sprintf("the request body is not valid JSON (at byte %d): %v", syn.Offset, err))
	case errors.As(err, &typ):
		field := strings.TrimPrefix(typ.Field, "Record.")
		if field == "" {
			return malformed(fmt.Sprintf("the request body must be a JSON object, not %s", typ.Value))
		}
		return malformed(fmt.Sprintf("%s must be %s, not %s", field, jsonKind(typ.Type.String()), typ.Value))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return unknownField(strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return malformed("the request body is cut short: it is not complete JSON")
	}
	return malformed("the request body could not be read as JSON: " + err.Error())
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map"), strings.Contains(goType, "Score"):
		return "an object"
	case strings.Contains(goType, "int"):
		return "a whole number"
	case strings.HasSuffix(goType, "string"):
		return "a string"
	case strings.Contains(goType, "bool"):
		return "true or false"
	}
	return "of another type"
}

// createLimit limits how fast one address starts games: a table starts one
// an evening, a script that floods the database is refused with 429.
func createLimit() echo.MiddlewareFunc {
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Every(time.Minute / 6), Burst: 20, ExpiresIn: 10 * time.Minute}),
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			return echo.NewHTTPError(http.StatusTooManyRequests, "too many games started from this address; wait a few minutes")
		},
	})
}
