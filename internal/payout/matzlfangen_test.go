package payout

import "testing"

// Dan deals (seat 3), so Anna (seat 0) is forehand and declares rufen.
func rufenRec(points, tricks int) Record {
	return Record{Contract: "rufen", Partner: "Cleo", Points: ip(points), Tricks: ip(tricks)}
}

func TestMatzlfangen(t *testing.T) {
	s := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	rufen := func(v int64) []int64 { return []int64{v, -v, v, -v} }
	alone := func(v int64) []int64 { return []int64{-v, 3 * v, -v, -v} } // Ben declares
	with := func(r Record, f func(*Record)) Record { f(&r); return r }
	ben := func(contract string, points, tricks int) Record {
		return Record{Contract: contract, Declarer: "Ben", Points: ip(points), Tricks: ip(tricks)}
	}
	cases := []dealCase{
		{name: "rufen won simply", cite: "matzlfangen value 1: rufen won → each opponent pays v to one winner", rec: rufenRec(70, 5), want: rufen(1), outcome: Won, value: 1},
		{name: "rufen 66 wins", cite: "matzlfangen contracts: wins with ≥ 66", rec: rufenRec(66, 4), want: rufen(1), value: 1},
		{name: "rufen 65 loses", cite: "matzlfangen contracts: 65 loses", rec: rufenRec(65, 4), want: rufen(-1), outcome: Lost, value: 1},
		{name: "declarer named as forehand", cite: "matzlfangen: in rufen the declarer is always forehand", rec: with(rufenRec(70, 5), func(r *Record) { r.Declarer = "Anna" }), want: rufen(1), value: 1},
		{name: "seed example: kontra to Hirsch", cite: "matzlfangen seed example: rufen won simply, kontra'd up to Hirsch → 1 + 5 = 6", rec: with(rufenRec(70, 5), func(r *Record) { r.Kontra = ip(5) }), want: rufen(6), value: 6},
		{name: "no water: losers 29", cite: "matzlfangen value 1: 2 if the losing side took fewer than 30", rec: rufenRec(101, 7), want: rufen(2), value: 2},
		{name: "water: losers 30", cite: "matzlfangen value 1: 30 points is water", rec: rufenRec(100, 7), want: rufen(1), value: 1},
		{name: "losing declarer side 29", cite: "matzlfangen value 1: no water applies to a losing declarer side", rec: rufenRec(29, 2), want: rufen(-2), value: 2},
		{name: "losers no trick", cite: "matzlfangen value 1: 3 if the losing side took no trick", rec: rufenRec(130, 8), want: rufen(3), value: 3},
		{name: "declarer side no trick", cite: "matzlfangen value 1: 3 if the losing side took no trick", rec: rufenRec(0, 0), want: rufen(-3), value: 3},
		{name: "matzl caught by the winners", cite: "matzlfangen value 3: the catching side won → +1", rec: with(rufenRec(70, 5), func(r *Record) { r.Matzl = MatzlDeclarer; r.Kontra = ip(1) }), want: rufen(3), value: 3},
		{name: "matzl caught by the losers cancels", cite: "matzlfangen value 3: the catching side lost → all payments cancelled, kontra or not", rec: with(rufenRec(70, 5), func(r *Record) { r.Matzl = MatzlDefenders; r.Kontra = ip(4) }), want: rufen(0), outcome: Cancelled, value: 0},
		{name: "matzl caught by defenders who won", cite: "matzlfangen value 3: the catching side won → +1", rec: with(rufenRec(40, 3), func(r *Record) { r.Matzl = MatzlDefenders }), want: rufen(-2), value: 2},
		{name: "matzl none", cite: "matzlfangen: matzl none is the default", rec: with(rufenRec(70, 5), func(r *Record) { r.Matzl = MatzlNone; r.Trump = Hearts }), want: rufen(1), value: 1},
		{name: "treiben won", cite: "matzlfangen payment: other contracts, declarer ±3v", rec: ben("treiben", 80, 5), want: alone(1), value: 1},
		{name: "neid lost, no water, Drauffi", cite: "matzlfangen value 1+2: 2 + 10 kontra", rec: with(ben("neid", 20, 2), func(r *Record) { r.Kontra = ip(10) }), want: alone(-12), value: 12},
		{name: "durch all tricks", cite: "matzlfangen: durch wins with all 8 tricks, value 6", rec: Record{Contract: "durch", Declarer: "Ben", Tricks: ip(8)}, want: alone(6), value: 6},
		{name: "durch 7 tricks", cite: "matzlfangen: durch one trick short loses", rec: Record{Contract: "durch", Declarer: "Ben", Tricks: ip(7)}, want: alone(-6), value: 6},
		{name: "durch 0 tricks still 6", cite: "matzlfangen value 1: durch is 6, no multipliers", rec: Record{Contract: "durch", Declarer: "Ben", Tricks: ip(0), Points: ip(0)}, want: alone(-6), value: 6},
		{name: "trumpf-durch, kontra and matzl", cite: "matzlfangen value: 6 + 2 kontra + 1 matzl", rec: Record{Contract: "trumpf-durch", Declarer: "Ben", Tricks: ip(8), Kontra: ip(2), Matzl: MatzlDeclarer, Trump: Spades}, want: alone(9), value: 9},
	}
	runDeals(t, s, func() []dealCase {
		for i := range cases {
			cases[i].dealer = 3
		}
		return cases
	}())
}

