package payout

import (
	"encoding/json"
	"fmt"
	"github.com/shopspring/decimal"
	"testing"

	"tappbook/internal/problem"
)

func wRec(contract, trump string, points, tricks *int) Record {
	return Record{Contract: contract, Declarer: "Ben", Trump: trump, Points: points, Tricks: tricks}
}

func TestWuerttembergThreePlayers(t *testing.T) {
	s := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	s.Rules.SuitTapp = true
	w := func(v int64) []int64 { return []int64{-v, 2 * v, -v} }
	runDeals(t, s, []dealCase{
		{name: "suit clubs 61", cite: "wuerttemberg precedence 1: suit clubs/spades/diamonds 5, wins ≥ 61", rec: wRec("suit", Clubs, ip(61), nil), want: w(5), outcome: Won, value: 5},
		{name: "suit diamonds 60", cite: "wuerttemberg precedence 1: 60 loses", rec: wRec("suit", Diamonds, ip(60), nil), want: w(-5), outcome: Lost, value: 5},
		{name: "suit hearts 61", cite: "wuerttemberg precedence 2: suit hearts 10", rec: wRec("suit", Hearts, ip(61), ip(4)), want: w(10), value: 10},
		{name: "suit-tapp", cite: "wuerttemberg precedence 0: suit-tapp 5 (Decision)", rec: Record{Contract: "suit-tapp", Declarer: "Ben", Points: ip(70)}, want: w(5), value: 5},
		{name: "suit-tapp lost", cite: "wuerttemberg precedence 0: suit-tapp loses under 61", rec: Record{Contract: "suit-tapp", Declarer: "Ben", Points: ip(50)}, want: w(-5), value: 5},
		{name: "bettel no trick", cite: "wuerttemberg precedence 3: bettel 15, wins with no trick", rec: wRec("bettel", "", nil, ip(0)), want: w(15), value: 15},
		{name: "bettel one trick", cite: "wuerttemberg precedence 3: bettel loses with a trick", rec: wRec("bettel", "", nil, ip(1)), want: w(-15), value: 15},
		{name: "rufer spades all tricks", cite: "wuerttemberg precedence 4: rufer 15, takes every trick", rec: wRec("rufer", Spades, nil, ip(11)), want: w(15), value: 15},
		{name: "rufer spades one fewer", cite: "wuerttemberg precedence 4: one trick short loses", rec: wRec("rufer", Spades, nil, ip(10)), want: w(-15), value: 15},
		{name: "rufer hearts", cite: "wuerttemberg precedence 5: rufer hearts 30", rec: wRec("rufer", Hearts, nil, ip(11)), want: w(30), value: 30},
		{name: "open bettel", cite: "wuerttemberg precedence 6: open-bettel 30", rec: wRec("open-bettel", "", nil, ip(0)), want: w(30), value: 30},
		{name: "durch clubs", cite: "wuerttemberg precedence 7: durch 30", rec: wRec("durch", Clubs, nil, ip(11)), want: w(30), value: 30},
		{name: "durch hearts lost", cite: "wuerttemberg precedence 8: durch hearts 60", rec: wRec("durch", Hearts, nil, ip(9)), want: w(-60), value: 60},
		{name: "durch with points", cite: "wuerttemberg: points given where not required are checked, then ignored", rec: wRec("durch", Hearts, ip(110), ip(11)), want: w(60), value: 60},
		// Ramsch: the most points pays 5 to each, 10 to a Jungfer.
		{name: "ramsch", cite: "wuerttemberg ramsch: the player with most points pays 5 to each other player", rec: ramsch(map[string][2]int{"Anna": {50, 5}, "Ben": {40, 4}, "Cleo": {30, 2}}), want: []int64{-10, 5, 5}, outcome: Ramsch, value: 5},
		{name: "ramsch with a Jungfer", cite: "wuerttemberg ramsch: 10 to each player who took no trick (Jungfer)", rec: ramsch(map[string][2]int{"Anna": {70, 7}, "Ben": {50, 4}, "Cleo": {0, 0}}), want: []int64{-15, 5, 10}, value: 5},
		{name: "ramsch tie for most", cite: "wuerttemberg ramsch Decision: tied players each pay every player not in the tie", rec: ramsch(map[string][2]int{"Anna": {50, 5}, "Ben": {50, 4}, "Cleo": {20, 2}}), want: []int64{-5, -5, 10}, value: 5},
		{name: "ramsch everyone ties", cite: "wuerttemberg ramsch Decision: if everyone ties, nobody pays", rec: ramsch(map[string][2]int{"Anna": {40, 4}, "Ben": {40, 4}, "Cleo": {40, 3}}), want: []int64{0, 0, 0}, value: 0},
	})
}

