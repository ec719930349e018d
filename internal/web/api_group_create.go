package web

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/group"
)

type createGroupBody struct {
	Name     string          `json:"name"`
	Players  []string        `json:"players"`
	Unit     json.RawMessage `json:"unit"`
	Currency string          `json:"currency"`
}

// createGroup answers POST /api/groups: a group starts.
func (a api) createGroup(c echo.Context) error {
	var b createGroupBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	unit, err := unitText(b.Unit)
	if err != nil {
		return err
	}
	st, err := a.groups().CreateGroup(c.Request().Context(), group.Start{Name: b.Name, Players: b.Players, Unit: unit, Currency: b.Currency},
		c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, groupOut(game.View{Group: st}, false))
}
