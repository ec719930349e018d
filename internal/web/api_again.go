package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// again starts the next evening of the same table (game.Service.Again).
func (a api) again(c echo.Context) error {
	var b struct{} // it takes no field: one sent is refused, as everywhere
	if err := decode(c, &b, true); err != nil {
		return err
	}
	g, err := a.svc.Again(c.Request().Context(), gameID(c), c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, gameOut(g))
}
