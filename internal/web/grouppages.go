package web

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
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
	g.POST("/payments", u.recordPayment)
	g.POST("/payments/:n/void", u.voidPayment)
	g.POST("/payments/:n/confirm", u.confirmPayment)
	g.GET("/stats", u.statsPage)
	g.GET("/payments", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/payments/:n/void", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/payments/:n/confirm", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") + "/tab" }))
	g.GET("/members", seeOther(func(c echo.Context) string { return "/groups/" + c.Param("id") }))
	g.GET("/export", u.exportGroup)
	e.POST("/g/:id/again", u.again, u.createLimit)

	// Through a group's read-only link: reading pages only. /r/{read id}
	// itself is readPage, for a game's link or a group's.
	r := e.Group("/r/:token", resolveRead(u.svc, u.problem))
	r.GET("/tab", u.tabPage)
	r.GET("/stats", u.statsPage)
}

// groupSeats is how many players the start-a-group form offers.
const groupSeats = 6

func (u ui) newGroupForm(c echo.Context) error {
	p, _ := u.page(c, "group.new")
	v := templates.NewGroupView{Page: p, Unit: templates.Field{Value: "1"}, Seats: make([]templates.Field, groupSeats), IdemKey: newKey()}
	return render(c, http.StatusOK, templates.NewGroup(v))
}

func (u ui) newGroup(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	players, unit := playersAndUnit(form)
	err = thousands("unit", form.Get("unit"))
	if err == nil {
		var st *group.State
		st, err = u.svc.Groups().CreateGroup(c.Request().Context(), group.Start{Name: form.Get("name"), Players: players, Unit: unit,
			Currency: form.Get("currency")}, form.Get("idempotency_key"))
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/groups/"+st.ID)
		}
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "group.new")
	v := templates.NewGroupView{Page: p, Name: templates.Field{Value: form.Get("name")}, Unit: templates.Field{Value: form.Get("unit")},
		Currency: templates.Field{Value: form.Get("currency")}, IdemKey: newKey()}
	for i := range max(groupSeats, len(form["player"])) {
		f := templates.Field{}
		if i < len(form["player"]) {
			f.Value = form["player"][i]
		}
		v.Seats = append(v.Seats, f)
	}
	// Every field on its own too, so that the form shows every problem at
	// once, each next to its field, as the evening's does; the group's own
	// refusal where it belongs.
	seats := make([]string, len(v.Seats))
	for i := range seats {
		seats[i] = strings.TrimSpace(v.Seats[i].Value)
	}
	for i, err := range payout.SeatProblems(seats) {
		if err != nil && seats[i] != "" { // a seat left empty is no member
			v.Seats[i].Error = loc.Error(err)
		}
	}
	if err := checkUnit(strings.TrimSpace(form.Get("unit"))); err != nil {
		v.Unit.Error = loc.Error(err)
	}
	if _, err := tapp.CheckCurrency(form.Get("currency")); err != nil {
		v.Currency.Error = loc.Error(err)
	}
	pe, _ := problem.As(err)
	switch msg := loc.Error(err); pe.Field {
	case "name":
		v.Name.Error = msg
	case "unit":
		v.Unit.Error = msg
	case "currency":
		v.Currency.Error = msg
	default:
		if !slices.ContainsFunc(v.Seats, func(f templates.Field) bool { return f.Error != "" }) {
			v.Error = msg // a refusal of no one field, said once at the top
		}
	}
	return render(c, http.StatusUnprocessableEntity, templates.NewGroup(v))
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
	base := "/groups/" + st.ID
	if readOnly(c) {
		base = "/r/" + c.Param("token")
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
		ev := templates.EveningView{N: i + 1, Href: "/g/" + g.ID, Variant: loc.T("variant." + string(g.Setup.Variant)),
			Players: strings.Join(g.Setup.Players, ", "), Date: whenOf(g.StartedAt, "date"), Closed: g.Closed != nil, Hands: len(g.Hands())}
		if readOnly(c) {
			ev.Href = "/r/" + g.ReadID
		}
		for seat, name := range g.Setup.Players {
			b := g.Balance(seat)
			ev.Money = append(ev.Money, templates.MoneyView{Name: name, Amount: loc.Money(g.Money(b), g.Currency, g.Places()), Negative: b.IsNegative()})
		}
		v.Evenings = append(v.Evenings, ev)
		if v.Next == nil && !readOnly(c) {
			seats := game.NextSeats(g)
			v.Next = &templates.NextEvening{Action: "/g/" + g.ID + "/again", Variant: ev.Variant, Players: strings.Join(seats, ", "), Dealer: seats[0],
				VariantID: string(g.Setup.Variant)}
		}
		if !ev.Closed && !readOnly(c) {
			v.Next.Open = append(v.Next.Open, templates.OpenEvening{N: ev.N, Href: ev.Href})
		}
	}
	if !readOnly(c) {
		for _, vr := range payout.Variants() {
			v.Variants = append(v.Variants, templates.Option{Value: "/new/" + string(vr) + "?group=" + st.ID, Label: loc.T("variant." + string(vr))})
		}
	}
	mine := templates.MineView{Kind: "group", Href: base.Base, Same: "/r/" + st.ReadID, Title: st.Name, Players: strings.Join(st.MemberNames(), ", "),
		Started: st.StartedAt.UTC().Format(time.RFC3339)}
	if v.Next != nil {
		mine.Again = "/groups/" + st.ID + "/again"
		mine.NextVariant, mine.NextPlayers, mine.NextDealer = v.Next.VariantID, v.Next.Players, v.Next.Dealer
	}
	return templates.Group(v, mine)
}

