package game

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/payout"
)

// gatedStore is a store other servers share (it is a Watcher) whose
// appends, once gated, wait until the test lets them through: an append
// on its way to a database server.
type gatedStore struct {
	events.Engine
	gated   atomic.Bool
	arrived chan struct{}
	open    chan struct{}
	notify  func(string, int64)
}

func (g *gatedStore) Append(ctx context.Context, stream string, v int64, k events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	if g.gated.Load() {
		g.arrived <- struct{}{}
		<-g.open
	}
	return g.Engine.Append(ctx, stream, v, k, evs...)
}

func (g *gatedStore) Watch(fn func(string, int64)) func() { g.notify = fn; return func() {} }

// While a deal is on its way to a shared database, the game's readers and
// the listener for every game's notices go on: neither waits for the
// append ("nothing writes to the network while holding a lock" is kept by
// not making others wait for one).
func TestSharedReadersDoNotWaitForAnAppend(t *testing.T) {
	ctx := context.Background()
	st, err := events.Open(ctx, filepath.Join(t.TempDir(), "g.db"), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	store := &gatedStore{Engine: st, arrived: make(chan struct{}), open: make(chan struct{})}
	svc := New(store)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snapshot(ctx, g.ID); err != nil { // held in memory, as a page following it does
		t.Fatal(err)
	}
	store.gated.Store(true)
	recorded := make(chan error, 1)
	go func() {
		_, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, "")
		recorded <- err
	}()
	<-store.arrived // the deal is on its way, the game's command lock held

	within := func(what string, fn func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { fn(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			close(store.open)
			t.Fatalf("%s waited for another request's append", what)
		}
	}
	within("reading the game", func() {
		if s, err := svc.Snapshot(ctx, g.ID); err != nil || s.Version != g.Version {
			t.Errorf("read while a deal is on its way: version %v, %v; want %d", s, err, g.Version)
		}
	})
	within("a notice of another server's append", func() { store.notify(g.ID, g.Version+1) })
	within("a notice that notices were missed", func() { store.notify("", 0) })
	close(store.open)
	if err := <-recorded; err != nil {
		t.Fatal(err)
	}
	s, err := svc.Snapshot(ctx, g.ID)
	if err != nil || len(s.Hands()) != 1 {
		t.Fatalf("after the append: %v deals, %v; want 1", s, err)
	}
}

// slowReplay: a shared store whose Replay, once gated, waits until released
// (or the caller's context ends).
type slowReplay struct {
	events.Engine
	gated   atomic.Bool
	arrived chan struct{}
	open    chan struct{}
}

func (g *slowReplay) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	if g.gated.Load() {
		g.arrived <- struct{}{}
		select {
		case <-g.open:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return g.Engine.Replay(ctx, stream, fn)
}
func (g *slowReplay) Watch(fn func(string, int64)) func() { return func() {} }

// One reader gives up (its phone went away) while it folds a game another
// server moved; a second reader that joined the fold must not fail with
// the first one's cancellation.
func TestSharedFoldNotCancelledByAnotherReader(t *testing.T) {
	ctx := context.Background()
	st, err := events.Open(ctx, filepath.Join(t.TempDir(), "g.db"), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	store := &slowReplay{Engine: st, arrived: make(chan struct{}, 4), open: make(chan struct{})}
	svc := New(store)
	other := New(st) // "another server" (not shared-aware, writes directly)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snapshot(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	store.gated.Store(true)
	ctx1, cancel1 := context.WithCancel(ctx)
	r1 := make(chan error, 1)
	go func() { _, err := svc.Snapshot(ctx1, g.ID); r1 <- err }()
	<-store.arrived
	r2 := make(chan error, 1)
	go func() { _, err := svc.Snapshot(ctx, g.ID); r2 <- err }()
	time.Sleep(200 * time.Millisecond) // reader 2 joins the fold in flight
	cancel1()
	if err := <-r1; err == nil {
		t.Error("reader 1 gave up, yet was answered as if it had waited")
	}
	close(store.open)
	if err := <-r2; err != nil {
		t.Errorf("reader 2, who did not give up, failed: %v", err)
	}
}

type lateReplay struct {
	events.Engine
	gated   atomic.Bool
	arrived chan struct{}
	open    chan struct{}
}

func (g *lateReplay) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	err := g.Engine.Replay(ctx, stream, fn)
	if g.gated.Load() {
		g.gated.Store(false)
		g.arrived <- struct{}{}
		<-g.open
	}
	return err
}
func (g *lateReplay) Watch(fn func(string, int64)) func() { return func() {} }

// A reader that starts after another server's append must see it.
func TestSharedReaderSeesWhatWasStoredBeforeIt(t *testing.T) {
	ctx := context.Background()
	st, err := events.Open(ctx, filepath.Join(t.TempDir(), "g.db"), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	store := &lateReplay{Engine: st, arrived: make(chan struct{}, 4), open: make(chan struct{})}
	svc := New(store)
	other := New(st)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snapshot(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	store.gated.Store(true)
	go func() { _, _ = svc.Snapshot(ctx, g.ID) }()
	<-store.arrived // reader 1 has folded deal 1, not yet published
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	want, _ := st.StreamVersion(ctx, g.ID)
	r2 := make(chan int64, 1)
	go func() { s, _ := svc.Snapshot(ctx, g.ID); r2 <- s.Version }()
	time.Sleep(200 * time.Millisecond)
	close(store.open)
	if got := <-r2; got != want {
		t.Errorf("a reader that began after version %d was stored was answered with version %d", want, got)
	}
}
