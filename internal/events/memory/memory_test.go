package memory_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/memory"
	"tappbook/internal/events/storetest"
)

// The store suite in memory: the same contract the engines on disk keep.
func TestStoreSuite(t *testing.T) { storetest.Run(t, &harness{data: map[string]*memory.Data{}}) }

// harness keeps each store's Data by name, so that opening a name again is
// a restart.
type harness struct {
	mu   sync.Mutex
	data map[string]*memory.Data
}

func (h *harness) Fresh(t *testing.T) string { return filepath.Join(t.TempDir(), "store") }

func (h *harness) Open(_ context.Context, loc string, opt storetest.Options) (events.Engine, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.data[loc]
	if d == nil {
		d = &memory.Data{}
		h.data[loc] = d
	}
	return memory.Open(d, memory.Options{Now: opt.Now, KeyTTL: opt.KeyTTL}), nil
}
