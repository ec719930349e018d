// Package payqr writes what a payer's app reads from a QR code to pay one
// transfer, in the published formats: the EPC's "GiroCode" (EPC069-12
// version 002, a SEPA credit transfer in euro), the Swiss QR-bill (Swiss
// Implementation Guidelines QR-bill, SPC version 0200, in CHF or EUR),
// Swish's prefilled payment (SEK) and a PayPal.me link; and the QR code
// itself as a PNG. It is pure: the payee's details are checked already
// (internal/payee), the amount is the transfer's.
package payqr

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"rsc.io/qr"

	"tappbook/internal/payee"
)

// Payment is one transfer as the payer's app is to fill it in.
type Payment struct {
	To       payee.Details
	Amount   decimal.Decimal // in Currency, above 0
	Currency string          // ISO 4217
	Message  string          // what the payee reads on their statement
}

// The ways a payment can be made, in the order they are offered: the first
// one there is is the QR code shown.
const (
	KindEPC    = "epc"
	KindQRBill = "qrbill"
	KindSwish  = "swish"
	KindPayPal = "paypal"
)

// Way is one way to pay: its kind and the text its QR code holds.
type Way struct {
	Kind string
	Text string
}

// Ways gives each way the payee can be paid this payment, in the order
// above; none where the payee gave nothing for the currency.
func Ways(p Payment) []Way {
	var out []Way
	for _, w := range []struct {
		kind string
		make func(Payment) (string, bool)
	}{{KindEPC, EPC}, {KindQRBill, QRBill}, {KindSwish, Swish}, {KindPayPal, PayPal}} {
		if text, ok := w.make(p); ok {
			out = append(out, Way{Kind: w.kind, Text: text})
		}
	}
	return out
}

// Message is the text every way carries: "tappbook", the evening's or
// group's name and the day.
func Message(name string, day time.Time) string {
	return strings.Join(strings.Fields(fmt.Sprintf("tappbook %s %s", name, day.Format(time.DateOnly))), " ")
}

// PNG is the QR code of text, at error correction level M (both the EPC
// and the QR-bill ask for M), with the quiet zone around it.
func PNG(text string) ([]byte, error) {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return nil, fmt.Errorf("payment QR code: %w", err)
	}
	code.Scale = 6
	return code.PNG(), nil
}

// payable: an amount a transfer can carry in these formats (0.01 to
// 999,999,999.99 in all of them).
func payable(a decimal.Decimal) bool {
	return a.IsPositive() && a.LessThanOrEqual(decimal.RequireFromString("999999999.99")) && a.Equal(a.Round(2))
}

// cut shortens s to at most n characters (not bytes).
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