func ramsch(m map[string][2]int) Record {
	r := Record{Contract: "ramsch", Ramsch: map[string]RamschScore{}}
	for name, pt := range m {
		r.Ramsch[name] = RamschScore{Points: ip(pt[0]), Tricks: ip(pt[1])}
	}
	return r
}

func TestWuerttembergFourPlayers(t *testing.T) {
	s := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan")
	runDeals(t, s, []dealCase{
		{name: "suit clubs", cite: "wuerttemberg: 4 players, the declarer receives the value from each of three", rec: wRec("suit", Clubs, ip(75), ip(5)), want: []int64{-5, 15, -5, -5}, value: 5},
		{name: "rufer all 8 tricks", cite: "wuerttemberg: 4 players, 8 tricks", rec: wRec("rufer", Clubs, nil, ip(8)), want: []int64{-15, 45, -15, -15}, value: 15},
		{name: "ramsch tie of two among four", cite: "wuerttemberg ramsch Decision: each tied player pays every player not in the tie", rec: ramsch(map[string][2]int{"Anna": {45, 3}, "Ben": {45, 3}, "Cleo": {30, 2}, "Dan": {0, 0}}), want: []int64{-15, -15, 10, 20}, value: 5},
	})
	// The tapp of 4 counts for the declarer in suit games: no trick, up to 44.
	refuse(t, s, Table{}, wRec("suit", Clubs, ip(45), ip(0)), "points", "points.no-trick-talon")
	if _, err := Score(s, Table{}, wRec("suit", Clubs, ip(44), ip(0))); err != nil {
		t.Fatal(err)
	}
	// In bettel the tapp is not the declarer's: no trick, no points.
	refuse(t, s, Table{}, wRec("bettel", "", ip(10), ip(0)), "points", "points.no-trick")
	// House rule cards 32: 7 tricks each for 4 players.
	s.Rules.Cards = 32
	runDeals(t, s, []dealCase{{name: "32 cards: durch with 7 tricks", cite: "wuerttemberg house rule cards 32: 7 tricks for 4 players", rec: wRec("durch", Spades, nil, ip(7)), want: []int64{-30, 90, -30, -30}, value: 30}})
	refuse(t, s, Table{}, wRec("durch", Spades, nil, ip(8)), "tricks", "tricks.range")
}

func TestWuerttembergCustomValues(t *testing.T) {
	r, err := DecodeRules(Wuerttemberg, map[string]json.RawMessage{"values": json.RawMessage(`{"suit": 10, "jungfer": "20"}`), "suit_tapp": json.RawMessage(`true`)})
	if err != nil {
		t.Fatal(err)
	}
	s := Setup{Variant: Wuerttemberg, Players: []string{"Anna", "Ben", "Cleo"}, Rules: r}
	runDeals(t, s, []dealCase{
		{name: "suit worth 10", cite: "wuerttemberg: all values are house-rule settings", rec: wRec("suit", Clubs, ip(61), nil), want: []int64{-10, 20, -10}, value: 10},
		{name: "unchanged hearts", cite: "wuerttemberg: defaults stay for values not set", rec: wRec("suit", Hearts, ip(61), nil), want: []int64{-10, 20, -10}, value: 10},
		{name: "jungfer worth 20", cite: "wuerttemberg: the jungfer value is a house rule", rec: ramsch(map[string][2]int{"Anna": {70, 7}, "Ben": {50, 4}, "Cleo": {0, 0}}), want: []int64{-25, 5, 20}, value: 5},
	})
}

