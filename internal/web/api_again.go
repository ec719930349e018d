package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// again starts the next evening of the same table (game.Service.Again).
func (a api) again(c echo.Context) error {
	g, err := a.svc.Again(c.Request().Context(), gameID(c), c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, gameOut(g))
}
