package web

import (
	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
)

// groupAgain starts the group's newest evening again, the deal passed on.
func (u ui) groupAgain(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	v, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	for i := len(v.Games) - 1; i >= 0; i-- {
		if g := v.Games[i]; g != nil {
			return u.startAgain(c, g.ID, form.Get("idempotency_key"))
		}
	}
	return u.problem(c, game.NoEvening())
}
