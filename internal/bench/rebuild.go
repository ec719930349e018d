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
		f := folder{games: map[string]*tapp.Folder{}, done: fn}
		kept := game.Arena{Size: keeperSize}
		return store.ReplayAll(ctx, func(ev events.Event, last bool) error {
			ev.Data = kept.Copy(ev.Data)
			return f.apply(ev, last)
		})
	}
	grp, ctx := errgroup.WithContext(ctx)
	// A game goes to the lane with the least work waiting when its first
	// event is read, and stays there. A game's events mostly lie together
	// in the log (an evening is recorded in one go), so a fixed spread such
	// as a hash left one worker folding a long game while the other idled.
	// The lanes hold a few games' worth of events, so the reader can read
	// ahead into the other.
	const depth = 16
	lanes := make([]chan []replayed, workers)
	waiting := make([]atomic.Int64, workers) // events sent to a lane and not yet folded
	// The reader batches events per lane: a channel send per event would
	// cost more than folding it. A folded batch goes back to the reader to
	// be filled again, rather than to the collector.
	const batchSize = 256
	spare := make(chan []replayed, workers*(depth+2))
	for i := range lanes {
		lanes[i] = make(chan []replayed, depth)
		grp.Go(func() error {
			f := folder{games: map[string]*tapp.Folder{}, done: fn}
			for batch := range lanes[i] {
				for _, r := range batch {
					if err := f.apply(r.ev, r.last); err != nil {
						return err // cancels ctx, which stops the reader
					}
				}
				waiting[i].Add(-int64(len(batch)))
				spare <- batch[:0] // never blocks: it holds every batch there is
			}
			return nil
		})
	}
	laneOf := map[string]int{} // the games being read, and their lanes
	// The payloads the reader is lent are copied into a lane's buffers, not
	// one allocation per event.
	pending := make([][]replayed, workers)
	bufs := make([]game.Arena, workers)
	for i := range bufs {
		bufs[i].Size = keeperSize
	}
	send := func(i int) error {
		waiting[i].Add(int64(len(pending[i])))
		select {
		case lanes[i] <- pending[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case pending[i] = <-spare:
		default:
			pending[i] = make([]replayed, 0, batchSize)
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
				load := func(j int) int64 { return waiting[j].Load() + int64(len(pending[j])) }
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
			ev.Data = bufs[i].Copy(ev.Data)
			pending[i] = append(pending[i], replayed{ev, last})
			if len(pending[i]) == batchSize {
				return send(i)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range pending {
			if len(pending[i]) > 0 {
				if err := send(i); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return grp.Wait()
}

// keeperSize is the size of the buffers ReplayAll's lent payloads are
// copied into (game.Arena), which the folds keep (a deal's record and
// explanation stay in its bytes): one allocation per buffer, not per event.
const keeperSize = 128 << 10

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
