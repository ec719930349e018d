package payout

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

func oldRec(contract string, points int) Record {
	return Record{Contract: contract, Declarer: "Ben", Trump: oldTrump(contract), Points: ip(points)}
}

func toutRec(contract string, tricks int) Record {
	return Record{Contract: contract, Declarer: "Ben", Trump: oldTrump(contract), Tout: bp(true), Tricks: ip(tricks)}
}

// oldTrump is the trump a solo's declarer names; the other contracts name
// none (hearts are trump).
func oldTrump(contract string) string {
	if contract == "solo" {
		return Clubs
	}
	return ""
}

// rules.md old-tapp contracts: in a solo "declarer names clubs, spades or
// diamonds trump", but which does not change the money, so a solo may
// leave it out (api.md "Recording a deal"): it pays as with any suit named.
func TestOldTappSoloNamesItsTrump(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	table := Table{Dealer: 0, Pot: d(4)}
	for _, r := range []Record{
		{Contract: "solo", Declarer: "Ben", Points: ip(70)},
		{Contract: "solo", Declarer: "Ben", Tout: bp(true), Tricks: ip(11)},
	} {
		if err := CheckAnnouncement(s, table, Record{Contract: "solo", Declarer: "Ben"}, true); err != nil {
			t.Fatalf("a solo announced without trump: %v", err)
		}
		stored, err := ScoreNew(s, table, r)
		if err != nil {
			t.Fatalf("a stored solo without trump: %v", err)
		}
		named := r
		named.Trump = Diamonds
		if fresh, err := ScoreNew(s, table, named); err != nil || fmt.Sprint(fresh.Deltas, fresh.PotDelta) != fmt.Sprint(stored.Deltas, stored.PotDelta) {
			t.Fatalf("with trump named: %v %v, without: %v %v (%v)", fresh.Deltas, fresh.PotDelta, stored.Deltas, stored.PotDelta, err)
		}
	}
	if _, err := ScoreNew(s, table, Record{Contract: "solo", Declarer: "Ben", Trump: Hearts, Points: ip(70)}); err == nil {
		t.Fatal("a solo with hearts trump (that is coeursolo)")
	}
}

// Seats: Anna deals (seat 0, pays the stake of 2), Ben declares, Cleo.
func TestOldTapp(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	runDeals(t, s, []dealCase{
		{name: "pass", cite: "old-tapp: all pass, the stake stays in the pot", rec: Record{Contract: "pass"}, want: []int64{-2, 0, 0}, wantPot: 2, outcome: Passed, value: 0},
		// Seed example: coeurfrage with 73 → excess 13 → 3¼ → 4.
		{name: "coeurfrage 73", cite: "old-tapp worked example: coeurfrage 73, excess 13, 13/4 = 3¼, each opponent pays 4", rec: oldRec("coeurfrage", 73), want: []int64{-4 - 2, 8, -4}, wantPot: 2, outcome: Won, value: 4},
		{name: "coeurfrage 61", cite: "old-tapp coeurfrage ≥ 61: ⌈1/4⌉ = 1", rec: oldRec("coeurfrage", 61), want: []int64{-1 - 2, 2, -1}, wantPot: 2, value: 1},
		{name: "coeurfrage 60", cite: "old-tapp coeurfrage ≤ 60: at exactly 60 nothing", rec: oldRec("coeurfrage", 60), want: []int64{-2, 0, 0}, wantPot: 2, outcome: Even, value: 0},
		{name: "coeurfrage 59", cite: "old-tapp coeurfrage ≤ 60: ⌈1/4⌉ = 1 to each opponent and 1 into the pot", rec: oldRec("coeurfrage", 59), want: []int64{1 - 2, -3, 1}, wantPot: 3, value: 1},
		{name: "coeurfrage 50", cite: "old-tapp coeurfrage ≤ 60: shortfall 10, ⌈10/4⌉ = 3 each and 3 into the pot", rec: oldRec("coeurfrage", 50), want: []int64{3 - 2, -9, 3}, wantPot: 5, value: 3},
		// Solo: takes the pot as it stands, this deal's stake included.
		{name: "solo 61 takes the pot", cite: "old-tapp solo ≥ 61: takes the whole pot; each opponent pays ⌈excess/2⌉", pot: 4, rec: oldRec("solo", 61), want: []int64{-1 - 2, 6 + 2, -1}, wantPot: 2 - 6, value: 1},
		{name: "solo 74", cite: "old-tapp solo ≥ 61: excess 14 / 2 = 7", pot: 4, rec: oldRec("solo", 74), want: []int64{-7 - 2, 6 + 14, -7}, wantPot: -4, value: 7},
		{name: "solo 60 doubles", cite: "old-tapp solo ≤ 60: pays into the pot as much as it holds; ⌈0/2⌉ = 0 each", pot: 4, rec: oldRec("solo", 60), want: []int64{-2, -6, 0}, wantPot: 2 + 6, outcome: Lost, value: 0},
		{name: "solo 45", cite: "old-tapp solo ≤ 60: shortfall 15 / 2 = 7½ → 8 each, doubles the pot", pot: 4, rec: oldRec("solo", 45), want: []int64{8 - 2, -16 - 6, 8}, wantPot: 8, value: 8},
		{name: "coeursolo 70", cite: "old-tapp coeursolo ≥ 61: takes the pot; each opponent pays the excess", pot: 10, rec: oldRec("coeursolo", 70), want: []int64{-10 - 2, 12 + 20, -10}, wantPot: -10, value: 10},
		{name: "coeursolo 55", cite: "old-tapp coeursolo ≤ 60: doubles the pot; pays each opponent the shortfall", pot: 10, rec: oldRec("coeursolo", 55), want: []int64{5 - 2, -10 - 12, 5}, wantPot: 14, value: 5},
		// Tout: all 11 tricks.
		{name: "solo tout won", cite: "old-tapp solo + tout, all 11 tricks: takes the pot; each opponent pays 60", rec: toutRec("solo", 11), want: []int64{-60 - 2, 120 + 2, -60}, wantPot: 0, outcome: Won, value: 60},
		{name: "solo tout lost", cite: "old-tapp solo + tout lost: pays each opponent 60 and doubles the pot", pot: 1, rec: toutRec("solo", 10), want: []int64{60 - 2, -120 - 3, 60}, wantPot: 2 + 3, outcome: Lost, value: 60},
		{name: "coeursolo tout won", cite: "old-tapp coeursolo + tout: each opponent pays 120", rec: toutRec("coeursolo", 11), want: []int64{-120 - 2, 240 + 2, -120}, wantPot: 0, value: 120},
		{name: "coeursolo tout lost", cite: "old-tapp coeursolo + tout lost: pays each 120, doubles the pot", rec: toutRec("coeursolo", 0), want: []int64{120 - 2, -240 - 2, 120}, wantPot: 4, value: 120},
		{name: "solo tout false", cite: "old-tapp: tout not announced is a points solo", rec: Record{Contract: "solo", Declarer: "Ben", Tout: bp(false), Points: ip(61), Trump: Clubs}, want: []int64{-1 - 2, 2 + 2, -1}, wantPot: 0, value: 1},
	})
}

