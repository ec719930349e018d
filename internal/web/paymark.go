package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// payMark answers the buttons of /g/{id}/pay: POST …/pay/{i}/paid (the
// payer says it is sent) and …/pay/{i}/confirmed (the payee says it
// arrived), through the same decide as the API.
func (u ui) payMark(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	i, err := transferIndex(c.Param("i"))
	if err != nil {
		return u.problem(c, err)
	}
	ctx, by := c.Request().Context(), form.Get("by")
	switch c.Param("mark") {
	case "paid":
		_, err = u.svc.MarkPaid(ctx, gameID(c), i, by, "")
	case "confirmed":
		_, err = u.svc.MarkConfirmed(ctx, gameID(c), i, by, "")
	default:
		return echo.ErrNotFound
	}
	if err != nil {
		status := u.formStatus(c, err)
		return u.renderPay(c, status, u.localizer(c).Error(err))
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"/pay#transfer-"+c.Param("i"))
}

// payUnmark answers the pay page's "not after all" buttons: POST
// …/pay/{i}/paid/withdraw and …/confirmed/withdraw, through the same
// decide as the API.
func (u ui) payUnmark(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	i, err := transferIndex(c.Param("i"))
	if err != nil {
		return u.problem(c, err)
	}
	mark := c.Param("mark")
	if mark != "paid" && mark != "confirmed" {
		return echo.ErrNotFound
	}
	_, err = u.svc.WithdrawMark(c.Request().Context(), gameID(c), i, form.Get("by"), mark == "confirmed", form.Get("reason"), "")
	if err != nil {
		status, _ := statusOf(err)
		return u.renderPay(c, status, u.localizer(c).Error(err))
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c)+"/pay#transfer-"+c.Param("i"))
}
