package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/i18n"
	"tappbook/internal/payqr"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// payPage shows GET /g/{id}/pay: who pays whom, each with the payee's QR
// code, its state and the buttons that mark it, and the form for how a
// player is paid.
func (u ui) payPage(c echo.Context) error {
	return u.renderPay(c, http.StatusOK, "")
}

// renderPay renders the page, with a refusal to show above it.
func (u ui) renderPay(c echo.Context, status int, refusal string) error {
	return u.renderPayWith(c, status, func(v *templates.PayView) { v.Error = refusal })
}

// renderPayWith renders the pay page with what set adds to it.
func (u ui) renderPayWith(c echo.Context, status int, set func(*templates.PayView)) error {
	p, loc := u.page(c, "pay.title")
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		v, err := u.payView(c.Request().Context(), p, loc, g)
		if err != nil {
			return u.problem(c, err)
		}
		payees, err := u.svc.PayeesOf(c.Request().Context(), g)
		if err != nil {
			return u.problem(c, err)
		}
		v.Details = shownDetails(c, loc, g.Setup.Players, payees.Of)
		set(&v)
		return render(c, status, templates.Pay(v))
	})
}

func (u ui) payView(ctx context.Context, p templates.Page, loc i18n.Localizer, g *tapp.State) (templates.PayView, error) {
	base := p.Root + "/g/" + g.ID
	v := templates.PayView{Page: p, Base: base, Closed: g.Closed != nil, Players: g.Setup.Players}
	if !v.Closed {
		v.Provisional = loc.T("pay.provisional")
	}
	if g.Group != "" {
		v.GroupTab = p.Root + "/groups/" + g.Group + "/tab"
	}
	ts := g.Settlement().Transfers
	pays, err := api{svc: u.svc}.eveningPayments(ctx, g, ts)
	if err != nil {
		return v, err
	}
	for i, t := range ts {
		i := strconv.Itoa(i)
		tv := templates.PayTransferView{Index: i, From: t.From, To: t.To, Amount: loc.Money(g.Money(t.Amount), g.Currency, g.Places()),
			State: tapp.StateOpen, MarkPaid: loc.T("pay.mark-paid", t.From), MarkArrived: loc.T("pay.mark-received", t.To)}
		tv.State, _ = g.TransferState(len(v.Transfers))
		tv.StateText = loc.T("pay.state." + tv.State)
		unmark(&tv, loc, g, len(v.Transfers))
		// Before the close a deal may still change the amounts: a code
		// scanned now could pay the wrong sum, so none is offered.
		var ways []payqr.Way
		if v.Closed {
			ways = payqr.Ways(pays[len(v.Transfers)])
		}
		var kinds []string
		for _, w := range ways {
			kinds = append(kinds, loc.T("pay.way."+w.Kind))
			if w.Kind == payqr.KindPayPal {
				tv.PayPal = w.Text
			}
		}
		if len(ways) > 0 {
			tv.QR = p.Root + "/api/games/" + g.ID + "/pay/" + i + ".png"
			tv.Ways = strings.Join(kinds, " · ")
		}
		v.Transfers = append(v.Transfers, tv)
	}
	return v, nil
}

// payRoutes are the evening's pages for paying what the close says.
func (u ui) payRoutes(g *echo.Group) {
	g.GET("/pay", u.payPage)
	g.POST("/pay/details", u.payDetails)
	g.POST("/pay/:i/:mark", u.payMark)
	g.POST("/pay/:i/:mark/withdraw", u.payUnmark)
}

// unmark offers to take back transfer k's last mark, by whoever made it: a
// wrong tap on any phone at the table must not clear a real debt for good.
// A "sent" carried through a reopen stays: the close settled what it left.
func unmark(tv *templates.PayTransferView, loc i18n.Localizer, g *tapp.State, k int) {
	switch {
	case g.Closed == nil:
	case tv.State == tapp.StateConfirmed:
		tv.Unmark, tv.UnmarkBy, tv.UnmarkText = tapp.StateConfirmed, tv.To, loc.T("pay.unmark-received", tv.To)
	case tv.State == tapp.StatePaid && k >= len(g.Closed.Paid):
		tv.Unmark, tv.UnmarkBy, tv.UnmarkText = tapp.StatePaid, tv.From, loc.T("pay.unmark-paid", tv.From)
	}
}