// rules.md Württemberg precedence 0: in suit-tapp hearts are always trump,
// and api.md gives trump only to suit, rufer and durch: a new suit-tapp
// naming a trump is refused, even hearts; one stored with hearts named
// (before that was refused) still scores, as it did.
func TestWuerttembergSuitTappTakesNoTrump(t *testing.T) {
	r, err := DecodeRules(Wuerttemberg, map[string]json.RawMessage{"suit_tapp": json.RawMessage(`true`)})
	if err != nil {
		t.Fatal(err)
	}
	s := Setup{Variant: Wuerttemberg, Players: []string{"Anna", "Ben", "Cleo"}, Rules: r}
	plain := Record{Contract: "suit-tapp", Declarer: "Ben", Points: ip(70)}
	for _, trump := range []string{Hearts, Clubs} {
		named := plain
		named.Trump = trump
		if _, err := ScoreNew(s, Table{}, named); !isInputErr(err, "trump", "field.not-taken") {
			t.Fatalf("a new suit-tapp naming %s: %v", trump, err)
		}
		if err := CheckAnnouncement(s, Table{}, Record{Contract: "suit-tapp", Declarer: "Ben", Trump: trump}, true); !isInputErr(err, "trump", "field.not-taken") {
			t.Fatalf("a suit-tapp announced with %s: %v", trump, err)
		}
	}
	fresh, err := ScoreNew(s, Table{}, plain)
	if err != nil {
		t.Fatal(err)
	}
	named := plain
	named.Trump = Hearts
	stored, err := Score(s, Table{}, named)
	if err != nil || fmt.Sprint(stored.Deltas) != fmt.Sprint(fresh.Deltas) {
		t.Fatalf("a stored suit-tapp with hearts named: %v (%v), without: %v", stored.Deltas, err, fresh.Deltas)
	}
	named.Trump = Clubs
	if _, err := Score(s, Table{}, named); err == nil {
		t.Fatal("a stored suit-tapp with clubs trump scored")
	}
}

func isInputErr(err error, field, code string) bool {
	pe, ok := problem.As(err)
	return ok && pe.Field == field && pe.Code == code
}

