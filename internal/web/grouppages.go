package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/templates"
)

// groupRoutes are a group's pages: its evenings and links, the tab with
// the payments, the statistics; and the next evening of a table.
func (u ui) groupRoutes(e *echo.Echo) {
	e.GET("/groups/new", u.newGroupForm)
	e.POST("/groups/new", u.newGroup, u.createLimit)
	g := e.Group("/groups/:id")
	g.GET("", u.groupPage)
	g.POST("/members", u.addMember)
	g.POST("/again", u.groupAgain, u.createLimit)
	g.GET("/tab", u.tabPage)
	g.GET("/report", u.tabReport)
	g.GET("/report.png", u.tabReportPNG)
	g.POST("/payments", u.recordPayment)
	g.POST("/payments/:n/void", u.voidPayment)
	g.POST("/payments/:n/confirm", u.confirmPayment)
	g.POST("/pay/details", u.tabPayDetails)
	g.GET("/stats", u.statsPage)
	g.GET("/payments", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/payments/:n/void", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/payments/:n/confirm", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/pay/details", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/members", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") }))
	g.GET("/export", u.exportGroup)
	e.POST("/g/:id/again", u.again, u.createLimit)

	// Through a group's read-only link: reading pages only. /r/{read id}
	// itself is readPage, for a game's link or a group's.
	r := e.Group("/r/:token", resolveRead(u.svc, u.problem))
	r.GET("/tab", u.tabPage)
	r.GET("/stats", u.statsPage)
}

// groupHead fills what every page of a group needs (a group's pages follow
// no live stream: p.Base is left empty); page is its address below the
// group's ("", "/tab", "/stats"). A page shown as the answer to a
// refused form (POST …/payments, …/members) switches language and theme on
// that page's own address, which a GET can reach; the form's would be
// refused.
func (u ui) groupHead(c echo.Context, st *group.State, page, title string, args ...any) (templates.Page, i18n.Localizer, templates.GroupBase) {
	p, loc := u.page(c, title, args...)
	p.GameID, p.Base = "", ""
	base := p.Root + "/groups/" + st.ID
	if readOnly(c) {
		base = p.Root + "/r/" + c.Param("token")
	}
	if c.Request().Method != http.MethodGet {
		p.Path = base + page
	}
	return p, loc, templates.GroupBase{Name: st.Name, Base: base}
}

// date is the day an evening started, as the pages show it.
