package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"tappbook/cmd/tappbook/internal/clitest"
)

// Given --metrics-addr, /metrics on its own listener parses as Prometheus
// text and counts requests by route and status, latency, deals recorded
// and live streams open, with Go's profiles beside it (not on the app's
// address); --log-format json writes a JSON access line per
// request, with the route's pattern and no game id; healthcheck exits 0
// against the server and 1 against nothing.
func TestMetricsLogsAndHealthcheck(t *testing.T) {
	addr, metricsAddr := clitest.FreeAddr(t), clitest.FreeAddr(t)
	logs, stop := startServe(t, "--addr", addr, "--db", filepath.Join(t.TempDir(), "t.db"), "--mdns", "off",
		"--metrics-addr", metricsAddr, "--log-format", "json")
	base := "http://" + addr
	getUntil(t, http.DefaultClient, base+"/livez", logs).Body.Close()
	res, err := http.Post(base+"/api/games", "application/json", strings.NewReader(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var game struct{ ID string }
	json.NewDecoder(res.Body).Decode(&game)
	res.Body.Close()
	res, err = http.Post(base+"/api/games/"+game.ID+"/hands", "application/json", strings.NewReader(`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("a deal: %v %v", res, err)
	}
	res.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lreq, _ := http.NewRequestWithContext(ctx, "GET", base+"/g/"+game.ID+"/live", nil)
	live, err := http.DefaultClient.Do(lreq)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Body.Close()

	if err := run(ctx, []string{"healthcheck", "--url", base + "/readyz"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatalf("healthcheck of a ready server: %v", err)
	}
	if err := run(ctx, []string{"healthcheck", "--url", "http://" + clitest.FreeAddr(t) + "/readyz"}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Fatal("healthcheck of nothing succeeded")
	}

	res, err = http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	value := func(name string, labels map[string]string) float64 {
		f := families[name]
		if f == nil {
			t.Fatalf("/metrics has no %s", name)
		}
		for _, m := range f.Metric {
			if hasLabels(m, labels) {
				switch {
				case m.Counter != nil:
					return m.Counter.GetValue()
				case m.Gauge != nil:
					return m.Gauge.GetValue()
				case m.Histogram != nil:
					return float64(m.Histogram.GetSampleCount())
				}
			}
		}
		t.Fatalf("/metrics has no %s %v", name, labels)
		return 0
	}
	if v := value("tappbook_http_requests_total", map[string]string{"route": "/api/games/:id/hands", "method": "POST", "status": "201"}); v != 1 {
		t.Fatalf("deals answered 201: %v", v)
	}
	if v := value("tappbook_http_request_duration_seconds", map[string]string{"route": "/api/games"}); v != 1 {
		t.Fatalf("latencies of /api/games: %v", v)
	}
	if v := value("tappbook_deals_recorded_total", nil); v != 1 {
		t.Fatalf("deals recorded: %v", v)
	}
	if v := value("tappbook_live_streams", nil); v != 1 {
		t.Fatalf("live streams: %v", v)
	}
	// The store's group commits: the game and the deal, one after the
	// other, are two commits of one append each.
	for _, name := range []string{"tappbook_store_commits_total", "tappbook_store_commit_batch_appends", "tappbook_store_commit_seconds"} {
		if v := value(name, nil); v != 2 {
			t.Fatalf("%s: %v, want 2 (the game and its deal)", name, v)
		}
	}
	if f := families["tappbook_store_commit_batch_appends"].Metric[0].Histogram; f.GetSampleSum() != 2 {
		t.Fatalf("appends in the two commits: %v", f.GetSampleSum())
	}
	if v := value("tappbook_store_events_committed_total", nil); v < 2 {
		t.Fatalf("events committed: %v", v)
	}
	if r, err := http.Get(base + "/metrics"); err != nil || r.StatusCode != http.StatusNotFound {
		t.Fatalf("/metrics on the app's own address: %v %v", r, err)
	}
	// Go's profiles are beside /metrics, and only there.
	if r, err := http.Get("http://" + metricsAddr + "/debug/pprof/heap"); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("/debug/pprof/heap on the metrics address: %v %v", r, err)
	}
	if r, err := http.Get(base + "/debug/pprof/heap"); err != nil || r.StatusCode != http.StatusNotFound {
		t.Fatalf("/debug/pprof/heap on the app's own address: %v %v", r, err)
	}
	cancel()
	stop()

	seen, migrated := false, false
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if strings.Contains(line, game.ID) {
			t.Fatalf("a log line names the game's id: %s", line)
		}
		if l["msg"] == "request" && l["route"] == "/api/games/:id/hands" && l["status"] == float64(201) &&
			l["request_id"] != "" && l["bytes"].(float64) > 0 {
			seen = true
		}
		// The store's own lines are the server's, in its format.
		migrated = migrated || l["msg"] == "migrated the database" && l["schema_version"] != nil
	}
	if !seen || !migrated {
		t.Fatalf("no access line for the deal, or no migration line:\n%s", logs.String())
	}
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.Label {
		if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
			n++
		}
	}
	return n == len(want)
}
