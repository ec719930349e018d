package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// confirmPayment answers POST /api/groups/{id}/payments/{n}/confirm: the
// payee of a payment recorded as sent says it arrived.
func (a api) confirmPayment(c echo.Context) error {
	n, err := paymentNumber(c)
	if err != nil {
		return err
	}
	var b struct {
		By string `json:"by"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	st, err := a.groups().ConfirmPayment(c.Request().Context(), groupID(c), n, b.By, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, paymentOut(st.Payment(n), st.Places()))
}
