package payout

import (
	"testing"

	"github.com/shopspring/decimal"
)

// Several players without a trick are named in one sentence of a Ramsch's
// explanation, and where players tie for most it says that each of the
// tied pays them (rules.md wuerttemberg ramsch and its Decision).
func TestRamschExplanationNamesTheJungfersOnce(t *testing.T) {
	s := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan")
	for _, c := range []struct {
		rec  Record
		want []int64
		text string
	}{
		{ramsch(map[string][2]int{"Anna": {70, 5}, "Ben": {50, 3}, "Cleo": {0, 0}, "Dan": {0, 0}}), []int64{-25, 5, 10, 10},
			"Ramsch: Anna has the most points (70) and pays 5 to each other player; Cleo and Dan took no trick (Jungfer) and are each paid 10 instead."},
		{ramsch(map[string][2]int{"Anna": {60, 4}, "Ben": {60, 4}, "Cleo": {0, 0}, "Dan": {0, 0}}), []int64{-20, -20, 20, 20},
			"Ramsch: Anna and Ben tie for the most points (60), and each pays 5 to every player not in the tie; Cleo and Dan took no trick (Jungfer) and are each paid 10 by each of them instead."},
		{ramsch(map[string][2]int{"Anna": {60, 4}, "Ben": {60, 3}, "Cleo": {0, 1}, "Dan": {0, 0}}), []int64{-15, -15, 10, 20},
			"Ramsch: Anna and Ben tie for the most points (60), and each pays 5 to every player not in the tie; Dan took no trick (Jungfer) and is paid 10 by each of them instead."},
	} {
		res, err := Score(s, Table{}, c.rec)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range c.want {
			if !res.Deltas[i].Equal(decimal.NewFromInt(w)) {
				t.Errorf("%s: seat %d moves %s, want %d", c.text, i, res.Deltas[i], w)
			}
		}
		if got := res.Explanation.Render(english); got != c.text {
			t.Errorf("got %q\nwant %q", got, c.text)
		}
	}
}
