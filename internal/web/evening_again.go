package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// again starts the next evening of a table from its evening's page.
func (u ui) again(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	return u.startAgain(c, gameID(c), form.Get("idempotency_key"))
}

// startAgain starts the evening after game id. Without a key of its own,
// the key is the evening's: every tap on "new evening" after the same
// evening, from any phone, opens the one next evening.
func (u ui) startAgain(c echo.Context, id, key string) error {
	if key == "" {
		key = "again-" + id
	}
	g, err := u.svc.Again(c.Request().Context(), id, key)
	if err != nil {
		return u.problem(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+g.ID)
}
