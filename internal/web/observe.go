package web

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are what /metrics shows of the web server (--metrics-addr).
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	deals    prometheus.Counter
	streams  prometheus.Gauge
}

// NewMetrics registers the web server's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tappbook_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status."}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "tappbook_http_request_duration_seconds",
			Help:    "Time from a request's start to its answer's end, by route pattern (a live stream: while it was open).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10, 60}}, []string{"route"}),
		deals: prometheus.NewCounter(prometheus.CounterOpts{Name: "tappbook_deals_recorded_total",
			Help: "Requests recording a deal that succeeded (API or page; a repeat with the same Idempotency-Key counts again)."}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Name: "tappbook_live_streams",
			Help: "Live streams (server-sent events) open now."}),
	}
	reg.MustRegister(m.requests, m.latency, m.deals, m.streams)
	return m
}

// dealRoute tells the route patterns that record a deal.
func dealRoute(route string) bool {
	switch route {
	case "/api/games/:id/hands", "/api/games/:id/deal/count", "/g/:id/record":
		return true
	}
	return false
}

// streamOpened counts a live stream until the function it gives is called.
func (m *Metrics) streamOpened() func() {
	if m == nil {
		return func() {}
	}
	m.streams.Inc()
	return m.streams.Dec
}

// observe writes the access log, a line per request, and counts it: the
// route's pattern stands for its address, so that neither names a game's
// id (its capability), and every answer carries the X-Request-Id the line
// has. A request id a trusted proxy sends is kept. The client is the
// address the per-client limits count (ipExtractor): the phone a trusted
// proxy names, else whoever connected, never a header anyone could send.
func observe(log *slog.Logger, m *Metrics, reach Reach) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			req := c.Request()
			id := req.Header.Get(echo.HeaderXRequestID)
			if !reach.trusts(req.RemoteAddr) || !plainID(id) {
				id = newRequestID()
			}
			c.Response().Header().Set(echo.HeaderXRequestID, id)
			if err := next(c); err != nil {
				c.Error(err) // answered here, so that the line has its status
			}
			route := c.Path()
			if route == "" {
				route = "unmatched"
			}
			res := c.Response()
			took := time.Since(start)
			log.LogAttrs(req.Context(), slog.LevelInfo, "request", slog.String("method", req.Method),
				slog.String("route", route), slog.Int("status", res.Status), slog.Duration("took", took),
				slog.Int64("bytes", res.Size), slog.String("client_ip", c.RealIP()), slog.String("request_id", id))
			if m != nil {
				m.requests.WithLabelValues(route, req.Method, strconv.Itoa(res.Status)).Inc()
				m.latency.WithLabelValues(route).Observe(took.Seconds())
				if req.Method == http.MethodPost && res.Status < 400 && dealRoute(route) {
					m.deals.Inc()
				}
			}
			return nil
		}
	}
}

// plainID is a request id worth keeping: short, printable ASCII.
func plainID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if r <= ' ' || r > '~' {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	var id [16]byte
	hex.Encode(id[:], b[:])
	return string(id[:])
}
