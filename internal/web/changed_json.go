package web

import (
	"github.com/shopspring/decimal"

	"tappbook/internal/tapp"
)

// changedJSON is what a correction or void changed downstream, as its entry
// in /events carries it (api.md "The evening as it stood"): the later deals
// whose amounts or pot it changed, the pot, and who pays whom, each before
// and after.
type changedJSON struct {
	Hands     []handChangeJSON             `json:"hands"`
	Pot       beforeAfter[decimal.Decimal] `json:"pot"`
	Transfers beforeAfter[[]transferJSON]  `json:"transfers"`
}

type beforeAfter[T any] struct {
	Before T `json:"before"`
	After  T `json:"after"`
}

type handChangeJSON struct {
	Hand   int           `json:"hand"`
	Before dealMovesJSON `json:"before"`
	After  dealMovesJSON `json:"after"`
}

// dealMovesJSON is what a deal moves, as /hands says it: units by player,
// the pot's change and the pot after the deal.
type dealMovesJSON struct {
	Deltas   map[string]decimal.Decimal `json:"deltas"`
	PotDelta decimal.Decimal            `json:"pot_delta"`
	Pot      decimal.Decimal            `json:"pot"`
}

func changedOut(g *tapp.State, d *tapp.Downstream) *changedJSON {
	if d == nil {
		return nil
	}
	moves := func(m tapp.DealMoves) dealMovesJSON {
		return dealMovesJSON{Deltas: unitsByName(g, m.Deltas), PotDelta: m.PotDelta, Pot: m.Pot}
	}
	transfers := func(s tapp.Settlement) []transferJSON {
		out := []transferJSON{}
		for _, t := range s.Transfers {
			out = append(out, transferJSON{From: t.From, To: t.To, Amount: g.MoneyText(t.Amount)})
		}
		return out
	}
	out := &changedJSON{Hands: []handChangeJSON{},
		Pot:       beforeAfter[decimal.Decimal]{d.PotBefore, d.PotAfter},
		Transfers: beforeAfter[[]transferJSON]{transfers(d.Before), transfers(d.After)}}
	for _, c := range d.Deals {
		out.Hands = append(out.Hands, handChangeJSON{Hand: c.Hand, Before: moves(c.Before), After: moves(c.After)})
	}
	return out
}