func (u ui) addMember(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	name := strings.TrimSpace(form.Get("player"))
	var msg string
	if name == "" {
		// One field: "player 1 has no name", as a list of players would
		// say, is not what a person left blank here.
		msg = u.localizer(c).T("group.member-missing")
	} else {
		_, err = u.svc.Groups().AddMembers(c.Request().Context(), groupID(c), []string{name}, form.Get("idempotency_key"))
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/groups/"+groupID(c))
		}
		if !problem.IsKind(err, problem.Input) {
			return u.problem(c, err)
		}
		msg = u.localizer(c).Error(err)
	}
	v, verr := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if verr != nil {
		return u.problem(c, verr)
	}
	return render(c, http.StatusUnprocessableEntity, u.groupView(c, v, templates.Field{Value: name, Error: msg}))
}

// groupAgain starts the group's newest evening again, the deal passed on.
func (u ui) groupAgain(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	v, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	for i := len(v.Games) - 1; i >= 0; i-- {
		if g := v.Games[i]; g != nil {
			return u.startAgain(c, g.ID, form.Get("idempotency_key"))
		}
	}
	return u.problem(c, game.NoEvening())
}

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

// chartColours is how many players the charts tell apart by colour.
const chartColours = 8

// exportGroup downloads the group with its evenings, as `tappbook import`
// reads it.
func (u ui) exportGroup(c echo.Context) error {
	if _, err := u.svc.Groups().Snapshot(c.Request().Context(), groupID(c)); err != nil {
		return u.problem(c, err)
	}
	var b bytes.Buffer
	if _, err := game.Export(c.Request().Context(), u.svc.Store(), groupID(c), u.key, &b); err != nil {
		return u.problem(c, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="tappbook-group-`+groupID(c)+`.jsonl"`)
	return c.Blob(http.StatusOK, "application/jsonl; charset=utf-8", b.Bytes())
}

// eveningMine is what an evening's page shows of its group and tells "My
// evenings": the group's page and the next evening, for a link that
// writes; the group's name, when it has one.
func (u ui) eveningMine(c echo.Context, p templates.Page, loc i18n.Localizer, g *tapp.State) (templates.MineView, string) {
	m := templates.MineView{Kind: "evening", Href: p.Base, Same: "/r/" + g.ReadID, Variant: string(g.Setup.Variant), Title: loc.T("variant." + string(g.Setup.Variant)),
		Players: strings.Join(g.Setup.Players, ", "), Started: g.StartedAt.UTC().Format(time.RFC3339), Closed: g.Closed != nil}
	if p.ReadOnly {
		return m, ""
	}
	m.Again = "/g/" + g.ID + "/again"
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
	m.Group = "/groups/" + g.Group
	return m, st.Name
}

// forGroup makes the start form one for an evening of group id: the group
// is kept in the form, its money is said as the evening's and, when the
// form is new, its members fill the seats and its money the (unseen) unit
// and currency.
func (u ui) forGroup(c echo.Context, view *templates.NewGameView, id string, fill bool) {
	if id == "" {
		return
	}
	view.ForGroup.ID = id
	st, err := u.svc.Groups().Snapshot(c.Request().Context(), id)
	if err != nil {
		return // the start refuses the group, with its message
	}
	view.ForGroup.Name = st.Name
	view.Members = st.MemberNames()
	loc := u.localizer(c)
	view.GroupMoney = loc.T("new.group-money", loc.Money(st.Unit, st.Currency, st.Places()))
	if d := payout.Describe(payout.Variant(view.Variant)); d != nil && d.UnitName == "cent" {
		// The evening plays for the group's unit (api.md), and a game that
		// counts in cents makes it the money of one cent: said before a
		// group whose unit is 0.50 plays for fifty times the usual.
		view.UnitHint = loc.T("new.group-unit-cent", loc.Money(st.Unit, st.Currency, st.Places()))
		if tapp.MoneyPlaces(st.Currency, "1") == 2 {
			// A money of cents: the group could play it for one.
			view.UnitHint += " " + loc.T("new.group-unit-cent-hint")
		}
	}
	if !fill {
		return
	}
	for i, m := range st.MemberNames() {
		if i < len(view.Seats) {
			view.Seats[i].Value = m
		}
	}
	unit := st.UnitText
	if i18n.Ambiguous(unit) {
		unit = st.Unit.String() // "2.500" (three places) as "2.5": sent back, it is not refused as a thousand
	}
	view.Unit.Value, view.Currency.Value = loc.Typed(unit), st.Currency
}

// askNewcomers asks, once, about the players of a group's evening who are
// not members yet: a name mistyped ("Ana" for "Anna") would otherwise make
// a second member silently, and split the running tab. Sent again with
// the same names, the evening starts and adds them. A group with no
// members yet is not asked: everyone is new there.
func (u ui) askNewcomers(c echo.Context, form url.Values, players []string, view *templates.NewGameView) bool {
	id := form.Get("group")
	if id == "" {
		return false
	}
	st, err := u.svc.Groups().Snapshot(c.Request().Context(), id)
	if err != nil || len(st.Members()) == 0 {
		return false // the start refuses the group, with its message
	}
	// Asked about already: the names the form came back with, in any order.
	asked := form["new_members"]
	newcomers := st.Newcomers(players)
	loc := u.localizer(c)
	ask := false
	for i, name := range form["player"] {
		name = strings.TrimSpace(name)
		if i >= len(view.Seats) || name == "" {
			continue
		}
		// A member's name written otherwise is said at the same time, so
		// that one round of corrections is enough.
		if err := st.CheckSpelling(name); err != nil {
			view.Seats[i].Error, ask = loc.Error(err), true
		} else if slices.Contains(newcomers, name) && !slices.Contains(asked, name) {
			view.Seats[i].Error, ask = loc.T("new.not-member", name, loc.T("new.start")), true
		}
	}
	if ask {
		view.NewMembers = newcomers
	}
	return ask
}
