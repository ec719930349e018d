package payout

import "testing"

func zugerRec(contract string, points, tricks int) Record {
	return Record{Contract: contract, Declarer: "Anna", Points: ip(points), Tricks: ip(tricks)}
}

func TestZuger(t *testing.T) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	win := func(v int64) []int64 { return []int64{3 * v, -v, -v, -v} }
	lose := func(v int64) []int64 { return []int64{-3 * v, v, v, v} }
	runDeals(t, s, []dealCase{
		// Contracts table: tapp base 1, wins ≥ 61, loses ≤ 59, 60 draw.
		{name: "tapp 61 wins", cite: "zuger contracts: tapp wins with ≥ 61", rec: zugerRec("tapp", 61, 4), want: win(1), outcome: Won, value: 1},
		{name: "tapp 60 draw", cite: "zuger contracts: tapp exactly 60 is a draw, nobody pays", rec: zugerRec("tapp", 60, 4), want: []int64{0, 0, 0, 0}, outcome: Draw, value: 0},
		{name: "tapp 59 loses", cite: "zuger contracts: tapp loses with ≤ 59", rec: zugerRec("tapp", 59, 4), want: lose(1), outcome: Lost, value: 1},
		// solo base 2, 65/64.
		{name: "solo 65 wins", cite: "zuger contracts: solo wins with ≥ 65", rec: zugerRec("solo", 65, 4), want: win(2), value: 2},
		{name: "solo 64 loses", cite: "zuger contracts: solo loses with ≤ 64", rec: zugerRec("solo", 64, 4), want: lose(2), value: 2},
		// super base 4, 70/69.
		{name: "super 70 wins", cite: "zuger contracts: super wins with ≥ 70", rec: zugerRec("super", 70, 5), want: win(4), value: 4},
		{name: "super 69 loses", cite: "zuger contracts: super loses with ≤ 69", rec: zugerRec("super", 69, 5), want: lose(4), value: 4},
		// vice base 6, 75/74.
		{name: "vice 75 wins", cite: "zuger contracts: vice wins with ≥ 75", rec: zugerRec("vice", 75, 5), want: win(6), value: 6},
		{name: "vice 74 loses", cite: "zuger contracts: vice loses with ≤ 74", rec: zugerRec("vice", 74, 5), want: lose(6), value: 6},
		// Multiplier ×2: losing side under 21 (winners ≥ 100); 20/21.
		{name: "solo 100: losers 20, ×2", cite: "zuger multiplier: ×2 if the losing side took fewer than 21", rec: zugerRec("solo", 100, 7), want: win(4), value: 4},
		{name: "solo 99: losers 21, no ×2", cite: "zuger multiplier: 21 points is not under 21", rec: zugerRec("solo", 99, 7), want: win(2), value: 2},
		{name: "declarer lost with 20: ×2", cite: "zuger multiplier: ×2 applies to a losing declarer under 21", rec: zugerRec("super", 20, 1), want: lose(8), value: 8},
		{name: "declarer lost with 21: no ×2", cite: "zuger multiplier: 21 points is not under 21", rec: zugerRec("super", 21, 1), want: lose(4), value: 4},
		// ×3: losing side took no trick; replaces ×2, never ×6. All tricks / one fewer.
		{name: "all 8 tricks: ×3 not ×6", cite: "zuger multiplier: ×3 if the losing side took no trick (replaces ×2)", rec: zugerRec("vice", 120, 8), want: win(18), value: 18},
		{name: "7 tricks, losers 10 points: ×2", cite: "zuger multiplier: one trick fewer than all is ×2, not ×3", rec: zugerRec("vice", 110, 7), want: win(12), value: 12},
		{name: "trickless declarer with talon 25: ×3", cite: "zuger multiplier: a declarer can lose without a trick and hold 21+ points; ×3 applies", rec: zugerRec("tapp", 25, 0), want: lose(3), value: 3},
		{name: "trickless declarer with talon 44: ×3", cite: "input checks: Zuger talon up to 44 for a trickless declarer", rec: zugerRec("solo", 44, 0), want: lose(6), value: 6},
		{name: "declarer with 1 trick and 10 points: ×2", cite: "zuger multiplier: ×2 only, the losing side took a trick", rec: zugerRec("solo", 10, 1), want: lose(4), value: 4},
		// Pass.
		{name: "all pass", cite: "zuger: all four pass, no game, no payment", rec: Record{Contract: "pass"}, want: []int64{0, 0, 0, 0}, outcome: Passed, value: 0},
	})
}

func TestZugerDeclarerSeats(t *testing.T) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	rec := Record{Contract: "solo", Declarer: "Cleo", Points: ip(80), Tricks: ip(5)}
	runDeals(t, s, []dealCase{{name: "Cleo wins solo", cite: "zuger payment: +3v to the declarer, −v from each opponent", dealer: 2, rec: rec, want: []int64{-2, -2, 6, -2}, value: 2}})
}

func TestZugerTappThreshold65(t *testing.T) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	s.Rules.TappThreshold = 65
	runDeals(t, s, []dealCase{
		{name: "65 wins", cite: "zuger house rule tapp_threshold 65: win ≥ 65", rec: zugerRec("tapp", 65, 4), want: []int64{3, -1, -1, -1}, value: 1},
		{name: "64 loses", cite: "zuger house rule tapp_threshold 65: lose ≤ 64", rec: zugerRec("tapp", 64, 4), want: []int64{-3, 1, 1, 1}, value: 1},
		{name: "60 loses, no draw", cite: "zuger house rule tapp_threshold 65: no draw", rec: zugerRec("tapp", 60, 4), want: []int64{-3, 1, 1, 1}, outcome: Lost, value: 1},
	})
}

func TestZugerPointsAgainstTricks(t *testing.T) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	tb := Table{}
	// Input checks: all tricks but not all points.
	refuse(t, s, tb, zugerRec("solo", 110, 8), "points", "points.all-tricks")
	// No trick: only the talon, at most 44 (four aces).
	refuse(t, s, tb, zugerRec("solo", 45, 0), "points", "points.no-trick-talon")
	// One trick: 8 cards, at most 4 aces + 4 tens = 84.
	refuse(t, s, tb, zugerRec("solo", 85, 1), "points", "points.too-many")
	if _, err := Score(s, tb, zugerRec("solo", 84, 1)); err != nil {
		t.Fatalf("84 points in 8 cards (four aces, four tens) is possible: %v", err)
	}
	// 7 tricks: opponents hold 4 cards, at most 44, so the declarer ≥ 76.
	refuse(t, s, tb, zugerRec("solo", 75, 7), "points", "points.too-few")
	if _, err := Score(s, tb, zugerRec("solo", 76, 7)); err != nil {
		t.Fatalf("76 points with 7 tricks is possible: %v", err)
	}
}
