package web

import (
	"cmp"
	"sync"

	"tappbook/internal/tapp"
)

// chartSums keeps each evening's running totals, as its chart adds them
// up, from one page to the next: the page after a deal adds up that deal,
// not the whole evening again. Totals added up at one version hold at a
// later one while no deal they count has changed since (tapp's
// State.Edited); otherwise they are added up afresh.
//
// Two generations bound it in bytes: once the newer holds
// chartSumsBytes, the older is let go and the newer takes its place.
type chartSums struct {
	mu       sync.Mutex
	now, old map[string]*sums // by game
	bytes    int              // what now's totals hold
}

// chartSumsBytes is what a generation keeps: the totals of about 70
// evenings of 700 deals at four players (64 tables' evenings, each read
// once per generation, stay kept).
const chartSumsBytes = 2 << 20

func newChartSums() *chartSums { return &chartSums{now: map[string]*sums{}} }

// sums is an evening's running totals in whole units, as wholeChart adds
// them up: totals[i*lines+seat] is seat's total after step i+1.
type sums struct {
	mu          sync.Mutex
	version     int64 // the game's, when they were added up
	deals       int   // how many of its deals they count
	first, last int   // the first and the last deal charted
	lo, hi      int64 // the lowest and highest total, zero included
	totals      []int64
	weighed     int // the bytes chartSums counts it as (under chartSums.mu)
}

// of gives the sums kept for game id; a sums of its own for a nil x.
func (x *chartSums) of(id string) *sums {
	if x == nil {
		return &sums{}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	s := x.now[id]
	if s == nil {
		if s = x.old[id]; s == nil {
			s = &sums{}
		}
		delete(x.old, id)
		x.now[id] = s
		x.bytes += s.weighed
	}
	return s
}

// weigh counts what s holds now, letting the older generation go once
// the newer is full. s must be locked by the caller.
func (x *chartSums) weigh(s *sums) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	w := 8 * cap(s.totals)
	x.bytes += w - s.weighed
	s.weighed = w
	if x.bytes > chartSumsBytes {
		x.old, x.now, x.bytes = x.now, map[string]*sums{}, 0
	}
}

// addUp brings s to g's deals: those recorded since it was added up, or
// all of them again when one it counts has changed. False when an amount
// is not whole or a total would not fit in int64 (s is then emptied).
// s must be locked by the caller.
func (s *sums) addUp(g *tapp.State, lines int) bool {
	hands := g.Hands()
	if s.version > g.Version || g.Edited() > s.version || s.deals > len(hands) || len(s.totals)%lines != 0 {
		s.empty()
	}
	cur, moves := make([]int64, lines), make([]int64, lines)
	if n := len(s.totals); n > 0 {
		copy(cur, s.totals[n-lines:])
	}
	for _, h := range hands[s.deals:] {
		pot, ok := h.WholeMoves(moves)
		if !ok {
			s.empty()
			return false
		}
		if !chartsDeal(h, pot != 0) {
			continue
		}
		if !addStep(cur, moves, &s.lo, &s.hi) {
			s.empty()
			return false
		}
		s.totals = append(s.totals, cur...)
		s.first, s.last = cmp.Or(s.first, h.Number), h.Number
	}
	s.version, s.deals = g.Version, len(hands)
	return true
}

// empty lets the totals go, never writing over them: a page that read
// them may still be drawing them.
func (s *sums) empty() {
	s.version, s.deals, s.first, s.last, s.lo, s.hi, s.totals = 0, 0, 0, 0, 0, 0, nil
}

// addStep adds moves to cur, widening lo…hi; false where a total would not
// fit in int64.
func addStep(cur, moves []int64, lo, hi *int64) bool {
	for seat, x := range moves {
		s := cur[seat] + x
		if (x >= 0) != (s >= cur[seat]) {
			return false // overflow
		}
		cur[seat], *lo, *hi = s, min(*lo, s), max(*hi, s)
	}
	return true
}
