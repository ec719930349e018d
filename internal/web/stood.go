package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/templates"
)

// stood shows the table as it stood after a deal (?after_hand=N) or an
// event (?at_event=SEQ, the History's links): the standings, the pot and
// who would have paid whom then, the corrections made since left out
// (api.md "The evening as it stood").
func (u ui) stood(c echo.Context) error {
	g, asked, err := stateAsOf(c, u.svc)
	if !asked {
		return c.Redirect(http.StatusSeeOther, pageBase(c)+"/audit")
	}
	if err != nil {
		return u.problem(c, err)
	}
	now, err := u.svc.Snapshot(c.Request().Context(), gameID(c))
	if err != nil {
		return u.problem(c, err)
	}
	deals := len(g.Hands())
	p, loc := u.page(c, "stood.title", deals)
	if deals == 0 {
		p, loc = u.page(c, "stood.title-start")
	}
	s := g.Settlement()
	v := templates.StoodView{Page: p, Note: loc.T("stood.note", g.Version, now.Version), UnitsHead: unitsHead(loc, g),
		HasPot: g.Variant().HasPot, Pot: loc.T("audit.pot", loc.Num(g.Pot())), Transfers: transferViews(loc, g, s.Transfers)}
	for seat, name := range g.Setup.Players {
		b := s.Balances[seat]
		v.Players = append(v.Players, templates.PlayerView{Name: name, Seat: seat, Units: loc.Num(b),
			Money: loc.Money(g.Money(b), g.Currency, g.Places()), Negative: b.IsNegative()})
	}
	switch {
	case s.Provisional:
		v.Pays = loc.T("close.undecided", s.Undecided, strings.Join(s.CutAmong, ", "))
	case len(s.Transfers) == 0:
		v.Pays = loc.T("close.square")
	}
	v.Earlier = stoodLink(p.Base, deals-1)
	if deals < len(now.Hands()) {
		v.Later = stoodLink(p.Base, deals+1)
	}
	return render(c, http.StatusOK, templates.Stood(v))
}

// stoodLink is the page of the table as it stood after deal n ("" for
// none before the first).
func stoodLink(base string, n int) string {
	if n < 1 {
		return ""
	}
	return base + "/stood?after_hand=" + strconv.Itoa(n)
}

// pageBase is where a game's pages are: under its id, or its read-only key.
func pageBase(c echo.Context) string {
	if readOnly(c) {
		return "/r/" + c.Param("token")
	}
	return "/g/" + gameID(c)
}
