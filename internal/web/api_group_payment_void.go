package web

import (
	"context"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
)

// paymentNumber reads a payment's number from the path, written the one
// way payments are numbered: 1, 2, …
func paymentNumber(c echo.Context) (int, error) {
	n, ok := ordinal(c.Param("n"))
	if !ok {
		return 0, group.Messages().NotFound("notfound.payment-number", c.Param("n"))
	}
	return n, nil
}

// voidPayment answers POST /api/groups/{id}/payments/{n}/void: the
// payment taken back, with a reason.
func (a api) voidPayment(c echo.Context) error {
	return reasoned(c, paymentNumber, func(ctx context.Context, n int, reason, key string) (map[string]any, error) {
		return map[string]any{"payment": n, "voided": true}, a.groups().VoidPayment(ctx, groupID(c), n, reason, key)
	})
}