func TestWuerttembergChecks(t *testing.T) {
	s := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	tb := Table{}
	refuse(t, s, tb, Record{Contract: "suit-tapp", Declarer: "Ben", Points: ip(70)}, "contract", "contract.suit-tapp-off")
	refuse(t, s, tb, wRec("suit", "rosen", ip(70), nil), "trump", "trump.unknown")
	refuse(t, s, tb, wRec("bettel", "", nil, nil), "tricks", "tricks.missing")
	refuse(t, s, tb, wRec("bettel", Clubs, nil, ip(0)), "trump", "trump.none")
	refuse(t, s, tb, Record{Contract: "ramsch"}, "ramsch", "ramsch.missing")
	refuse(t, s, tb, Record{Contract: "ramsch", Declarer: "Ben"}, "declarer", "field.not-taken")
	all := func(a, b, c [2]int) map[string][2]int { return map[string][2]int{"Anna": a, "Ben": b, "Cleo": c} }
	// Ramsch points that do not add up to the pack; tricks to the deal.
	refuse(t, s, tb, ramsch(all([2]int{50, 5}, [2]int{40, 4}, [2]int{20, 2})), "ramsch", "ramsch.points-sum")
	refuse(t, s, tb, ramsch(all([2]int{50, 5}, [2]int{40, 4}, [2]int{30, 1})), "ramsch", "ramsch.tricks-sum")
	// A player with points and no tricks.
	refuse(t, s, tb, ramsch(all([2]int{50, 6}, [2]int{40, 5}, [2]int{30, 0})), "ramsch.Cleo.points", "ramsch.points-no-trick")
	refuse(t, s, tb, ramsch(all([2]int{119, 6}, [2]int{0, 0}, [2]int{1, 5})), "ramsch.Cleo.points", "ramsch.points-one")
	refuse(t, s, tb, ramsch(all([2]int{121, 6}, [2]int{0, 0}, [2]int{0, 5})), "ramsch.Anna.points", "ramsch.points-range")
	refuse(t, s, tb, ramsch(all([2]int{60, 12}, [2]int{30, 0}, [2]int{30, 0})), "ramsch.Anna.tricks", "ramsch.tricks-range")
	// One trick of 3 cards + the tapp of 3: at most 4 aces + 2 tens = 64.
	refuse(t, s, tb, ramsch(all([2]int{65, 1}, [2]int{30, 5}, [2]int{25, 5})), "ramsch.Anna.points", "ramsch.points-too-many")
	// api.md: one player's points may be left out, and tricks unless 0;
	// not two players' points.
	r := ramsch(all([2]int{50, 5}, [2]int{40, 4}, [2]int{30, 2}))
	delete(r.Ramsch, "Cleo")
	delete(r.Ramsch, "Ben")
	refuse(t, s, tb, r, "ramsch.Ben", "ramsch.player-missing")
	r.Ramsch["Zoe"] = RamschScore{Points: ip(30), Tricks: ip(2)}
	refuse(t, s, tb, r, "ramsch", "ramsch.unknown")
	r = ramsch(all([2]int{50, 5}, [2]int{40, 4}, [2]int{30, 2}))
	r.Ramsch["Cleo"], r.Ramsch["Ben"] = RamschScore{Tricks: ip(2)}, RamschScore{Tricks: ip(4)}
	refuse(t, s, tb, r, "ramsch.Ben.points", "ramsch.points-missing")
	// The points left out are the rest of the pack, and checked as typed.
	r = ramsch(all([2]int{80, 5}, [2]int{39, 4}, [2]int{0, 2}))
	r.Ramsch["Cleo"] = RamschScore{Tricks: ip(2)}
	refuse(t, s, tb, r, "ramsch.Cleo.points", "ramsch.points-one")
	r.Ramsch["Ben"] = RamschScore{Points: ip(50), Tricks: ip(4)}
	refuse(t, s, tb, r, "ramsch", "ramsch.points-sum")
	r.Ramsch["Anna"], r.Ramsch["Ben"], r.Ramsch["Cleo"] = RamschScore{Points: ip(70), Tricks: ip(5)}, RamschScore{Points: ip(40), Tricks: ip(4)}, RamschScore{Tricks: ip(0)}
	refuse(t, s, tb, r, "ramsch.Cleo.points", "ramsch.points-no-trick")
	// Tricks left out are at least one each: none left for Cleo's.
	r = ramsch(all([2]int{50, 5}, [2]int{40, 6}, [2]int{30, 0}))
	r.Ramsch["Cleo"] = RamschScore{Points: ip(30)}
	refuse(t, s, tb, r, "ramsch", "ramsch.impossible")
	r.Ramsch["Ben"] = RamschScore{Points: ip(40), Tricks: ip(7)}
	refuse(t, s, tb, r, "ramsch", "ramsch.tricks-sum")
	// Together: Anna's 64 points need her one trick and the tapp, so
	// nobody else took the last trick: Ben's 56 cannot fit in 2 tricks.
	r = Record{Contract: "ramsch", Ramsch: map[string]RamschScore{"Anna": {Points: ip(64), Tricks: ip(1)}, "Ben": {Points: ip(56), Tricks: ip(2)}, "Cleo": {Points: ip(0)}}}
	refuse(t, s, tb, r, "ramsch", "ramsch.impossible")
	// A Jungfer's tricks left out read as at least one: the others took
	// every trick, so the refusal asks for hers, 0.
	r = ramsch(all([2]int{60, 6}, [2]int{60, 5}, [2]int{0, 0}))
	r.Ramsch["Cleo"] = RamschScore{Points: ip(0)}
	refuse(t, s, tb, r, "ramsch.Cleo.tricks", "ramsch.tricks-none-left")
}

