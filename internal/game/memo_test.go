package game

import (
	"fmt"
	"testing"
)

// memoStream is a stream of the memo tests: its weight.
type memoStream struct{ weight int }

// memoUser does with a memo what the service does: take a stream, fold it
// if it is not in memory (counted), and for a command publish what the
// command left; give it back.
type memoUser struct {
	m     *memo[memoStream]
	folds int
}

func (u *memoUser) use(id string, weight int, play bool) {
	e := u.m.take(id, play)
	if e.state.Load() == nil {
		u.folds++
		u.m.publish(e, &memoStream{weight: weight})
	} else if play {
		u.m.publish(e, &memoStream{weight: weight})
	}
	u.m.release(e)
}

func newMemoUser(floor, ceiling int) *memoUser {
	m := newMemo(floor, ceiling, func(s *memoStream) int { return s.weight }, func(*memoStream) int64 { return 0 })
	m.decay = 1 << 12 // a test's while
	return &memoUser{m: m}
}

// lastOfRounds plays round eleven times and gives the folds of the last:
// none once the budget has grown to hold what the rounds keep in play.
func (u *memoUser) lastOfRounds(round func()) int {
	for range 10 {
		round()
	}
	before := u.folds
	round()
	return u.folds - before
}

// Given tables that finish evenings and start new ones (the finished never
// written to again), when they play on, then the budget stays at its floor
// and nothing in play is folded twice: the finished evenings are let go.
func TestMemoLetsFinishedStreamsGoAtItsFloor(t *testing.T) {
	u := newMemoUser(100, 400)
	for evening := range 50 {
		for deal := range 20 {
			for table := range 4 { // 4 × 20 = 80 in play at most
				u.use(fmt.Sprintf("t%d-e%d", table, evening), deal+1, true)
			}
		}
	}
	if u.m.budget != 100 || u.m.weight > 100 {
		t.Errorf("budget %d, weight %d: finished evenings grew it", u.m.budget, u.m.weight)
	}
	if u.folds != 4*50 {
		t.Errorf("%d folds for %d evenings", u.folds, 4*50)
	}
	// Last week's evenings read again (a group's page) are not play: the
	// budget stays.
	for evening := 45; evening < 49; evening++ { // let go lately
		for table := range 4 {
			u.use(fmt.Sprintf("t%d-e%d", table, evening), 20, false)
		}
	}
	if u.m.budget != 100 {
		t.Errorf("budget %d after reading evenings let go", u.m.budget)
	}
}

// Given more streams in play than the floor holds, written to in turn
// (each let go would be the next wanted: every deal a fold), when they
// play on, then the budget grows until they fit, and they are folded no
// more; later, with no such miss for a while, it shrinks back to its
// floor.
func TestMemoGrowsWhileStreamsLetGoAreWanted(t *testing.T) {
	u := newMemoUser(100, 400)
	last := u.lastOfRounds(func() {
		for s := range 15 { // 15 × 10 = 150 in play
			u.use(fmt.Sprintf("s%d", s), 10, true)
		}
	})
	if last != 0 || u.m.budget < 150 || u.m.budget > 400 {
		t.Errorf("after ten rounds: %d folds in the last, budget %d (150 in play, ceiling 400)", last, u.m.budget)
	}
	for i := range 40 * u.m.decay {
		u.use("kitchen", 5, true)
		if i%u.m.decay == 0 && u.m.budget < u.m.floor {
			t.Fatalf("budget %d under the floor", u.m.budget)
		}
	}
	if u.m.budget != u.m.floor {
		t.Errorf("budget %d after a long while without misses, floor %d", u.m.budget, u.m.floor)
	}
}

// Given more streams in play than the floor holds, each command just
// after a read of its stream (the deal form reads the game's names, then
// records), when they play on in turn, then the budget grows until they
// fit, as it does for commands alone: the read that brings a stream back
// does not hide the miss.
func TestMemoGrowsWhenAReadComesBeforeEachCommand(t *testing.T) {
	u := newMemoUser(100, 400)
	last := u.lastOfRounds(func() {
		for s := range 15 { // 15 × 10 = 150 in play
			id := fmt.Sprintf("s%d", s)
			u.use(id, 10, false)
			u.use(id, 10, true)
		}
	})
	if last != 0 || u.m.budget < 150 || u.m.budget > 400 {
		t.Errorf("after ten rounds: %d folds in the last, budget %d (150 in play, ceiling 400)", last, u.m.budget)
	}
}

// Given more in play than even the ceiling holds, then the budget stops at
// the ceiling, and the ghosts kept stay bounded.
func TestMemoBudgetStopsAtItsCeiling(t *testing.T) {
	u := newMemoUser(100, 160)
	for range 30 {
		for s := range 40 { // 400 in play
			u.use(fmt.Sprintf("s%d", s), 10, true)
		}
	}
	if u.m.budget != 160 || u.m.weight > 160 {
		t.Errorf("budget %d, weight %d; ceiling 160", u.m.budget, u.m.weight)
	}
	if len(u.m.ghosts) > len(u.m.slots)+64 || len(u.m.ghostOrder) > 4*(len(u.m.ghosts)+64)+1 {
		t.Errorf("%d ghosts (%d in order) kept for %d streams in memory", len(u.m.ghosts), len(u.m.ghostOrder), len(u.m.slots))
	}
}
