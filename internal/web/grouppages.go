package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
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

// readPage answers /r/{read id}: the game's table for a game's read-only
// key (looked for first: games are read most, and from memory), else the
// group's page.
func (u ui) readPage(c echo.Context) error {
	if _, err := u.svc.Snapshot(c.Request().Context(), gameID(c)); err == nil {
		return u.table(c)
	}
	return u.groupPage(c)
}

func (u ui) groupPage(c echo.Context) error {
	v, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	return render(c, http.StatusOK, u.groupView(c, v, templates.Field{}))
}

// date is the day an evening started, as the pages show it.

func (u ui) groupView(c echo.Context, gv game.View, member templates.Field) templ.Component {
	st := gv.Group
	p, loc, base := u.groupHead(c, st, "", "group.title", st.Name)
	origin := u.reach.origin(c)
	v := templates.GroupView{Page: p, Group: base, ReadURL: origin + "/r/" + st.ReadID, Members: st.MemberNames(), Member: member, IdemKey: newKey(),
		Money: loc.T("group.money", loc.Money(st.Unit, st.Currency, st.Places()))}
	link := v.ReadURL
	if !readOnly(c) {
		v.WriteURL = origin + "/groups/" + st.ID
		link = v.WriteURL
	}
	if code, err := qr.Encode(link, qr.M); err == nil {
		v.QR = qrPath(code)
	}
	if code, err := qr.Encode(v.ReadURL, qr.M); err == nil && link != v.ReadURL {
		v.ReadQR = qrPath(code) // to show a friend who should only read
	}
	for i := len(gv.Games) - 1; i >= 0; i-- {
		g := gv.Games[i]
		if g == nil {
			continue
		}
		ev := templates.EveningView{N: i + 1, Href: p.Root + "/g/" + g.ID, Variant: loc.T("variant." + string(g.Setup.Variant)),
			Players: strings.Join(g.Setup.Players, ", "), Date: whenOf(g.StartedAt, "date"), Closed: g.Closed != nil, Hands: len(g.Hands())}
		if readOnly(c) {
			ev.Href = p.Root + "/r/" + g.ReadID
		}
		for seat, name := range g.Setup.Players {
			b := g.Balance(seat)
			ev.Money = append(ev.Money, templates.MoneyView{Name: name, Amount: loc.Money(g.Money(b), g.Currency, g.Places()), Negative: b.IsNegative()})
		}
		v.Evenings = append(v.Evenings, ev)
		if v.Next == nil && !readOnly(c) {
			seats := game.NextSeats(g)
			v.Next = &templates.NextEvening{Action: p.Root + "/g/" + g.ID + "/again", Variant: ev.Variant, Players: strings.Join(seats, ", "), Dealer: seats[0],
				VariantID: string(g.Setup.Variant)}
		}
		if !ev.Closed && !readOnly(c) {
			v.Next.Open = append(v.Next.Open, templates.OpenEvening{N: ev.N, Href: ev.Href})
		}
	}
	if !readOnly(c) {
		for _, vr := range payout.Variants() {
			v.Variants = append(v.Variants, templates.Option{Value: p.Root + "/new/" + string(vr) + "?group=" + st.ID, Label: loc.T("variant." + string(vr))})
		}
	}
	mine := templates.MineView{Kind: "group", Href: base.Base, Same: p.Root + "/r/" + st.ReadID, Title: st.Name, Players: strings.Join(st.MemberNames(), ", "),
		Started: st.StartedAt.UTC().Format(time.RFC3339)}
	if v.Next != nil {
		mine.Again = p.Root + "/groups/" + st.ID + "/again"
		mine.NextVariant, mine.NextPlayers, mine.NextDealer = v.Next.VariantID, v.Next.Players, v.Next.Dealer
	}
	return templates.Group(v, mine)
}

// eveningMine is what an evening's page shows of its group and tells "My
// evenings": the group's page and the next evening, for a link that
// writes; the group's name, when it has one.
func (u ui) eveningMine(c echo.Context, p templates.Page, loc i18n.Localizer, g *tapp.State) (templates.MineView, string) {
	m := templates.MineView{Kind: "evening", Href: p.Base, Same: p.Root + "/r/" + g.ReadID, Variant: string(g.Setup.Variant), Title: loc.T("variant." + string(g.Setup.Variant)),
		Players: strings.Join(g.Setup.Players, ", "), Started: g.StartedAt.UTC().Format(time.RFC3339), Closed: g.Closed != nil}
	if p.ReadOnly {
		return m, ""
	}
	m.Again = p.Root + "/g/" + g.ID + "/again"
	if m.Closed {
		seats := game.NextSeats(g)
		m.AgainAbout = loc.T("group.next-about", m.Title, strings.Join(seats, ", "), seats[0])
		m.NextVariant, m.NextPlayers, m.NextDealer = string(g.Setup.Variant), strings.Join(seats, ", "), seats[0]
	}
	if g.Group == "" {
		return m, ""
	}
	st, err := u.svc.Groups().Snapshot(c.Request().Context(), g.Group)
	if err != nil {
		return m, ""
	}
	m.Group = p.Root + "/groups/" + g.Group
	return m, st.Name
}
