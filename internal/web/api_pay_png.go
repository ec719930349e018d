package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/payqr"
	"tappbook/internal/tapp"
)

// transferPNG answers GET /api/games/{id}/pay/{i}.png: the QR code of the
// first way transfer i's payee can be paid; 404 where there is none.
func (a api) transferPNG(c echo.Context) error {
	i, err := pngIndex(c)
	if err != nil {
		return err
	}
	var pay payqr.Payment
	err = a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		ts := g.Settlement().Transfers
		if i >= len(ts) {
			return tapp.Messages().NotFound("notfound.transfer", i, len(ts))
		}
		pays, err := a.eveningPayments(c.Request().Context(), g, ts[i:i+1])
		pay = pays[0]
		return err
	})
	if err != nil {
		return err
	}
	return qrPNG(c, pay)
}

// qrPNG answers with the QR code of a payment's first way.
func qrPNG(c echo.Context, pay payqr.Payment) error {
	ways := payqr.Ways(pay)
	if len(ways) == 0 {
		return tapp.Messages().NotFound("notfound.pay-way")
	}
	b, err := payqr.PNG(ways[0].Text)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, "image/png", b)
}
