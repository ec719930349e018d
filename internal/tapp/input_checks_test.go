package tapp

import (
	"testing"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// rules.md "Input checks", the records issue #36 found the app should
// refuse: each refused by the decide step the pages, the API and an
// import share, and nothing recorded.

func TestTalonSumNoCardsMake(t *testing.T) {
	// Zuger: a trickless declarer holds only the talon of 4: 37 or 40,
	// never 38 or 39.
	z := game(t, "zuger", four, nil)
	z.when(RecordHand{Record: payout.Record{Contract: "tapp", Declarer: "Ben", Points: ip(38), Tricks: ip(0)}}).thenErr(problem.Input, "points.no-cards")
	z.when(RecordHand{Record: payout.Record{Contract: "tapp", Declarer: "Ben", Points: ip(40), Tricks: ip(0)}}).
		then(HandRecorded{Hand: 1, Dealer: "Anna", Record: payout.Record{Contract: "tapp", Declarer: "Ben", Points: ip(40), Tricks: ip(0)},
			PotAfter: u(0), Scored: scored(0, "Anna", 3, "Ben", -9, "Cleo", 3, "Dan", 3)})
	// Württemberg with 3 players: a tapp of 3 cannot hold 27–29.
	w := game(t, "wuerttemberg", three, nil)
	w.when(RecordHand{Record: payout.Record{Contract: "suit", Declarer: "Ben", Trump: "clubs", Points: ip(27), Tricks: ip(0)}}).thenErr(problem.Input, "points.no-cards")
}

func TestMatzlCaughtWithUnderTenPoints(t *testing.T) {
	g := game(t, "matzlfangen", four, nil)
	g.when(RecordHand{Record: payout.Record{Contract: "treiben", Declarer: "Ben", Trump: "hearts", Points: ip(8), Tricks: ip(1), Matzl: payout.MatzlDeclarer}}).
		thenErr(problem.Input, "matzl.declarer-few-points")
	g.when(RecordHand{Record: payout.Record{Contract: "treiben", Declarer: "Ben", Trump: "hearts", Points: ip(125), Tricks: ip(7), Matzl: payout.MatzlDefenders}}).
		thenErr(problem.Input, "matzl.defenders-few-points")
}

// Possible player by player, impossible together: Anna's 6 tricks of 24
// cards hold at least 20 points, since the others' 12 cards cannot hold
// more than 12 of the 20 counting cards.
func TestRamschImpossibleTogether(t *testing.T) {
	rs := func(p, t int) payout.RamschScore { return payout.RamschScore{Points: ip(p), Tricks: ip(t)} }
	g := game(t, "wuerttemberg", four, nil)
	g.when(RecordHand{Record: payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": rs(10, 6), "Ben": rs(50, 1), "Cleo": rs(60, 1), "Dan": rs(0, 0)}}}).thenErr(problem.Input, "ramsch.impossible")
	// Corrected into it, refused the same.
	g.and(RecordHand{Record: ramsch()})
	g.when(CorrectHand{Hand: 1, Record: payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": rs(10, 6), "Ben": rs(50, 1), "Cleo": rs(60, 1), "Dan": rs(0, 0)}}}).thenErr(problem.Input, "ramsch.impossible")
}

// Tricks are optional (api.md "Recording a deal") except where the count
// changes the money for the points given; and given beside won or lost,
// they must agree.
func TestOptionalTricksRefusedWhereTheyCount(t *testing.T) {
	z := game(t, "zuger", four, nil)
	z.when(RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(120)}}).thenErr(problem.Input, "tricks.money")
	w := game(t, "wuerttemberg", four, nil)
	w.when(RecordHand{Record: payout.Record{Contract: "bettel", Declarer: "Ben", Won: bp(true), Tricks: ip(2)}}).thenErr(problem.Input, "won.tricks")
}

// api.md "Recording a deal": a Ramsch may leave out one player's points
// (the rest of the pack) and every trick count but a 0. Recorded as given,
// it pays as the whole record would; what no count left out can make
// possible is refused.
func TestRamschLeftOut(t *testing.T) {
	pts := func(p int) payout.RamschScore { return payout.RamschScore{Points: ip(p)} }
	g := game(t, "wuerttemberg", four, nil)
	// Two players' points left out: the second cannot follow from the rest.
	g.when(RecordHand{Record: payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": pts(50), "Ben": {}, "Cleo": pts(30), "Dan": {}}}}).thenErr(problem.Input, "ramsch.points-missing")
	// Anna's 6 tricks and Ben's 2 are the deal's 8: Cleo's, left out, has none.
	g.when(RecordHand{Record: payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": {Points: ip(60), Tricks: ip(6)}, "Ben": {Points: ip(40), Tricks: ip(2)}, "Cleo": pts(20), "Dan": {Points: ip(0), Tricks: ip(0)}}}}).
		thenErr(problem.Input, "ramsch.impossible")
	rec := payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": pts(50), "Ben": pts(40), "Cleo": {}, "Dan": {Points: ip(0), Tricks: ip(0)}}}
	g.when(RecordHand{Record: rec}).
		then(HandRecorded{Hand: 1, Dealer: "Anna", Record: rec, PotAfter: u(0), Scored: scored(0, "Anna", -20, "Ben", 5, "Cleo", 5, "Dan", 10)})
}
