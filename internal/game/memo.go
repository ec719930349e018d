package game

import (
	"slices"
	"sync"
	"sync/atomic"
)

// memo keeps streams folded in memory (games, groups): the most recently
// used, up to a budget of weight (a game weighs the bytes it holds, a group one), so
// memory grows with what is being played, not with the history. A slot's
// lock serialises the stream's commands, so each decides on the state the
// previous one left; readers take the state without it.
//
// The budget adapts between a floor and a ceiling: a stream let go and
// written to again soon after (it is still among the ghosts, the streams
// let go most lately, and went a few rounds of uses ago) says more
// streams are in play than the budget holds, and each of their commands
// would fold a whole stream again; the budget then grows by that stream's
// weight. A reader of a stream let go (last week's evening on a group's
// page) is not play and grows nothing. Streams that are done with (an
// evening finished) are let go and never come back, so the budget stays
// at the floor, and the heap, whose size sets how often the collector
// runs, small. With no such miss for a while, it shrinks back by a
// sixteenth at a time.
type memo[S any] struct {
	weigh   func(*S) int
	version func(*S) int64 // how far a state has read its stream

	mu             sync.Mutex
	slots          map[string]*slot[S]
	tick           uint64 // a clock of uses, for least recently used
	weight         int    // of the states in memory
	budget         int
	floor, ceiling int               // the budget's bounds
	ghosts         map[string]uint64 // streams let go, with the tick they went at
	ghostOrder     []ghost           // the ghosts, oldest first (stale entries are skipped)
	changed        uint64            // the tick the budget last grew or shrank at
	decay          uint64            // uses without a miss after which it shrinks
}

// decayUses is how many uses without a miss on a ghost let the budget
// shrink by a sixteenth: a few seconds of 64 tables recording, weeks of a
// kitchen table.
const decayUses = 1 << 17

// slot is one stream in memory. users, used and weight belong to memo.mu.
type slot[S any] struct {
	key    string
	mu     sync.Mutex
	state  atomic.Pointer[S]
	users  int    // requests holding it: never let go while > 0
	used   uint64 // when it was last taken
	weight int
	missed bool   // taken for a command soon after it was let go: grows the budget once folded
	back   bool   // brought back from the ghosts and not yet taken for a command
	letGo  uint64 // with back: the tick it had been let go at
	// told is the last version followers were told of (see shared.go).
	told atomic.Int64
}

func newMemo[S any](floor, ceiling int, weigh func(*S) int, version func(*S) int64) *memo[S] {
	return &memo[S]{weigh: weigh, version: version, slots: map[string]*slot[S]{}, budget: floor, floor: floor, ceiling: max(floor, ceiling),
		ghosts: map[string]uint64{}, decay: decayUses}
}

// take hands out a stream's slot, empty the first time; the caller gives
// it back with release, or with drop when it could not fold the stream.
// play: the stream is taken for a command (written to), not read.
func (m *memo[S]) take(id string, play bool) *slot[S] {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.slots[id]
	if !ok {
		e = &slot[S]{key: id}
		m.slots[id] = e
		if at, ghost := m.ghosts[id]; ghost {
			delete(m.ghosts, id)
			e.back, e.letGo = true, at
		}
	}
	if play && e.back {
		// Let go a few rounds of uses ago and written to again: the budget
		// grows by its weight once the command publishes (publish). The
		// command may come just after a read that brought the stream back
		// (the deal form reads the game's names first).
		e.back = false
		e.missed = m.tick-e.letGo <= 8*uint64(len(m.slots)+64)
	}
	e.users++
	m.tick++
	e.used = m.tick
	if m.budget > m.floor && m.tick-m.changed > m.decay {
		m.budget, m.changed = max(m.floor, m.budget-m.budget/16), m.tick
	}
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
	// Weighed before the lock: a game's weight is a walk over its deals.
	held := e.state.Load()
	w := m.weigh(held)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.slots[e.key] != e {
		return // let go of meanwhile: its weight is no longer counted
	}
	if now := e.state.Load(); now != held {
		w = m.weigh(now) // what the slot holds now: a newer state won meanwhile
	}
	m.weight += w - e.weight
	e.weight = w
	if e.missed {
		e.missed = false
		m.budget, m.changed = min(m.ceiling, m.budget+w), m.tick
	}
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
		m.haunt(oldestID)
	}
}

// ghost is a stream let go, and when.
type ghost struct {
	id   string
	tick uint64
}

// haunt keeps a stream let go among the ghosts: as many as the streams in
// memory and some, the oldest forgotten first. Under m.mu.
func (m *memo[S]) haunt(id string) {
	if m.floor == m.ceiling {
		return // nothing to adapt
	}
	m.ghosts[id] = m.tick
	m.ghostOrder = append(m.ghostOrder, ghost{id, m.tick})
	for len(m.ghosts) > len(m.slots)+64 && len(m.ghostOrder) > 0 {
		old := m.ghostOrder[0]
		m.ghostOrder = m.ghostOrder[1:]
		if m.ghosts[old.id] == old.tick { // not let go again since
			delete(m.ghosts, old.id)
		}
	}
	if len(m.ghostOrder) > 4*(len(m.ghosts)+64) {
		// Entries of ghosts taken again or let go again: drop them.
		kept := m.ghostOrder[:0]
		for _, g := range m.ghostOrder {
			if t, ok := m.ghosts[g.id]; ok && t == g.tick {
				kept = append(kept, g)
			}
		}
		m.ghostOrder = slices.Clip(kept)
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
