package payout

import "testing"

// What n cards of the pack can be worth, derived from the card values
// (rules.md "Input checks"): a talon of 4 never 38 or 39, a tapp of 3
// never 27–29, 2 cards never 9; and every sum the best cards reach.
func TestCardsMake(t *testing.T) {
	for _, c := range []struct {
		cards, pack, points int
		can                 bool
	}{
		{4, 36, 37, true}, {4, 36, 38, false}, {4, 36, 39, false}, {4, 36, 40, true}, {4, 36, 44, true}, {4, 36, 45, false},
		{3, 36, 26, true}, {3, 36, 27, false}, {3, 36, 28, false}, {3, 36, 29, false}, {3, 36, 30, true},
		{2, 32, 9, false}, {2, 32, 22, true}, {2, 32, 0, true},
		{1, 36, 1, false}, {0, 36, 0, true}, {0, 36, 2, false},
		// 36 cards hold all 120; 35 of them 120 (a blank left out) but not 119.
		{36, 36, 120, true}, {35, 36, 119, false}, {35, 36, 118, true},
		// 32 cards have 12 blanks: 13 cards hold at least 2.
		{13, 32, 0, false}, {13, 32, 2, true},
	} {
		if got := cardsMake(c.cards, c.pack, c.points); got != c.can {
			t.Errorf("%d cards of %d worth %d: %v, want %v", c.cards, c.pack, c.points, got, c.can)
		}
	}
}

// The new refusals of rules.md "Input checks", each with its own message.
func TestCardSumRefusals(t *testing.T) {
	z := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	w3 := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	w4 := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan")
	m := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	// A trickless declarer's talon of 4 holds 37 or 40, never 38 or 39.
	refuse(t, z, Table{}, Record{Contract: "tapp", Declarer: "Anna", Points: ip(38), Tricks: ip(0)}, "points", "points.no-cards")
	refuse(t, w4, Table{}, Record{Contract: "suit", Declarer: "Anna", Trump: Clubs, Points: ip(39), Tricks: ip(0)}, "points", "points.no-cards")
	// A tapp of 3 cannot hold 27–29.
	refuse(t, w3, Table{}, Record{Contract: "suit", Declarer: "Anna", Trump: Clubs, Points: ip(28), Tricks: ip(0)}, "points", "points.no-cards")
	for _, ok := range []int{37, 40} {
		if _, err := Score(z, Table{}, Record{Contract: "tapp", Declarer: "Anna", Points: ip(ok), Tricks: ip(0)}); err != nil {
			t.Errorf("a talon of %d: %v", ok, err)
		}
	}
	// The matzl (the trump ten, 10) caught by a side with under 10 points.
	refuse(t, m, Table{}, Record{Contract: "treiben", Declarer: "Ben", Trump: Hearts, Points: ip(8), Tricks: ip(1), Matzl: MatzlDeclarer}, "matzl", "matzl.declarer-few-points")
	refuse(t, m, Table{}, Record{Contract: "treiben", Declarer: "Ben", Trump: Hearts, Points: ip(125), Tricks: ip(7), Matzl: MatzlDefenders}, "matzl", "matzl.defenders-few-points")
	if _, err := Score(m, Table{}, Record{Contract: "treiben", Declarer: "Ben", Trump: Hearts, Points: ip(10), Tricks: ip(1), Matzl: MatzlDeclarer}); err != nil {
		t.Errorf("the matzl caught in a trick worth 10: %v", err)
	}
	// Ramsch checked as a whole: 6 tricks of 4 players with 36 cards hold
	// at least 20 points, whatever each other player holds.
	refuse(t, w4, Table{}, ramsch(map[string][2]int{"Anna": {10, 6}, "Ben": {50, 1}, "Cleo": {60, 1}, "Dan": {0, 0}}), "ramsch", "ramsch.impossible")
	// Anna and Ben each need the tapp for 40 with one trick of 3 cards;
	// only one of them took the last trick and the tapp with it.
	refuse(t, w3, Table{}, ramsch(map[string][2]int{"Anna": {40, 1}, "Ben": {40, 1}, "Cleo": {40, 9}}), "ramsch", "ramsch.impossible")
	if _, err := Score(w3, Table{}, ramsch(map[string][2]int{"Anna": {40, 1}, "Ben": {30, 1}, "Cleo": {50, 9}})); err != nil {
		t.Errorf("one player with the tapp: %v", err)
	}
}
