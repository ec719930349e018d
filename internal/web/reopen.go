package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// reopen opens the closed evening again (the close page's form) and goes
// to its table; a reopen refused for its reason shows the close page
// again with the reason as typed and why.
func (u ui) reopen(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	reason := strings.TrimSpace(form.Get("reason"))
	_, err = u.svc.Reopen(c.Request().Context(), gameID(c), reason, form.Get("idempotency_key"))
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/g/"+gameID(c))
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "close.title")
	p.Path = p.Root + "/g/" + gameID(c) + "/close"
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		v := closeView(p, loc, g, nil, u.key)
		v.Reopen = templates.Field{Value: reason, Error: loc.Error(err)}
		return render(c, http.StatusUnprocessableEntity, templates.Close(v))
	})
}
