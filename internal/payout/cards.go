package payout

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// What the pack's card values allow (rules.md "Input checks": points no
// set of cards can make). Every pack holds four each of A (11), 10, K (4),
// Q (3) and J (2), 120 points in 20 cards; its other cards (16 of 36, 12
// of 32) are worth 0. Which sums n cards can make is derived from these
// values, not listed: a talon of 4 cannot hold 38 or 39, a tapp of 3 not
// 27–29, and so on.

// cardValues are the values of the pack's counting cards, four of each.
var cardValues = [...]int{11, 10, 4, 3, 2}

const (
	copiesOfValue = 4
	countingCards = len(cardValues) * copiesOfValue // 20
	packPoints    = 120
)

// countingSums[k][s]: some k counting cards are worth s. Derived once
// from cardValues and never written after.
var countingSums = sync.OnceValue(func() [countingCards + 1][packPoints + 1]bool {
	var r [countingCards + 1][packPoints + 1]bool
	r[0][0] = true
	for _, v := range cardValues {
		for range copiesOfValue {
			for k := countingCards; k >= 1; k-- {
				for s := packPoints; s >= v; s-- {
					if r[k-1][s-v] {
						r[k][s] = true
					}
				}
			}
		}
	}
	return r
})

// cardsMake reports whether n cards of a pack of packCards can be worth
// exactly points: some k of them counting cards, the other n−k blanks.
func cardsMake(n, packCards, points int) bool {
	if points < 0 || points > packPoints {
		return false
	}
	blanks := packCards - countingCards
	sums := countingSums()
	for k := 0; k <= min(n, countingCards); k++ {
		if n-k <= blanks && sums[k][points] {
			return true
		}
	}
	return false
}

// pack is how many cards a deal of g uses.
func (g geometry) pack() int { return g.tricks*g.perTrick + g.talon }

// sideCanHold reports whether the declarer's side, with t tricks, can have
// exactly p points: its cards' worth, and the last trick's where it took
// it (always with every trick, never with none, either way between).
func (g geometry) sideCanHold(t, p int) bool {
	cards, _, _, _ := g.sideMax(t)
	withLast := cardsMake(cards, g.pack(), p-g.lastTrick)
	without := cardsMake(cards, g.pack(), p)
	switch {
	case g.lastTrick == 0 || t == 0:
		return without
	case t == g.tricks:
		return withLast
	}
	return withLast || without
}

// ramschDealt reports whether a Ramsch record can be one deal of the pack:
// each player's tricks hold exactly the points given, every counting card
// is someone's, and the tapp is in the tricks of the one player who took
// the last trick, who took at least one. Players are by seat.
func ramschDealt(points, tricks []int, g geometry) bool {
	for owner := range tricks {
		if tricks[owner] == 0 {
			continue
		}
		caps := make([]int, len(tricks))
		for i, t := range tricks {
			caps[i] = t * g.perTrick
		}
		caps[owner] += g.talon
		if share(0, slices.Clone(points), caps, map[string]bool{}) {
			return true
		}
	}
	return false
}

// share says whether the counting cards of cardValues[i:] can be given
// out so that each player's still-needed points are met exactly within the
// cards each still has room for. A search over how many of each value each
// player gets (at most 4 values × 35 ways for four players), remembered
// by where it stands.
func share(i int, need, room []int, seen map[string]bool) bool {
	if i == len(cardValues) {
		for _, n := range need {
			if n != 0 {
				return false
			}
		}
		return true
	}
	key := stateKey(i, need, room)
	if done, ok := seen[key]; ok {
		return done
	}
	v := cardValues[i]
	var give func(p, left int) bool
	give = func(p, left int) bool {
		if p == len(need)-1 {
			if left*v > need[p] || left > room[p] {
				return false
			}
			need[p] -= left * v
			room[p] -= left
			ok := share(i+1, need, room, seen)
			need[p] += left * v
			room[p] += left
			return ok
		}
		for c := 0; c <= left && c <= room[p] && c*v <= need[p]; c++ {
			need[p] -= c * v
			room[p] -= c
			ok := give(p+1, left-c)
			need[p] += c * v
			room[p] += c
			if ok {
				return true
			}
		}
		return false
	}
	ok := give(0, copiesOfValue)
	seen[key] = ok
	return ok
}

func stateKey(i int, need, room []int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(i))
	for k := range need {
		b.WriteByte('|')
		b.WriteString(strconv.Itoa(need[k]))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(room[k]))
	}
	return b.String()
}
