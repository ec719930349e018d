package game

import (
	"sync"
	"sync/atomic"
)

// memo keeps streams folded in memory (games, groups): the most recently
// used, up to a budget of weight (a game weighs its deals, a group one), so
// memory grows with what is being played, not with the history. A slot's
// lock serialises the stream's commands, so each decides on the state the
// previous one left; readers take the state without it.
type memo[S any] struct {
	weigh   func(*S) int
	version func(*S) int64 // how far a state has read its stream

	mu     sync.Mutex
	slots  map[string]*slot[S]
	tick   uint64 // a clock of uses, for least recently used
	weight int    // of the states in memory
	budget int
}

// slot is one stream in memory. users, used and weight belong to memo.mu.
type slot[S any] struct {
	key    string
	mu     sync.Mutex
	state  atomic.Pointer[S]
	users  int    // requests holding it: never let go while > 0
	used   uint64 // when it was last taken
	weight int
	// told is the last version followers were told of (see shared.go).
	told atomic.Int64
}

func newMemo[S any](budget int, weigh func(*S) int, version func(*S) int64) *memo[S] {
	return &memo[S]{weigh: weigh, version: version, slots: map[string]*slot[S]{}, budget: budget}
}

// take hands out a stream's slot, empty the first time; the caller gives
// it back with release, or with drop when it could not fold the stream.
func (m *memo[S]) take(id string) *slot[S] {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.slots[id]
	if !ok {
		e = &slot[S]{key: id}
		m.slots[id] = e
	}
	e.users++
	m.tick++
	e.used = m.tick
	return e
}

// drop gives back a slot whose stream could not be folded, letting it go
// if nobody else holds it.
func (m *memo[S]) drop(id string, e *slot[S]) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e.users--
	if e.users == 0 && m.slots[id] == e && e.state.Load() == nil {
		delete(m.slots, id)
	}
}

// release gives back a slot take handed out.
func (m *memo[S]) release(e *slot[S]) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e.users--
	m.evict()
}

// publish makes st the slot's state, for every reader from now on, unless
// a state newer than st was published meanwhile (a reader that folded
// afresh and a command that appended can finish in either order).
func (m *memo[S]) publish(e *slot[S], st *S) {
	for {
		cur := e.state.Load()
		if cur != nil && m.version(cur) > m.version(st) {
			return
		}
		if e.state.CompareAndSwap(cur, st) {
			break
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.slots[e.key] != e {
		return // let go of meanwhile: its weight is no longer counted
	}
	w := m.weigh(e.state.Load()) // what the slot holds now: a newer state may have won meanwhile
	m.weight += w - e.weight
	e.weight = w
	m.evict()
}

// evict lets go of the least recently used streams nobody holds until the
// memory fits the budget. Under m.mu.
func (m *memo[S]) evict() {
	for m.weight > m.budget {
		var oldest *slot[S]
		var oldestID string
		for id, e := range m.slots {
			if e.users == 0 && (oldest == nil || e.used < oldest.used) {
				oldest, oldestID = e, id
			}
		}
		if oldest == nil {
			return
		}
		delete(m.slots, oldestID)
		m.weight -= oldest.weight
	}
}

// held gives the slot of a stream in memory, if it is.
func (m *memo[S]) held(id string) (*slot[S], bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.slots[id]
	return e, ok
}

// all gives every slot in memory.
func (m *memo[S]) all() map[string]*slot[S] {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]*slot[S], len(m.slots))
	for id, e := range m.slots {
		out[id] = e
	}
	return out
}
