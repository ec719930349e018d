package web

import (
	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// boardRefresh is how often, in seconds, the board reloads itself on a
// phone or TV without JavaScript; with it, the live stream updates it at
// once.
const boardRefresh = 15

// boardView builds the board from a snapshot: each player's balance in
// units and money, who deals next (nobody once the evening is over or
// closed), the pot.
func boardView(p templates.Page, loc i18n.Localizer, g *tapp.State) templates.BoardView {
	p.EveningClosed = g.Closed != nil
	if g.Closed == nil {
		p.Refresh = boardRefresh
	}
	v := templates.BoardView{Page: p, VariantName: loc.T("variant." + string(g.Setup.Variant)), UnitsHead: unitsHead(loc, g),
		HasPot: g.Variant().HasPot, Pot: loc.Num(g.Pot()), PotMoney: loc.Money(g.Money(g.Pot()), g.Currency, g.Places()),
		Version: g.Version, Head: g.Head}
	next := g.NextDealer()
	switch {
	case g.Closed != nil:
		v.Next = loc.T("table.closed")
	case g.End().Over():
		v.Next = loc.T(doneKey(p.ReadOnly))
	default:
		v.Next = loc.T("table.deal", g.NextHand()) + " " + loc.T("table.dealer", g.Setup.Players[next])
	}
	for seat, name := range g.Setup.Players {
		b := g.Balance(seat)
		v.Players = append(v.Players, templates.PlayerView{Name: name, Seat: seat, Units: loc.Num(b),
			Money: loc.Money(g.Money(b), g.Currency, g.Places()), Dealer: seat == next && dealsNext(g), Negative: b.IsNegative()})
	}
	return v
}
