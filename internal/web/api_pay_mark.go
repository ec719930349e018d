package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/tapp"
)

// markTransfer answers POST /api/games/{id}/transfers/{i}/paid (the payer
// says it is sent) and …/confirmed (the payee says it arrived), with the
// settlement as it then stands.
func (a api) markTransfer(c echo.Context) error {
	mark, i, err := markPath(c)
	if err != nil {
		return err
	}
	var b struct {
		By string `json:"by"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	ctx, key := c.Request().Context(), c.Request().Header.Get(idempotencyHeader)
	var g *tapp.State
	if mark == "paid" {
		g, err = a.svc.MarkPaid(ctx, gameID(c), i, b.By, key)
	} else {
		g, err = a.svc.MarkConfirmed(ctx, gameID(c), i, b.By, key)
	}
	if err != nil {
		return err
	}
	return a.settledNow(c, g)
}

// withdrawMark answers POST …/transfers/{i}/paid/withdraw (the payer takes
// back "sent") and …/confirmed/withdraw (the payee "arrived"), as a new
// event, with the settlement as it then stands.
func (a api) withdrawMark(c echo.Context) error {
	mark, i, err := markPath(c)
	if err != nil {
		return err
	}
	var b struct {
		By     string `json:"by"`
		Reason string `json:"reason"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	ctx, key := c.Request().Context(), c.Request().Header.Get(idempotencyHeader)
	g, err := a.svc.WithdrawMark(ctx, gameID(c), i, b.By, mark == "confirmed", b.Reason, key)
	if err != nil {
		return err
	}
	return a.settledNow(c, g)
}

// markPath reads the {mark} and {i} of a …/transfers/{i}/{mark} path. The
// route takes any word as {mark}, so one that is neither "paid" nor
// "confirmed" names no endpoint and is answered 404, as an unknown path is.
func markPath(c echo.Context) (mark string, i int, err error) {
	mark = c.Param("mark")
	if mark != "paid" && mark != "confirmed" {
		return "", 0, echo.ErrNotFound
	}
	i, err = transferIndex(c.Param("i"))
	if err != nil {
		return "", 0, err
	}
	return mark, i, nil
}

// settledNow answers with g's settlement and how each transfer is paid.
func (a api) settledNow(c echo.Context, g *tapp.State) error {
	ctx := c.Request().Context()
	s := g.Settlement()
	out := settlementOut(g, s)
	if err := a.withPay(ctx, g, s, &out, true); err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, out)
}
