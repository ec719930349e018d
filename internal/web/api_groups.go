package web

import (
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
)

// groupRoutes are the Groups endpoints of api.md, with a few additions:
// members, the payments and events of a group, its export, and the next
// evening of a table.
func (a api) groupRoutes(e *echo.Echo) {
	g := e.Group("/api/groups")
	g.POST("", a.createGroup, a.createLimit)
	g.GET("/:id", a.getGroup)
	g.POST("/:id/members", a.addMembers)
	g.GET("/:id/tab", a.tab)
	g.GET("/:id/stats", a.stats)
	g.GET("/:id/payments", a.payments)
	g.POST("/:id/payments", a.recordPayment)
	g.POST("/:id/payments/:n/void", a.voidPayment)
	g.GET("/:id/events", a.groupEvents)
	g.GET("/:id/export", a.exportGroup)
	e.POST("/api/games/:id/again", a.again, a.createLimit)

	// A group's read-only link reads and never writes; GET /api/r/{read
	// id} itself is readLink, for a game's link or a group's.
	r := e.Group("/api/r/:token", resolveRead(a.svc, func(_ echo.Context, err error) error { return err }))
	r.GET("/tab", a.tab)
	r.GET("/stats", a.stats)
	r.GET("/payments", a.payments)
}

// groupID is the group a request is about: from its id, or resolved from
// its read-only link.
func groupID(c echo.Context) string { return gameID(c) }

// onGroup reports whether the request is to a group's page, whose :id is
// a group's, not a game's.
func onGroup(c echo.Context) bool { return strings.HasPrefix(c.Path(), "/groups/:id") }

func (a api) groups() *game.Groups { return a.svc.Groups() }
