package bench

import (
	"context"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/tapp"
)

// RebuildAll folds every game in the store from its events and hands each
// to fn once its last event is folded. The events are read in one pass in
// stored order (a snapshot: appends made meanwhile are not seen); with
// more than one worker, the games are folded on workers goroutines, each
// game always on the same one, so that reading and folding run side by
// side. fn may be called from several workers at once; the first error
// stops the rest.
func RebuildAll(ctx context.Context, store events.Engine, workers int, fn func(*tapp.State) error) error {
	if workers <= 1 {
		// The fold copies what it keeps of the payloads ReplayAll lends.
		f := folder{games: map[string]*tapp.Folder{}, done: fn}
		return store.ReplayAll(ctx, f.apply)
	}
	grp, ctx := errgroup.WithContext(ctx)
	l := newLanes(workers)
	for i := range l.ch {
		grp.Go(func() error { return l.fold(i, fn) })
	}
	grp.Go(func() error { return l.read(ctx, store) })
	return grp.Wait()
}

// lanes carry the events from the reader to the workers. A game goes to
// the lane with the least work waiting when its first event is read, and
// stays there. A game's events mostly lie together in the log (an evening
// is recorded in one go), so a fixed spread such as a hash left one worker
// folding a long game while the other idled. The lanes hold a few games'
// worth of events, so the reader can read ahead into the other.
type lanes struct {
	ch      []chan *batch
	waiting []atomic.Int64 // events sent to a lane and not yet folded
	// A folded batch goes back to the reader to be filled again, rather
	// than to the collector.
	spare chan *batch
	// The reader's alone:
	pending []*batch       // each lane's batch being filled
	laneOf  map[string]int // the games being read, and their lanes
}

func newLanes(workers int) *lanes {
	const depth = 16
	l := &lanes{ch: make([]chan *batch, workers), waiting: make([]atomic.Int64, workers),
		spare: make(chan *batch, workers*(depth+2)), pending: make([]*batch, workers), laneOf: map[string]int{}}
	for i := range l.ch {
		l.ch[i] = make(chan *batch, depth)
		l.pending[i] = new(batch)
	}
	return l
}

// fold folds lane i's events until the reader closes it.
func (l *lanes) fold(i int, fn func(*tapp.State) error) error {
	f := folder{games: map[string]*tapp.Folder{}, done: fn}
	for b := range l.ch[i] {
		for _, r := range b.evs {
			if err := f.apply(r.ev, r.last); err != nil {
				return err // cancels ctx, which stops the reader
			}
		}
		l.waiting[i].Add(-int64(len(b.evs)))
		b.evs, b.buf = b.evs[:0], b.buf[:0]
		l.spare <- b // never blocks: it holds every batch there is
	}
	return nil
}

// read reads every event in stored order into the lanes, and closes them.
func (l *lanes) read(ctx context.Context, store events.Engine) error {
	defer func() {
		for _, c := range l.ch {
			close(c)
		}
	}()
	err := store.ReplayAll(ctx, func(ev events.Event, last bool) error {
		i := l.laneFor(ev.Stream)
		if last {
			delete(l.laneOf, ev.Stream)
		}
		if l.pending[i].add(ev, last) {
			return l.send(ctx, i)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range l.pending {
		if len(l.pending[i].evs) > 0 {
			if err := l.send(ctx, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// laneFor is stream's lane: the one it is on, or the least loaded.
func (l *lanes) laneFor(stream string) int {
	i, ok := l.laneOf[stream]
	if ok {
		return i
	}
	load := func(j int) int64 { return l.waiting[j].Load() + int64(len(l.pending[j].evs)) }
	for j := range l.waiting {
		if load(j) < load(i) {
			i = j
		}
	}
	l.laneOf[stream] = i
	return i
}

// send hands lane i's pending batch to its worker and takes a spare one.
func (l *lanes) send(ctx context.Context, i int) error {
	l.waiting[i].Add(int64(len(l.pending[i].evs)))
	select {
	case l.ch[i] <- l.pending[i]:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case l.pending[i] = <-l.spare:
	default:
		l.pending[i] = new(batch)
	}
	return nil
}

// batch is events handed to a lane together: a channel send per event
// would cost more than folding it. The payloads ReplayAll lends are copied
// into the batch's own bytes, which are reused once the batch is folded
// (the fold copies what it keeps).
type batch struct {
	evs []replayed
	buf []byte
}

// batchSize is the number of events in a batch.
const batchSize = 256

// add adds an event to the batch, saying whether the batch is full.
func (b *batch) add(ev events.Event, last bool) bool {
	start := len(b.buf)
	// Growing buf leaves the events before on the old array, which they
	// keep.
	b.buf = append(b.buf, ev.Data...)
	ev.Data = b.buf[start:len(b.buf):len(b.buf)]
	b.evs = append(b.evs, replayed{ev, last})
	return len(b.evs) == batchSize
}

type replayed struct {
	ev   events.Event
	last bool
}

// folder folds the games of one lane, handing each on at its last event.
type folder struct {
	games map[string]*tapp.Folder
	done  func(*tapp.State) error
	// The game of the last event, whose next events mostly follow it.
	lastID string
	last   *tapp.Folder
}

func (f *folder) apply(ev events.Event, last bool) error {
	g := f.last
	if ev.Stream != f.lastID || g == nil {
		g = f.games[ev.Stream]
		if g == nil {
			g = tapp.NewFolder(ev.Stream)
			f.games[ev.Stream] = g
		}
		f.lastID, f.last = ev.Stream, g
	}
	p, err := tapp.DecodeForFold(ev.Type, ev.Data, g.Peek().Setup.Players)
	if err != nil {
		return fmt.Errorf("rebuild game %s: event %d: %w", ev.Stream, ev.Version, err)
	}
	if err := g.Apply(game.Stored(ev, p)); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	if !last {
		return nil
	}
	delete(f.games, ev.Stream)
	f.lastID, f.last = "", nil
	return f.done(g.State())
}
