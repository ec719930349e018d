package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/templates"
)

// tabReport shows GET /groups/{id}/report (and through the group's
// read-only link): the tab to take home, made to print.
func (u ui) tabReport(c echo.Context) error {
	gv, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	p, loc, base := u.groupHead(c, gv.Group, "/report", "report.tab-title")
	return render(c, http.StatusOK, templates.Report(tabReportView(p, loc, base.Base, gv)))
}