func TestOldTappDealerDeclares(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	rec := Record{Contract: "solo", Declarer: "Anna", Trump: Spades, Points: ip(70)}
	runDeals(t, s, []dealCase{{name: "the dealer wins a solo", cite: "old-tapp: the dealer's stake is in the pot the solo takes", rec: rec, pot: 3, want: []int64{-2 + 5 + 10, -5, -5}, wantPot: 2 - 5, value: 5}})
}

func TestOldTappTalonToATricklessDeclarer(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	// Counting: the talon counts for the declarer only with a trick, so a
	// trickless declarer has 0.
	refuse(t, s, Table{}, Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(10), Tricks: ip(0)}, "points", "points.no-trick")
	// With one trick: 3 cards + 3 talon = 6 cards, at most 4 aces + 2 tens = 64.
	refuse(t, s, Table{}, Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(65), Tricks: ip(1)}, "points", "points.too-many")
	// Declarer with no trick: the opponents hold all 36 cards, so points 0 is fine.
	if _, err := Score(s, Table{}, Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(0), Tricks: ip(0)}); err != nil {
		t.Fatal(err)
	}
	// All 11 tricks: all 120.
	refuse(t, s, Table{}, Record{Contract: "solo", Declarer: "Ben", Points: ip(100), Tricks: ip(11)}, "points", "points.all-tricks")
}

// The pot across a sequence of deals, then the final split.
func TestOldTappPotAcrossAnEvening(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	s.Rules.Remainder = RemainderBiggestLoser
	bal := []decimal.Decimal{d(0), d(0), d(0)}
	pot := d(0)
	steps := []struct {
		rec     Record
		wantPot int64
		cite    string
	}{
		{Record{Contract: "pass"}, 2, "stake 2 into the pot, passed in"},
		{Record{Contract: "pass"}, 4, "the stake is put in even though the pot holds money"},
		{oldRec("coeurfrage", 50), 6 + 3, "lost coeurfrage pays 3 into the pot too"},
		{Record{Contract: "solo", Declarer: "Cleo", Points: ip(40), Trump: Spades}, (9 + 2) * 2, "lost solo doubles the pot (stake included)"},
		{oldRec("coeurfrage", 80), 24, "won coeurfrage leaves the pot be"},
		{Record{Contract: "coeursolo", Declarer: "Anna", Points: ip(62)}, 0, "won coeursolo takes the pot"},
		{toutRec("solo", 9), 2 * 2, "lost tout doubles the pot"},
		{Record{Contract: "coeursolo", Declarer: "Cleo", Tout: bp(true), Tricks: ip(11), Points: ip(120)}, 0, "won tout takes the pot"},
		{Record{Contract: "pass"}, 2, "passed in"},
		{Record{Contract: "pass"}, 4, "passed in"},
		{oldRec("coeurfrage", 30), 6 + 8, "shortfall 30 / 4 = 7½ → 8 into the pot"},
	}
	for i, st := range steps {
		dealer := i % 3
		res, err := Score(s, Table{Dealer: dealer, Pot: pot}, st.rec)
		if err != nil {
			t.Fatalf("deal %d (%s): %v", i+1, st.cite, err)
		}
		for seat := range bal {
			bal[seat] = bal[seat].Add(res.Deltas[seat])
		}
		pot = pot.Add(res.PotDelta)
		if !pot.Equal(d(st.wantPot)) {
			t.Fatalf("deal %d (%s): pot = %s, want %d", i+1, st.cite, pot, st.wantPot)
		}
		sum := pot
		for _, b := range bal {
			sum = sum.Add(b)
		}
		if !sum.IsZero() {
			t.Fatalf("deal %d: balances + pot = %s", i+1, sum)
		}
	}
	// Final split of 14: 4 each, 2 left over to the biggest loser.
	split, err := SplitPot(s, bal, pot, nil)
	if err != nil {
		t.Fatal(err)
	}
	lowest := 0
	for seat := range bal {
		if bal[seat].LessThan(bal[lowest]) {
			lowest = seat
		}
	}
	for seat, share := range split.Shares {
		want := d(4)
		if seat == lowest {
			want = d(6)
		}
		if !share.Equal(want) {
			t.Errorf("final split: %s gets %s, want %s (balances %v)", s.Players[seat], share, want, bal)
		}
	}
}

