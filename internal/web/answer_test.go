package web

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// A deal's answer is written byte for byte as encoding/json writes it, for
// random deals of every variant, with names that need escaping and details
// encoding/json would compact.
func TestAnswerAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	names := []string{"Anna", `A"n<n>a & B\o`, "Björn", "line\nbreak"}
	checked := 0
	for i := range 4000 {
		v := payout.Variants()[rng.IntN(4)]
		players := []string{names[rng.IntN(len(names))] + "1", "Ben", "Cleo", "Dan"}
		if v == payout.OldTapp {
			players = players[:3]
		}
		setup := payout.Setup{Variant: v, Players: players, Rules: payout.DefaultRules(v)}
		contracts := payout.Contracts(v)
		p, tr := rng.IntN(121), rng.IntN(9)
		rec := payout.Record{Contract: contracts[rng.IntN(len(contracts))], Declarer: players[rng.IntN(len(players))], Points: &p, Tricks: &tr}
		res, err := payout.Score(setup, payout.Table{Dealer: rng.IntN(len(players)), Pot: decimal.NewFromInt(rng.Int64N(30))}, rec)
		if err != nil {
			continue
		}
		sc, err := tapp.NewScored(setup, res)
		if err != nil {
			t.Fatal(err)
		}
		if i%13 == 0 {
			sc.Explanation = json.RawMessage(`{"a": [1, 2]}`)
		}
		a := answerOut(game.HandAnswer{Hand: 1 + rng.IntN(300), Dealer: players[0], Scored: sc, PotAfter: decimal.New(rng.Int64N(1000), -int32(rng.IntN(2)))})
		want, _ := json.Marshal(a)
		got, err := encodeJSON(a)
		if err != nil || string(got) != string(want) {
			t.Fatalf("answer:\n%s\nwant\n%s (%v)", got, want, err)
		}
		checked++
	}
	if checked < 500 {
		t.Fatalf("only %d of 4000 random deals scored", checked)
	}
}
