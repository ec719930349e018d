package game

import (
	"fmt"
	"testing"
)

// A stream of the memo tests: its weight, and how often it was folded.
type memoStream struct {
	weight int
	folds  int
}

// use is what the service does with a stream: take it, fold it if it is
// not in memory, publish it, give it back.
func use(m *memo[memoStream], id string, weight int, folds map[string]int) {
	e := m.take(id)
	if e.state.Load() == nil {
		folds[id]++
		m.publish(e, &memoStream{weight: weight})
	}
	m.release(e)
}

func newTestMemo(floor, ceiling int) *memo[memoStream] {
	return newMemo(floor, ceiling, func(s *memoStream) int { return s.weight }, func(*memoStream) int64 { return 0 })
}

// Given tables that finish evenings and start new ones (the finished never
// used again), when they play on, then the budget stays at its floor and
// nothing in play is folded twice: the finished evenings are let go.
func TestMemoLetsFinishedStreamsGoAtItsFloor(t *testing.T) {
	m := newTestMemo(100, 400)
	folds := map[string]int{}
	for evening := range 50 {
		for round := range 10 {
			for table := range 4 {
				use(m, fmt.Sprintf("t%d-e%d", table, evening), round+1, folds)
			}
		}
	}
	if m.budget != 100 || m.weight > 100 {
		t.Errorf("budget %d, weight %d: finished evenings grew it", m.budget, m.weight)
	}
	for id, n := range folds {
		if n != 1 {
			t.Fatalf("%s folded %d times", id, n)
		}
	}
}

// Given more streams in play than the floor holds, used in turn (each let
// go would be the next wanted: every use a fold), when they play on, then
// the budget grows until they fit, and they are folded no more.
func TestMemoGrowsWhileStreamsLetGoAreWanted(t *testing.T) {
	m := newTestMemo(100, 400)
	folds := map[string]int{}
	round := func() int {
		before := 0
		for _, n := range folds {
			before += n
		}
		for s := range 15 { // 15 × 10 = 150 in play
			use(m, fmt.Sprintf("s%d", s), 10, folds)
		}
		after := 0
		for _, n := range folds {
			after += n
		}
		return after - before
	}
	round()
	var last int
	for range 10 {
		last = round()
	}
	if last != 0 || m.budget < 150 || m.budget > 400 {
		t.Errorf("after ten rounds: %d folds in the last, budget %d (150 in play, ceiling 400)", last, m.budget)
	}
	// Without misses for a while, it shrinks back to its floor, a
	// sixteenth at a time.
	for i := range 12 * decayUses {
		use(m, "kitchen", 5, folds)
		if i%decayUses == 0 && m.budget < m.floor {
			t.Fatalf("budget %d under the floor", m.budget)
		}
	}
	if m.budget != m.floor {
		t.Errorf("budget %d after a long while without misses, floor %d", m.budget, m.floor)
	}
}

// Given more in play than even the ceiling holds, then the budget stops at
// the ceiling.
func TestMemoBudgetStopsAtItsCeiling(t *testing.T) {
	m := newTestMemo(100, 160)
	folds := map[string]int{}
	for range 30 {
		for s := range 40 { // 400 in play
			use(m, fmt.Sprintf("s%d", s), 10, folds)
		}
	}
	if m.budget != 160 || m.weight > 160 {
		t.Errorf("budget %d, weight %d; ceiling 160", m.budget, m.weight)
	}
	if len(m.ghosts) > len(m.slots)+64 {
		t.Errorf("%d ghosts kept for %d streams in memory", len(m.ghosts), len(m.slots))
	}
}