func TestMatzlfangenChecks(t *testing.T) {
	s := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	tb := Table{Dealer: 3}
	// Rufen's declarer is forehand.
	refuse(t, s, tb, Record{Contract: "rufen", Declarer: "Ben", Partner: "Cleo", Points: ip(70), Tricks: ip(5)}, "declarer", "declarer.not-forehand")
	refuse(t, s, tb, Record{Contract: "rufen", Declarer: "Zoe", Partner: "Cleo", Points: ip(70), Tricks: ip(5)}, "declarer", "player.unknown")
	// A declarer who is also partner.
	refuse(t, s, tb, Record{Contract: "rufen", Partner: "Anna", Points: ip(70), Tricks: ip(5)}, "partner", "partner.is-declarer")
	refuse(t, s, tb, Record{Contract: "rufen", Declarer: "Anna", Partner: "Anna", Points: ip(70), Tricks: ip(5)}, "partner", "partner.is-declarer")
	// …before any count: points no count of tricks left out would make.
	refuse(t, s, tb, Record{Contract: "rufen", Partner: "Anna", Points: ip(70)}, "partner", "partner.is-declarer")
	refuse(t, s, tb, Record{Contract: "rufen", Partner: "Anna", Points: ip(70), Tricks: ip(1)}, "partner", "partner.is-declarer")
	refuse(t, s, tb, Record{Contract: "rufen", Points: ip(70), Tricks: ip(5)}, "partner", "partner.missing")
	// Points 130 total: 1 and 129 are impossible.
	refuse(t, s, tb, rufenRec(129, 7), "points", "points.total-minus-one")
	refuse(t, s, tb, rufenRec(131, 8), "points", "points.range")
	// No trick but points: the last trick's 10 needs a trick.
	refuse(t, s, tb, rufenRec(10, 0), "points", "points.no-trick")
	// One trick: 4 cards + last trick: at most 44 + 10 = 54.
	refuse(t, s, tb, rufenRec(55, 1), "points", "points.too-many")
	if _, err := Score(s, tb, rufenRec(54, 1)); err != nil {
		t.Fatal(err)
	}
	// Kontra outside 0–10; matzl without trump.
	refuse(t, s, tb, Record{Contract: "neid", Declarer: "Ben", Points: ip(70), Tricks: ip(5), Kontra: ip(11)}, "kontra", "kontra.range")
	refuse(t, s, tb, Record{Contract: "durch", Declarer: "Ben", Tricks: ip(8), Matzl: MatzlDeclarer}, "matzl", "matzl.no-trump")
	refuse(t, s, tb, Record{Contract: "durch", Declarer: "Ben", Tricks: ip(8), Trump: Hearts}, "trump", "trump.none")
	refuse(t, s, tb, Record{Contract: "neid", Declarer: "Ben", Points: ip(70), Tricks: ip(5), Matzl: "nobody"}, "matzl", "matzl.unknown")
	refuse(t, s, tb, Record{Contract: "treiben", Declarer: "Ben", Partner: "Cleo", Points: ip(70), Tricks: ip(5)}, "partner", "field.not-taken")
}

// rules.md matzlfangen, value 3 ("A side that took no trick cannot have
// caught it: such a record is refused, never scored as a cancelled deal")
// and "Input checks every variant gets: a matzl caught by a side that took
// no trick". Both sides: the declarer's side with 0 tricks, the defenders
// when the declarer's side took all 8.
func TestMatzlCaughtWithoutATrick(t *testing.T) {
	s := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	tb := Table{Dealer: 3}
	with := func(r Record, f func(*Record)) Record { f(&r); return r }
	refuse(t, s, tb, with(rufenRec(0, 0), func(r *Record) { r.Matzl = MatzlDeclarer }), "matzl", "matzl.declarer-no-trick")
	refuse(t, s, tb, with(rufenRec(130, 8), func(r *Record) { r.Matzl = MatzlDefenders }), "matzl", "matzl.defenders-no-trick")
	refuse(t, s, tb, Record{Contract: "neid", Declarer: "Ben", Points: ip(0), Tricks: ip(0), Matzl: MatzlDeclarer}, "matzl", "matzl.declarer-no-trick")
	refuse(t, s, tb, Record{Contract: "trumpf-durch", Declarer: "Ben", Tricks: ip(8), Matzl: MatzlDefenders}, "matzl", "matzl.defenders-no-trick")
	refuse(t, s, tb, Record{Contract: "trumpf-durch", Declarer: "Ben", Tricks: ip(0), Matzl: MatzlDeclarer}, "matzl", "matzl.declarer-no-trick")
	// With the tricks left out, the points given are what is refused, not
	// a count the recorder never said.
	refuse(t, s, tb, Record{Contract: "rufen", Partner: "Cleo", Points: ip(125), Matzl: MatzlDefenders}, "matzl", "matzl.defenders-few-points")
	refuse(t, s, tb, Record{Contract: "rufen", Partner: "Cleo", Points: ip(5), Matzl: MatzlDeclarer}, "matzl", "matzl.declarer-few-points")
	// One trick is enough to have caught it.
	for _, rec := range []Record{
		with(rufenRec(14, 1), func(r *Record) { r.Matzl = MatzlDeclarer }),
		with(rufenRec(116, 7), func(r *Record) { r.Matzl = MatzlDefenders }),
	} {
		if _, err := Score(s, tb, rec); err != nil {
			t.Errorf("a matzl caught with one trick: %v", err)
		}
	}
	// Announced step by step, the tricks are not known yet: the count is
	// what is refused.
	if err := CheckAnnouncement(s, tb, Record{Contract: "rufen", Partner: "Cleo", Matzl: MatzlDeclarer}, true); err != nil {
		t.Errorf("announcing a matzl before the count: %v", err)
	}
}
