package payqr

import (
	"bytes"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payee"
)

// A QR-bill's code carries the Swiss cross in its middle, 7 mm of its 46:
// a black square with a white cross, on a white border. A banking app
// still reads it, from the shortest payload to the longest the fields
// allow; another way's code has no cross.
func TestQRBillCodeCarriesTheSwissCross(t *testing.T) {
	long := payee.Details{Name: strings.Repeat("Zoë Müller-", 7), IBAN: schneider.IBAN,
		Address: &payee.Address{Street: strings.Repeat("Bahnhofstrasse ", 5), Postcode: "8000", Town: strings.Repeat("Zürich ", 5), Country: "CH"}}
	for _, to := range []payee.Details{schneider, long} {
		for _, msg := range []string{"t", strings.Repeat("tappbook Thursday table 2026-11-27 ", 4)} {
			text, ok := QRBill(Payment{To: to, Amount: decimal.RequireFromString("999999999.99"), Currency: "CHF", Message: msg})
			if !ok {
				t.Fatalf("no QR-bill for %+v", to)
			}
			b, err := PNG(Way{Kind: KindQRBill, Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if got := DecodeQR(t, b); got != text {
				t.Fatalf("the code with the cross reads %q, want %q", got, text)
			}
			if !hasSwissCross(t, b) {
				t.Fatalf("no Swiss cross in the middle of the QR-bill's code (%d bytes of payload)", len(text))
			}
		}
	}
	epc, _ := EPC(Payment{To: redCross, Amount: decimal.NewFromInt(1), Currency: "EUR", Message: "Urgency fund"})
	b, err := PNG(Way{Kind: KindEPC, Text: epc})
	if err != nil {
		t.Fatal(err)
	}
	if hasSwissCross(t, b) {
		t.Fatal("a GiroCode carries the Swiss cross")
	}
}

// hasSwissCross looks at the middle of a code drawn 6 pixels a module with
// 4 modules of quiet zone: white at the centre and at the logo's edge, black
// in the square's corners beside the cross.
func hasSwissCross(t *testing.T, b []byte) bool {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	w := img.Bounds().Dx()
	side := float64(w-8*6) * 7 / 46
	mid := float64(w) / 2
	white := func(dx, dy float64) bool {
		return color.GrayModel.Convert(img.At(int(mid+dx*side), int(mid+dy*side))).(color.Gray).Y > 0x80
	}
	corners := !white(0.36, 0.36) && !white(-0.36, 0.36) && !white(0.36, -0.36) && !white(-0.36, -0.36)
	arms := white(0.25, 0) && white(-0.25, 0) && white(0, 0.25) && white(0, -0.25)
	border := white(0.48, 0.2) && white(-0.2, 0.48) && white(-0.48, -0.2) && white(0.2, -0.48)
	return white(0, 0) && corners && arms && border
}
