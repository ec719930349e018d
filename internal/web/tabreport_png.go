package web

import "github.com/labstack/echo/v4"

// tabReportPNG answers GET /groups/{id}/report.png (and through the
// group's read-only link): the tab's share image.
func (u ui) tabReportPNG(c echo.Context) error {
	gv, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	p, loc, base := u.groupHead(c, gv.Group, "/report", "report.tab-title")
	v := tabReportView(p, loc, base.Base, gv)
	return sendCard(c, reportCard(v), v.ImageName)
}