// api.md "Recording a deal": in a Ramsch one player's points may be left
// out (the rest of the pack) and a player's tricks unless 0; the deal
// pays as if they were given.
func TestWuerttembergRamschLeftOut(t *testing.T) {
	s := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan")
	left := func(m map[string][2]int) Record {
		r := Record{Contract: "ramsch", Ramsch: map[string]RamschScore{}}
		for name, pt := range m {
			sc := RamschScore{}
			if pt[0] >= 0 {
				sc.Points = ip(pt[0])
			}
			if pt[1] >= 0 {
				sc.Tricks = ip(pt[1])
			}
			r.Ramsch[name] = sc
		}
		return r
	}
	runDeals(t, s, []dealCase{
		{name: "only points, the last left out", cite: "wuerttemberg ramsch; api.md: one player's points may be left out, tricks unless 0",
			rec: left(map[string][2]int{"Anna": {50, -1}, "Ben": {40, -1}, "Cleo": {20, -1}, "Dan": {-1, -1}}), want: []int64{-15, 5, 5, 5}, outcome: Ramsch, value: 5},
		{name: "a Jungfer's 0 tricks given", cite: "wuerttemberg ramsch: 10 to a Jungfer; api.md: tricks given where 0",
			rec: left(map[string][2]int{"Anna": {-1, -1}, "Ben": {40, -1}, "Cleo": {0, 0}, "Dan": {0, -1}}), want: []int64{-20, 5, 10, 5}, value: 5},
		{name: "the player left out pays", cite: "wuerttemberg ramsch: the most points pays, whoever's were left out",
			rec: left(map[string][2]int{"Anna": {-1, -1}, "Ben": {30, 3}, "Cleo": {20, -1}, "Dan": {10, -1}}), want: []int64{-15, 5, 5, 5}, value: 5},
	})
	// Left out, Dan's player entry is none at all.
	r := left(map[string][2]int{"Anna": {50, -1}, "Ben": {40, -1}, "Cleo": {20, -1}})
	if _, err := ScoreNew(s, Table{}, r); err != nil {
		t.Fatalf("a Ramsch without the last player's entry: %v", err)
	}
}

// rules.md "End of the evening": the ♥A holder deals the last regular round;
// then each player deals one Zwangsramsch.
func TestWuerttembergEnd(t *testing.T) {
	cases := []struct {
		players, holder, holderHand, next int
		last, forced                      int
		done                              bool
	}{
		// 3 players; Ben (seat 1) was dealt ♥A in deal 3; he deals 2, 5, 8: deal 5 is the last regular one.
		{3, 1, 3, 4, 5, 0, false},
		{3, 1, 3, 5, 5, 0, false},
		{3, 1, 3, 6, 5, 1, false},
		{3, 1, 3, 8, 5, 3, false},
		{3, 1, 3, 9, 5, 0, true},
		// The holder dealt the deal they got ♥A in: their next deal is a full round later.
		{4, 2, 3, 4, 7, 0, false},
		{4, 2, 3, 11, 7, 4, false},
		{4, 2, 3, 12, 7, 0, true},
	}
	for _, c := range cases {
		last, forced, done := WuerttembergEnd(c.players, c.holder, c.holderHand, c.next)
		if last != c.last || forced != c.forced || done != c.done {
			t.Errorf("%+v: last %d, Zwangsramsch %d, done %v", c, last, forced, done)
		}
	}
}

// A suit, rufer or durch names its trump: hearts pays double (rules.md,
// wuerttemberg precedence 1–8; api.md gives trump to all three). One
// stored while only hearts or not was asked, with its trump left out, is
// re-scored as clubs, spades or diamonds, which pay alike.
func TestWuerttembergTrumpIsNamed(t *testing.T) {
	s := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	for _, c := range []struct {
		rec  Record
		want int64
	}{
		{wRec("suit", "", ip(61), nil), 5},
		{wRec("rufer", "", nil, ip(11)), 15},
		{wRec("durch", "", nil, ip(10)), -30},
	} {
		if _, err := ScoreNew(s, Table{}, c.rec); !isInputErr(err, "trump", "trump.missing") {
			t.Errorf("a new %s without its trump: %v, want trump.missing", c.rec.Contract, err)
		}
		res, err := Score(s, Table{}, c.rec)
		if err != nil {
			t.Fatalf("stored %s without its trump: %v", c.rec.Contract, err)
		}
		if got := res.Deltas[1]; !got.Equal(decimal.NewFromInt(2 * c.want)) {
			t.Errorf("stored %s without its trump: the declarer gets %s, want %d", c.rec.Contract, got, 2*c.want)
		}
	}
}
