package main

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// storeMetrics are the store's group commits on /metrics: the store hears
// of each commit (events.CommitObserver) without knowing of Prometheus.
type storeMetrics struct {
	commits prometheus.Counter
	events  prometheus.Counter
	batch   prometheus.Histogram
	took    prometheus.Histogram
}

func newStoreMetrics(reg prometheus.Registerer) *storeMetrics {
	m := &storeMetrics{
		commits: prometheus.NewCounter(prometheus.CounterOpts{Name: "tappbook_store_commits_total",
			Help: "Commits that made appends durable (group commit: one carries every append waiting)."}),
		events: prometheus.NewCounter(prometheus.CounterOpts{Name: "tappbook_store_events_committed_total",
			Help: "Events made durable by those commits."}),
		batch: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tappbook_store_commit_batch_appends",
			Help:    "Appends (requests) one commit carried.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64}}),
		took: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tappbook_store_commit_seconds",
			Help:    "A commit's time: SQLite's COMMIT (the fsync of the WAL), PostgreSQL's transaction from BEGIN to COMMIT's answer.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}}),
	}
	reg.MustRegister(m.commits, m.events, m.batch, m.took)
	return m
}

// Committed counts a commit (events.CommitObserver).
func (m *storeMetrics) Committed(appends, events int, commit time.Duration) {
	m.commits.Inc()
	m.events.Add(float64(events))
	m.batch.Observe(float64(appends))
	m.took.Observe(commit.Seconds())
}
