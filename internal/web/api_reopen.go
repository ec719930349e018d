package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// reopenGame: POST /api/games/{id}/reopen {"reason": "…"} opens a closed
// evening again and answers with the ledger as it then stands. An empty
// body is refused as a reason left out, with what to send.
func (a api) reopenGame(c echo.Context) error {
	var b struct {
		Reason string `json:"reason"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	g, err := a.svc.Reopen(c.Request().Context(), gameID(c), b.Reason, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, ledgerOut(g))
}
