package web

import "github.com/labstack/echo/v4"

// readReport answers /r/{read id}/report: the evening's report for a
// game's read-only key, else the group's tab (as readPage does).
func (u ui) readReport(c echo.Context) error {
	if _, err := u.svc.Snapshot(c.Request().Context(), gameID(c)); err == nil {
		return u.report(c)
	}
	return u.tabReport(c)
}

// readReportPNG answers /r/{read id}/report.png, a game's or a group's.
func (u ui) readReportPNG(c echo.Context) error {
	if _, err := u.svc.Snapshot(c.Request().Context(), gameID(c)); err == nil {
		return u.reportPNG(c)
	}
	return u.tabReportPNG(c)
}
