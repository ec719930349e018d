package web

import (
	"net/url"
	"slices"

	"github.com/labstack/echo/v4"

	"tappbook/internal/i18n"
	"tappbook/internal/payee"
	"tappbook/templates"
)

// shownDetails is the pay details form for the player the page was asked
// for (?player=, else the first), filled with what they saved: a save
// replaces a player's details as a whole, so empty fields would drop every
// way not typed again (adding PayPal deleted the IBAN). ?saved= confirms
// a save just made.
func shownDetails(c echo.Context, loc i18n.Localizer, players []string, saved func(string) (payee.Details, bool)) templates.PayDetailsTyped {
	player := c.QueryParam("player")
	if !slices.Contains(players, player) {
		if len(players) == 0 {
			return templates.PayDetailsTyped{}
		}
		player = players[0]
	}
	t := templates.PayDetailsTyped{Player: player}
	if d, ok := saved(player); ok {
		t.Name, t.IBAN, t.Swish, t.PayPal = d.Name, d.IBAN, d.Swish, d.PayPal
		if a := d.Address; a != nil {
			t.Street, t.Postcode, t.Town, t.Country = a.Street, a.Postcode, a.Town, a.Country
		}
	}
	if c.QueryParam("saved") != "" {
		t.Saved = loc.T("pay.details-saved", player)
	}
	return t
}

// detailsSaved is where a save of player's details leads: page again,
// showing them as kept, with the confirmation by the form.
func detailsSaved(page, player string) string {
	return page + "?" + url.Values{"player": {player}, "saved": {"1"}}.Encode() + "#pay-details-title"
}
