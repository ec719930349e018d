package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"tappbook/internal/receipt"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// signedReceipt is the closed evening's receipt, signed by the server's
// key (api.md "Receipts"); a 409 while the evening is open.
func signedReceipt(key *signing.Key, g *tapp.State) ([]byte, error) {
	r, err := receipt.Of(g)
	if err != nil {
		return nil, tapp.Messages().Conflict("conflict.receipt-open")
	}
	return key.Sign(r.Text())
}

// receiptQR draws a signed receipt as a QR code, for the pages that offer
// it to be scanned (the close page, a report to print). Level L: a receipt
// of a table of four with its transfers is some 500 bytes, which a phone
// reads best in the fewest modules.
func receiptQR(note []byte) (templates.QRView, error) {
	code, err := qr.Encode(string(note), qr.L)
	if err != nil {
		return templates.QRView{}, fmt.Errorf("receipt QR code: %w", err)
	}
	return qrPath(code), nil
}

// receiptKey: GET /api/receipt-key, the verifier key of the server's
// receipts and exports.
func (a api) receiptKey(c echo.Context) error {
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(a.key.VerifierKey()+"\n"))
}

// receipt: GET /api/games/{id}/receipt (and through the read-only link).
func (a api) receipt(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		note, err := signedReceipt(a.key, g)
		if err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", note)
	})
}

// receiptFile downloads the receipt from the pages, named after the link
// and the close it is of.
func (u ui) receiptFile(c echo.Context) error {
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		note, err := signedReceipt(u.key, g)
		if err != nil {
			return err
		}
		c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="tappbook-receipt-`+fileName(c)+"-"+strconv.FormatInt(g.Closed.Version, 10)+`.txt"`)
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", note)
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}

// qrOfReceipt is the closed evening's receipt as a QR code; none (the page
// then offers the download only) where it cannot be made.
func qrOfReceipt(key *signing.Key, g *tapp.State) templates.QRView {
	note, err := signedReceipt(key, g)
	if err != nil {
		return templates.QRView{}
	}
	q, err := receiptQR(note)
	if err != nil {
		return templates.QRView{}
	}
	return q
}
