package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// confirmPayment answers POST /groups/{id}/payments/{n}/confirm: the payee
// of a payment recorded as sent says it arrived; the same step as the
// API's, refused the same way (twice, or by someone else: 409).
func (u ui) confirmPayment(c echo.Context) error {
	n, err := paymentNumber(c)
	if err != nil {
		return u.problem(c, err)
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	if _, err := u.svc.Groups().ConfirmPayment(c.Request().Context(), groupID(c), n, form.Get("by"), ""); err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/groups/"+groupID(c)+"/tab?confirmed="+strconv.Itoa(n))
}