func TestSplitPot(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	bal := func(a, b, c int64) []decimal.Decimal { return []decimal.Decimal{d(a), d(b), d(c)} }
	shares := func(sp Split) []int64 {
		var out []int64
		for _, x := range sp.Shares {
			out = append(out, x.IntPart())
		}
		return out
	}
	eq := func(a, b []int64) bool {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return len(a) == len(b)
	}
	cases := []struct {
		name    string
		rules   string
		bal     []decimal.Decimal
		pot     int64
		to      []string
		want    []int64
		errCode string
	}{
		{"even", RemainderBiggestLoser, bal(-5, 2, 0), 3, nil, []int64{1, 1, 1}, ""},
		{"one over to the biggest loser", RemainderBiggestLoser, bal(-5, 2, -1), 7, nil, []int64{3, 2, 2}, ""},
		{"two over to the biggest loser", RemainderBiggestLoser, bal(3, -9, -2), 8, nil, []int64{2, 4, 2}, ""},
		{"tie for lowest: the cut decides", RemainderBiggestLoser, bal(-4, -4, 0), 8, []string{"Ben"}, []int64{2, 4, 2}, ""},
		{"tie for lowest: one unit each", RemainderBiggestLoser, bal(-4, -4, 0), 8, []string{"Ben", "Anna"}, []int64{3, 3, 2}, ""},
		{"tie for lowest, no cut", RemainderBiggestLoser, bal(-4, -4, 0), 8, nil, nil, "split.remainder-needed"},
		{"tie: the cut names someone not tied", RemainderBiggestLoser, bal(-4, -4, 0), 8, []string{"Cleo"}, nil, "split.remainder-not-tied"},
		{"cut rule", RemainderCut, bal(-4, 2, 0), 7, []string{"Cleo"}, []int64{2, 2, 3}, ""},
		{"cut rule, two winners", RemainderCut, bal(-4, 2, 0), 5, []string{"Cleo", "Anna"}, []int64{2, 1, 2}, ""},
		{"cut rule without a cut", RemainderCut, bal(-4, 2, 0), 7, nil, nil, "split.remainder-needed"},
		{"cut rule, too many names", RemainderCut, bal(-4, 2, 0), 7, []string{"Cleo", "Anna"}, nil, "split.remainder-count"},
		{"cut rule, a stranger", RemainderCut, bal(-4, 2, 0), 7, []string{"Zoe"}, nil, "split.remainder-player"},
		{"empty pot", RemainderCut, bal(0, 0, 0), 0, nil, []int64{0, 0, 0}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.Rules.Remainder = c.rules
			sp, err := SplitPot(s, c.bal, d(c.pot), c.to)
			if c.errCode != "" {
				ie, ok := problem.As(err)
				if !ok || ie.Code != c.errCode {
					t.Fatalf("rules.md final split: want %s, got %v", c.errCode, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !eq(shares(sp), c.want) {
				t.Fatalf("rules.md final split (%s): shares %v, want %v", c.rules, shares(sp), c.want)
			}
		})
	}
}

// rules.md "End of the session": who may take the leftover units.
func TestRemainderEligible(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	s.Rules.Remainder = RemainderBiggestLoser
	bal := []decimal.Decimal{d(-4), d(2), d(-4)}
	if got := RemainderEligible(s, bal); fmt.Sprint(got) != "[Anna Cleo]" {
		t.Errorf("biggest-loser, a tie for lowest: %v", got)
	}
	s.Rules.Remainder = RemainderCut
	if got := RemainderEligible(s, bal); fmt.Sprint(got) != "[Anna Ben Cleo]" {
		t.Errorf("cut: %v", got)
	}
}
