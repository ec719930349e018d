package web

import (
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// forGroup makes the start form one for an evening of group id: the group
// is kept in the form, its money is said as the evening's and, when the
// form is new, its members fill the seats and its money the (unseen) unit
// and currency.
func (u ui) forGroup(c echo.Context, view *templates.NewGameView, id string, fill bool) {
	if id == "" {
		return
	}
	view.ForGroup.ID = id
	st, err := u.svc.Groups().Snapshot(c.Request().Context(), id)
	if err != nil {
		return // the start refuses the group, with its message
	}
	view.ForGroup.Name = st.Name
	view.Members = st.MemberNames()
	loc := u.localizer(c)
	view.GroupMoney = loc.T("new.group-money", loc.Money(st.Unit, st.Currency, st.Places()))
	if d := payout.Describe(payout.Variant(view.Variant)); d != nil && d.UnitName == "cent" {
		// The evening plays for the group's unit (api.md), and a game that
		// counts in cents makes it the money of one cent: said before a
		// group whose unit is 0.50 plays for fifty times the usual.
		view.UnitHint = loc.T("new.group-unit-cent", loc.Money(st.Unit, st.Currency, st.Places()))
		if tapp.MoneyPlaces(st.Currency, "1") == 2 {
			// A money of cents: the group could play it for one.
			view.UnitHint += " " + loc.T("new.group-unit-cent-hint")
		}
	}
	if !fill {
		return
	}
	for i, m := range st.MemberNames() {
		if i < len(view.Seats) {
			view.Seats[i].Value = m
		}
	}
	unit := st.UnitText
	if i18n.Ambiguous(unit) {
		unit = st.Unit.String() // "2.500" (three places) as "2.5": sent back, it is not refused as a thousand
	}
	view.Unit.Value, view.Currency.Value = loc.Typed(unit), st.Currency
}

// askNewcomers asks, once, about the players of a group's evening who are
// not members yet: a name mistyped ("Ana" for "Anna") would otherwise make
// a second member silently, and split the running tab. Sent again with
// the same names, the evening starts and adds them. A group with no
// members yet is not asked: everyone is new there.
func (u ui) askNewcomers(c echo.Context, form url.Values, players []string, view *templates.NewGameView) bool {
	id := form.Get("group")
	if id == "" {
		return false
	}
	st, err := u.svc.Groups().Snapshot(c.Request().Context(), id)
	if err != nil || len(st.Members()) == 0 {
		return false // the start refuses the group, with its message
	}
	// Asked about already: the names the form came back with, in any order.
	asked := form["new_members"]
	newcomers := st.Newcomers(players)
	loc := u.localizer(c)
	ask := false
	for i, name := range form["player"] {
		name = strings.TrimSpace(name)
		if i >= len(view.Seats) || name == "" {
			continue
		}
		// A member's name written otherwise is said at the same time, so
		// that one round of corrections is enough.
		if err := st.CheckSpelling(name); err != nil {
			view.Seats[i].Error, ask = loc.Error(err), true
		} else if slices.Contains(newcomers, name) && !slices.Contains(asked, name) {
			view.Seats[i].Error, ask = loc.T("new.not-member", name, loc.T("new.start")), true
		}
	}
	if ask {
		view.NewMembers = newcomers
	}
	return ask
}
