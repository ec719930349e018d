package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"tappbook/internal/tapp"
	"tappbook/templates"
)

// share shows the game's link as text and as a QR code the server draws.
func (u ui) share(c echo.Context) error {
	p, _ := u.page(c, "share.title")
	var readID string
	if err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		readID, p.EveningClosed = g.ReadID, g.Closed != nil
		return nil
	}); err != nil {
		return u.problem(c, err)
	}
	origin := u.reach.origin(c)
	link := origin + "/g/" + gameID(c)
	readLink := origin + "/r/" + readID
	code, err := qr.Encode(link, qr.M)
	if err != nil {
		return fmt.Errorf("share: QR code: %w", err)
	}
	readCode, err := qr.Encode(readLink, qr.M)
	if err != nil {
		return fmt.Errorf("share: QR code of the read-only link: %w", err)
	}
	return render(c, http.StatusOK, templates.Share(templates.ShareView{Page: p, URL: link, ReadURL: readLink, QR: qrPath(code), ReadQR: qrPath(readCode)}))
}

// qrPath draws a QR code's dark modules as one SVG path, with a quiet zone
// of 4 modules.
func qrPath(code *qr.Code) templates.QRView {
	const quiet = 4
	var b strings.Builder
	for y := 0; y < code.Size; y++ {
		for x := 0; x < code.Size; x++ {
			if code.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	return templates.QRView{Size: code.Size + 2*quiet, Path: b.String()}
}
