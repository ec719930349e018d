package web

import (
	"context"

	"github.com/labstack/echo/v4"
)

// retractHand: POST /api/games/{id}/hands/{n}/retract, the undo (api.md
// "Corrections"): the last deal taken back as if never recorded.
func (a api) retractHand(c echo.Context) error {
	return reasoned(c, handNumber, func(ctx context.Context, n int, reason, key string) (map[string]any, error) {
		dealer, err := a.svc.Retract(ctx, gameID(c), n, reason, key)
		return map[string]any{"hand": n, "retracted": true, "dealer": dealer}, err
	})
}
