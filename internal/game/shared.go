package game

import (
	"context"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// Several servers, one history. On a store that several servers share
// (events.Watcher: PostgreSQL), another server may append to a game this
// one holds in memory. So that no request is answered from a stale game:
//   - before a game held in memory is read or commanded, its version as
//     stored is checked, and the game folded afresh when another server
//     moved it (catchUp); the append at the expected version still makes
//     racing commands one winner and a 409;
//   - every append, by any server, is announced (LISTEN/NOTIFY); the
//     service folds the game afresh if it holds it, and tells the phones
//     following it live here (changed).
// On SQLite, one server owns the file: none of this runs.

// share follows the store's appends when other servers share it.
func (s *Service) share() {
	w, ok := s.store.(events.Watcher)
	if !ok {
		return
	}
	s.shared = true
	w.Watch(s.changed) // ends when the store is closed
}

// catchUp folds the entry's game afresh when the stored stream is at
// another version than the one in memory. It reads the database with no
// lock held, so that a reader never waits for another request's append,
// and publishes what it folded only if nothing newer was published
// meanwhile.
func (s *Service) catchUp(ctx context.Context, id string, e *entry) error {
	if !s.shared {
		return nil
	}
	st := e.state.Load()
	if st.Damaged != nil {
		return nil // read as far as it holds; its stored version is past that
	}
	v, err := s.store.StreamVersion(ctx, id)
	if err != nil {
		return fmt.Errorf("game %s: %w", id, err)
	}
	if v == st.Version {
		return nil
	}
	// Readers that find the game moved fold it once between them, with
	// no one's deadline (a phone that gives up does not fail the others);
	// a fold begun before the version this reader read is not enough.
	var fresh *tapp.State
	select {
	case r := <-s.refolds.DoChan(id, func() (any, error) { return s.fold(context.WithoutCancel(ctx), id) }):
		if r.Err != nil {
			return r.Err
		}
		fresh = r.Val.(*tapp.State)
	case <-ctx.Done():
		return ctx.Err() // this reader gave up; the fold goes on for the others
	}
	if fresh.Version < v {
		if fresh, err = s.fold(ctx, id); err != nil {
			return err
		}
	}
	s.publish(e, fresh)
	return nil
}

// changed is told of an append to a stream by any server (version 0 with
// no stream: appends may have been missed, every game may have moved). It
// runs on the one goroutine that listens for every game's notices, so it
// neither waits for a game's lock nor reads the database there: it tells
// the followers, and whoever reads the game next folds it afresh
// (catchUp).
func (s *Service) changed(stream string, version int64) {
	if stream != "" {
		if e, ok := s.games.held(stream); ok {
			s.tell(stream, e, version)
		} else {
			s.live.publish(stream, version) // not in memory here: its followers load it afresh
		}
		return
	}
	held := s.games.all()
	go func() {
		for id, e := range held {
			if v, err := s.store.StreamVersion(context.Background(), id); err == nil {
				s.tell(id, e, v)
			} // a failure leaves the game to the next request's check
		}
	}()
}

// tell tells the game's followers here of a version they were not told
// of yet: a server's own append is announced back to it, and told once.
func (s *Service) tell(id string, e *entry, version int64) {
	for {
		told := e.told.Load()
		if version <= told {
			return
		}
		if e.told.CompareAndSwap(told, version) {
			s.live.publish(id, version)
			return
		}
	}
}
