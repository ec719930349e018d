package web

import "github.com/labstack/echo/v4"

// eventsJSON downloads a game's events, as the API's /events gives them.
func (u ui) eventsJSON(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="tappbook-`+fileName(c)+`.json"`)
	if err := writeEvents(c, u.svc); err != nil && !c.Response().Committed {
		c.Response().Header().Del(echo.HeaderContentDisposition)
		return u.problem(c, err)
	} else if err != nil {
		return err
	}
	return nil
}

// fileName names a download after the link it came from, so a read-only
// download never shows the game's writing id.
func fileName(c echo.Context) string {
	if readOnly(c) {
		return c.Param("token")
	}
	return gameID(c)
}
