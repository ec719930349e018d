package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/templates"
)

// readPage answers /r/{read id}: the game's table for a game's read-only
// key (looked for first: games are read most, and from memory), else the
// group's page.
func (u ui) readPage(c echo.Context) error {
	if _, err := u.svc.Snapshot(c.Request().Context(), gameID(c)); err == nil {
		return u.table(c)
	}
	return u.groupPage(c)
}

// groupPage answers GET /groups/{id}: the group's members, its evenings,
// starting the next, and its links.
func (u ui) groupPage(c echo.Context) error {
	v, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	return render(c, http.StatusOK, u.groupView(c, v, templates.Field{}))
}

// groupView is the group's page from a view of it; member is the add-a-member
// field as typed, with its refusal.
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
