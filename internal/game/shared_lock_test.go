package game

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// gate holds a store call, once shut, until the test opens it: a call on
// its way to a database server. arrived says a call is held.
type gate struct {
	shut    atomic.Bool
	once    bool // shut again after one call has passed
	arrived chan struct{}
	open    chan struct{}
}

func newGate(once bool) *gate {
	return &gate{once: once, arrived: make(chan struct{}, 4), open: make(chan struct{})}
}

// pass holds the caller while the gate is shut, until it is opened or ctx
// ends.
func (g *gate) pass(ctx context.Context) error {
	if g.once {
		if !g.shut.CompareAndSwap(true, false) {
			return nil
		}
	} else if !g.shut.Load() {
		return nil
	}
	g.arrived <- struct{}{}
	select {
	case <-g.open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sharedStore is a store other servers share (a Watcher) whose appends,
// and whose replays before or after reading, can be held at a gate.
type sharedStore struct {
	events.Engine
	appends, beforeReplay, afterReplay *gate
	notify                             func(string, int64)
}

func (s *sharedStore) Append(ctx context.Context, stream string, v int64, k events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	if s.appends != nil {
		s.appends.pass(context.WithoutCancel(ctx))
	}
	return s.Engine.Append(ctx, stream, v, k, evs...)
}

func (s *sharedStore) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	if s.beforeReplay != nil {
		if err := s.beforeReplay.pass(ctx); err != nil {
			return err
		}
	}
	err := s.Engine.Replay(ctx, stream, fn)
	if s.afterReplay != nil {
		s.afterReplay.pass(context.WithoutCancel(ctx))
	}
	return err
}

func (s *sharedStore) Watch(fn func(string, int64)) func() { s.notify = fn; return func() {} }

// sharedGame is a Zuger game on store, held in memory by svc (as a page
// following it does); other is another server writing to the same
// database, not told of what svc does.
func sharedGame(t *testing.T, store *sharedStore) (svc, other *Service, st *sqlite.Store, g *tapp.State) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "g.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	store.Engine = st
	svc, other = New(store), New(st)
	if g, err = svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snapshot(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	return svc, other, st, g
}

// While a deal is on its way to a shared database, the game's readers and
// the listener for every game's notices go on: neither waits for the
// append ("nothing writes to the network while holding a lock" is kept by
// not making others wait for one).
func TestSharedReadersDoNotWaitForAnAppend(t *testing.T) {
	ctx := context.Background()
	store := &sharedStore{appends: newGate(false)}
	svc, _, _, g := sharedGame(t, store)
	store.appends.shut.Store(true)
	recorded := make(chan error, 1)
	go func() {
		_, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, "")
		recorded <- err
	}()
	<-store.appends.arrived // the deal is on its way, the game's command lock held

	within := func(what string, fn func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { fn(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			close(store.appends.open)
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
	close(store.appends.open)
	if err := <-recorded; err != nil {
		t.Fatal(err)
	}
	s, err := svc.Snapshot(ctx, g.ID)
	if err != nil || len(s.Hands()) != 1 {
		t.Fatalf("after the append: %v deals, %v; want 1", s, err)
	}
}

// One reader gives up (its phone went away) while it folds a game another
// server moved; a second reader that joined the fold must not fail with
// the first one's cancellation.
func TestSharedFoldNotCancelledByAnotherReader(t *testing.T) {
	ctx := context.Background()
	store := &sharedStore{beforeReplay: newGate(false)}
	svc, other, _, g := sharedGame(t, store)
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	store.beforeReplay.shut.Store(true)
	ctx1, cancel1 := context.WithCancel(ctx)
	r1 := make(chan error, 1)
	go func() { _, err := svc.Snapshot(ctx1, g.ID); r1 <- err }()
	<-store.beforeReplay.arrived
	r2 := make(chan error, 1)
	go func() { _, err := svc.Snapshot(ctx, g.ID); r2 <- err }()
	time.Sleep(200 * time.Millisecond) // reader 2 joins the fold in flight
	cancel1()
	if err := <-r1; err == nil {
		t.Error("reader 1 gave up, yet was answered as if it had waited")
	}
	close(store.beforeReplay.open)
	if err := <-r2; err != nil {
		t.Errorf("reader 2, who did not give up, failed: %v", err)
	}
}

// A reader that starts after another server's append must see it, though
// a fold begun before that append is still under way.
func TestSharedReaderSeesWhatWasStoredBeforeIt(t *testing.T) {
	ctx := context.Background()
	store := &sharedStore{afterReplay: newGate(true)}
	svc, other, st, g := sharedGame(t, store)
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	store.afterReplay.shut.Store(true)
	go func() { _, _ = svc.Snapshot(ctx, g.ID) }()
	<-store.afterReplay.arrived // reader 1 has folded deal 1, not yet published
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	want, _ := st.StreamVersion(ctx, g.ID)
	r2 := make(chan int64, 1)
	go func() { s, _ := svc.Snapshot(ctx, g.ID); r2 <- s.Version }()
	time.Sleep(200 * time.Millisecond) // reader 2 joins the fold in flight
	close(store.afterReplay.open)
	if got := <-r2; got != want {
		t.Errorf("a reader that began after version %d was stored was answered with version %d", want, got)
	}
}
