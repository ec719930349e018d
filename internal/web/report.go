package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/tapp"
	"tappbook/templates"
)

// report shows GET /g/{id}/report (and /r/{read id}/report): the evening
// to take home, made to print on one A4 page.
func (u ui) report(c echo.Context) error {
	p, loc := u.page(c, "report.title")
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		v, err := u.reportView(c.Request().Context(), p, loc, g, u.key)
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, templates.Report(v))
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}
