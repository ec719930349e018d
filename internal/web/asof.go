package web

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"tappbook/internal/tapp"
)

// viewAsOf runs fn on the game as it stands, or, with ?after_hand=N, as it
// stood once deal N had been recorded, or, with ?at_event=SEQ, as it stood
// after event SEQ (api.md "The evening as it stood").
func (a api) viewAsOf(c echo.Context, fn func(*tapp.State) error) error {
	ctx, id := c.Request().Context(), gameID(c)
	after, at := c.QueryParam("after_hand"), c.QueryParam("at_event")
	switch {
	case after != "" && at != "":
		return malformed("give after_hand or at_event, not both")
	case after != "":
		n, ok := ordinal(after)
		if !ok {
			return malformed("after_hand must be the number of a deal, 1 or more")
		}
		g, err := a.svc.AfterHand(ctx, id, n)
		if err != nil {
			return err
		}
		return fn(g)
	case at != "":
		v, err := strconv.ParseInt(at, 10, 64)
		if err != nil || v < 1 {
			return malformed("at_event must be the number of an event, 1 or more")
		}
		g, err := a.svc.AsOf(ctx, id, v)
		if err != nil {
			return err
		}
		return fn(g)
	}
	return a.svc.View(ctx, id, fn)
}
