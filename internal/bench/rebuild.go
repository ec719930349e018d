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
	// A game goes to the lane with the least work waiting when its first
	// event is read, and stays there. A game's events mostly lie together
	// in the log (an evening is recorded in one go), so a fixed spread such
	// as a hash left one worker folding a long game while the other idled.
	// The lanes hold a few games' worth of events, so the reader can read
	// ahead into the other.
	const depth = 16
	lanes := make([]chan *batch, workers)
	waiting := make([]atomic.Int64, workers) // events sent to a lane and not yet folded
	// A folded batch goes back to the reader to be filled again, rather
	// than to the collector.
	spare := make(chan *batch, workers*(depth+2))
	for i := range lanes {
		lanes[i] = make(chan *batch, depth)
		grp.Go(func() error {
			f := folder{games: map[string]*tapp.Folder{}, done: fn}
			for b := range lanes[i] {
				for _, r := range b.evs {
					if err := f.apply(r.ev, r.last); err != nil {
						return err // cancels ctx, which stops the reader
					}
				}
				waiting[i].Add(-int64(len(b.evs)))
				b.evs, b.buf = b.evs[:0], b.buf[:0]
				spare <- b // never blocks: it holds every batch there is
			}
			return nil
		})
	}
	laneOf := map[string]int{} // the games being read, and their lanes
	pending := make([]*batch, workers)
	for i := range pending {
		pending[i] = new(batch)
	}
	send := func(i int) error {
		waiting[i].Add(int64(len(pending[i].evs)))
		select {
		case lanes[i] <- pending[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case pending[i] = <-spare:
		default:
			pending[i] = new(batch)
		}
		return nil
	}
	grp.Go(func() error {
		defer func() {
			for _, l := range lanes {
				close(l)
			}
		}()
		err := store.ReplayAll(ctx, func(ev events.Event, last bool) error {
			i, ok := laneOf[ev.Stream]
			if !ok {
				load := func(j int) int64 { return waiting[j].Load() + int64(len(pending[j].evs)) }
				for j := range waiting {
					if load(j) < load(i) {
						i = j
					}
				}
				laneOf[ev.Stream] = i
			}
			if last {
				delete(laneOf, ev.Stream)
			}
			if pending[i].add(ev, last) {
				return send(i)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range pending {
			if len(pending[i].evs) > 0 {
				if err := send(i); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return grp.Wait()
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
