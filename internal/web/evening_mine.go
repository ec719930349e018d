package web

import (
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// eveningMine is what an evening's page shows of its group and tells "My
// evenings": the group's page and the next evening, for a link that
// writes; the group's name, when it has one.
func (u ui) eveningMine(c echo.Context, p templates.Page, loc i18n.Localizer, g *tapp.State) (templates.MineView, string) {
	m := templates.MineView{Kind: "evening", Href: p.Base, Same: p.Root + "/r/" + g.ReadID, Variant: string(g.Setup.Variant), Title: loc.T("variant." + string(g.Setup.Variant)),
		Players: strings.Join(g.Setup.Players, ", "), Started: g.StartedAt.UTC().Format(time.RFC3339), Closed: g.Closed != nil}
	if p.ReadOnly {
		return m, ""
	}
	m.Again = p.Root + "/g/" + g.ID + "/again"
	if m.Closed {
		seats := game.NextSeats(g)
		m.AgainAbout = loc.T("group.next-about", m.Title, strings.Join(seats, ", "), seats[0])
		m.NextVariant, m.NextPlayers, m.NextDealer = string(g.Setup.Variant), strings.Join(seats, ", "), seats[0]
	}
	if g.Group == "" {
		return m, ""
	}
	st, err := u.svc.Groups().Snapshot(c.Request().Context(), g.Group)
	if err != nil {
		return m, ""
	}
	m.Group = p.Root + "/groups/" + g.Group
	return m, st.Name
}
