package payqr

import (
	"net/url"
	"strings"

	"tappbook/internal/payee"
)

// Swish is the text of a Swish prefilled-payment QR code (Swish's QR code
// specification, "C" format): "C" and the payee's number, the amount in
// SEK with two decimals and a decimal comma, the message URL-encoded (at
// most 50 characters), and the lock mask 0: the payer's app may change
// none of them.
func Swish(p Payment) (string, bool) {
	if p.Currency != "SEK" || p.To.Swish == "" || !payable(p.Amount) {
		return "", false
	}
	amount := strings.Replace(p.Amount.StringFixed(2), ".", ",", 1)
	message := strings.ReplaceAll(url.QueryEscape(cut(p.Message, 50)), "+", "%20")
	return "C" + payee.SwishNational(p.To.Swish) + ";" + amount + ";" + message + ";0", true
}

// PayPal is a PayPal.me link that asks for the amount in the currency.
func PayPal(p Payment) (string, bool) {
	if p.To.PayPal == "" || p.Currency == "" || !payable(p.Amount) {
		return "", false
	}
	return "https://paypal.me/" + url.PathEscape(p.To.PayPal) + "/" + p.Amount.StringFixed(2) + p.Currency, true
}
