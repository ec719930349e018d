package web

import (
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/tapp"
)

// tabTransferPNG answers GET /api/groups/{id}/pay/{i}.png: the QR code of
// the first way the payee of the tab's transfer i can be paid.
func (a api) tabTransferPNG(c echo.Context) error {
	v, err := a.groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	ts := v.Group.Tab(v.Games).Transfers
	i, err := pngIndex(c)
	if err != nil {
		return err
	}
	if i >= len(ts) {
		return tapp.Messages().NotFound("notfound.transfer", i, len(ts))
	}
	return qrPNG(c, payment(game.GroupPayees(v.Group), ts[i].To, ts[i].Amount, v.Group.Currency, time.Now()))
}
