package web

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/tapp"
)

// viewAsOf runs fn on the game as it stands, or, with ?after_hand=N, as it
// stood once deal N had been recorded, or, with ?at_event=SEQ, as it stood
// after event SEQ (api.md "The evening as it stood").
func (a api) viewAsOf(c echo.Context, fn func(*tapp.State) error) error {
	g, asked, err := stateAsOf(c, a.svc)
	if err != nil {
		return err
	}
	if !asked {
		return a.svc.View(c.Request().Context(), gameID(c), fn)
	}
	return fn(g)
}

// stateAsOf is the game as it stood where the query asks (?after_hand=N or
// ?at_event=SEQ); asked false, and no game, where it asks neither.
func stateAsOf(c echo.Context, svc *game.Service) (g *tapp.State, asked bool, err error) {
	ctx, id := c.Request().Context(), gameID(c)
	after, at := c.QueryParam("after_hand"), c.QueryParam("at_event")
	switch {
	case after != "" && at != "":
		return nil, true, malformed("give after_hand or at_event, not both")
	case after != "":
		n, ok := ordinal(after)
		if !ok {
			return nil, true, malformed("after_hand must be the number of a deal, 1 or more")
		}
		g, err = svc.AfterHand(ctx, id, n)
		return g, true, err
	case at != "":
		v, err := strconv.ParseInt(at, 10, 64)
		if err != nil || v < 1 {
			return nil, true, malformed("at_event must be the number of an event, 1 or more")
		}
		g, err = svc.AsOf(ctx, id, v)
		return g, true, err
	}
	return nil, false, nil
}
