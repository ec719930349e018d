package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// putMemberPay answers PUT /api/groups/{id}/members/{name}/pay: how a
// member is paid, in the tab and in every evening of the group.
func (a api) putMemberPay(c echo.Context) error {
	var b payBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	st, err := a.groups().SetMemberPay(c.Request().Context(), groupID(c), pathName(c), b.details(), c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	d, _ := st.PayOf(pathName(c))
	return writeJSON(c, http.StatusOK, detailsOut(d))
}
