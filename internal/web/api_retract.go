package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// retractHand: POST /api/games/{id}/hands/{n}/retract, the undo (api.md
// "Corrections"): the last deal taken back as if never recorded.
func (a api) retractHand(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return err
	}
	var b struct {
		Reason string `json:"reason"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	dealer, err := a.svc.Retract(c.Request().Context(), gameID(c), n, b.Reason, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"hand": n, "retracted": true, "dealer": dealer})
}
