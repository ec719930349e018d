package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// putPlayerPay answers PUT /api/games/{id}/players/{name}/pay: how a player
// of the evening is paid, as kept.
func (a api) putPlayerPay(c echo.Context) error {
	var b payBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	name := pathName(c)
	g, err := a.svc.SetPay(c.Request().Context(), gameID(c), name, b.details(), c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	d, _ := g.PayOf(g.Setup.Name(name))
	return writeJSON(c, http.StatusOK, detailsOut(d))
}
