package group

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// randomGroup plays a group of random evenings (random deals, most of them
// closed) and random payments and voids, through the commands, as a table
// might over a season.
func randomGroup(t testing.TB, rng *rand.Rand) (*scenario, []*tapp.State) {
	t.Helper()
	pool := []string{"Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Greta"}
	units := []string{"0.50", "1", "0.05", "0.20"}
	sc := given(t).and(Start{ID: "grp1", Name: "season", Players: pool[:rng.IntN(3)], Unit: units[rng.IntN(len(units))], Currency: "CHF"})
	var games []*tapp.State
	for k := range rng.IntN(6) + 1 {
		players := append([]string(nil), pool...)
		rng.Shuffle(len(players), func(i, j int) { players[i], players[j] = players[j], players[i] })
		variant := "zuger"
		players = players[:4]
		if rng.IntN(2) == 0 {
			variant = "wuerttemberg"
			players = players[:3+rng.IntN(2)]
		}
		e := play(t, fmt.Sprintf("game%d", k), variant, players, sc.state.UnitText, "CHF")
		for range rng.IntN(12) {
			r := randomDeal(rng, variant, players)
			if _, err := tapp.Decide(e.g, tapp.RecordHand{Record: r}); err == nil {
				e.deal(r)
			}
		}
		if len(e.g.Hands()) > 0 && rng.IntN(4) == 0 {
			e.run(tapp.VoidHand{Hand: 1, Reason: "misdeal"})
		}
		if rng.IntN(5) > 0 {
			e.close()
		}
		games = append(games, joined(t, sc, e.g)...)
	}
	members := sc.state.MemberNames()
	for range rng.IntN(8) {
		from, to := members[rng.IntN(len(members))], members[rng.IntN(len(members))]
		if from == to {
			continue
		}
		amount := decimal.New(rng.Int64N(5000)+1, -2).String()
		sc.and(RecordPayment{From: from, To: to, Amount: amount})
		if rng.IntN(4) == 0 {
			sc.and(VoidPayment{Payment: len(sc.state.Payments()), Reason: "a mistake"})
		}
	}
	return sc, games
}

func randomDeal(rng *rand.Rand, variant string, players []string) payout.Record {
	who := players[rng.IntN(len(players))]
	points, tricks := rng.IntN(121), rng.IntN(10)
	if variant == "zuger" {
		contracts := []string{"tapp", "solo", "super", "vice", "pass"}
		c := contracts[rng.IntN(len(contracts))]
		if c == "pass" {
			return payout.Record{Contract: c}
		}
		return payout.Record{Contract: c, Declarer: who, Points: &points, Tricks: &tricks}
	}
	suits := []string{"clubs", "spades", "hearts", "diamonds"}
	return payout.Record{Contract: "suit", Declarer: who, Trump: suits[rng.IntN(4)], Points: &points, Tricks: &tricks}
}

// The tab always sums to zero and its transfers settle it exactly, with no
// more payments than members who owe or are owed, less one.
func TestTabProperties(t *testing.T) {
	for seed := range uint64(200) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			sc, games := randomGroup(t, rand.New(rand.NewPCG(seed, 16)))
			tab := sc.state.Tab(games)
			sum, open := decimal.Zero, 0
			for _, o := range tab.Owed {
				sum = sum.Add(o)
				if !o.IsZero() {
					open++
				}
			}
			if !sum.IsZero() {
				t.Fatalf("owed sums to %s: %v", sum, tab.Owed)
			}
			settles(t, tab)
			if open > 0 && len(tab.Transfers) > open-1 {
				t.Fatalf("%d transfers for %d open balances", len(tab.Transfers), open)
			}
			// The tab is the closed evenings' money less the payments,
			// summed here the other way round: by evening, then by payment.
			want := map[string]decimal.Decimal{}
			for _, g := range games {
				if g.Closed == nil {
					continue
				}
				for seat, name := range g.Setup.Players {
					want[name] = want[name].Add(g.Balance(seat).Mul(g.Unit))
				}
			}
			for _, p := range sc.state.Payments() {
				if !p.Voided {
					want[p.From] = want[p.From].Add(p.Amount)
					want[p.To] = want[p.To].Sub(p.Amount)
				}
			}
			for i, name := range tab.Names {
				if !tab.Owed[i].Equal(want[name]) {
					t.Fatalf("%s is owed %s, summed independently %s", name, tab.Owed[i], want[name])
				}
			}
		})
	}
}

// A group folded event by event from its whole history is the group the
// commands built snapshot by snapshot, and gives the same tab and stats.
func TestFoldFromHistoryIsTheSame(t *testing.T) {
	for seed := range uint64(50) {
		sc, games := randomGroup(t, rand.New(rand.NewPCG(seed, 7)))
		f := NewFolder("grp1")
		for _, e := range sc.history {
			if err := f.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		rebuilt := f.State()
		if !reflect.DeepEqual(rebuilt, sc.state) {
			t.Fatalf("seed %d: rebuilt\n%+v\nbuilt\n%+v", seed, rebuilt, sc.state)
		}
		if js(rebuilt.Tab(games)) != js(sc.state.Tab(games)) || js(rebuilt.Stats(games)) != js(sc.state.Stats(games)) {
			t.Fatalf("seed %d: the rebuilt group computes another tab or stats", seed)
		}
	}
}
