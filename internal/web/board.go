package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/tapp"
	"tappbook/templates"
)

// board answers /g/{id}/board and /r/{read id}/board: the standings in
// big numbers for the middle of the table or a TV.
func (u ui) board(c echo.Context) error {
	p, loc := u.page(c, "board.title")
	var v templates.BoardView
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		v = boardView(p, loc, g)
		return nil
	})
	if err != nil {
		return u.problem(c, err)
	}
	return render(c, http.StatusOK, templates.Board(v))
}
