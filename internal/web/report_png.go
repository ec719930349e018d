package web

import (
	"github.com/labstack/echo/v4"

	"tappbook/internal/tapp"
)

// reportPNG answers GET /g/{id}/report.png (and through the read-only
// link): the report's share image.
func (u ui) reportPNG(c echo.Context) error {
	p, loc := u.page(c, "report.title")
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		v, err := u.reportView(c.Request().Context(), p, loc, g, u.key)
		if err != nil {
			return err
		}
		return sendCard(c, reportCard(v), v.ImageName)
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}
