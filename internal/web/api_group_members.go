package web

import "github.com/labstack/echo/v4"

// addMembers answers POST /api/groups/{id}/members: members join the group.
func (a api) addMembers(c echo.Context) error {
	var b struct {
		Players []string `json:"players"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if _, err := a.groups().AddMembers(c.Request().Context(), groupID(c), b.Players, c.Request().Header.Get(idempotencyHeader)); err != nil {
		return err
	}
	return a.getGroup(c)
}
