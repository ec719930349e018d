package payout

import (
	"strings"

	"github.com/shopspring/decimal"
)

// The size of an amount tappbook reads (a unit's money, a stake, a contract
// value, a payment): enough for any table's money and house rules, and no
// more, so that 1e10000 or a number ten thousand digits long is never
// stored or computed with.
const (
	MaxAmountDigits = 9 // before the decimal point
	MaxAmountPlaces = 6 // after it
)

// ParseAmount reads an amount written as a plain decimal ("0.50", "2",
// "-3"), refusing an exponent and more than MaxAmountDigits digits before
// the point or MaxAmountPlaces after it, with a *problem.Error for field.
func ParseAmount(field, s string) (decimal.Decimal, error) {
	body := strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(body, ".")
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	switch {
	case hasExp && exp != "" && digitsOnly(strings.TrimLeft(exp, "+-")) && mantissa != "" && digitsOnly(strings.Replace(mantissa, ".", "", 1)):
		return decimal.Decimal{}, inputErr(field, "amount.exponent", field, shorten(s))
	case !digitsOnly(whole) || !digitsOnly(frac) || whole+frac == "":
		return decimal.Decimal{}, inputErr(field, "amount.syntax", field, shorten(s))
	case len(strings.TrimLeft(whole, "0")) > MaxAmountDigits:
		return decimal.Decimal{}, inputErr(field, "amount.digits", field, shorten(s), MaxAmountDigits)
	case len(frac) > MaxAmountPlaces:
		return decimal.Decimal{}, inputErr(field, "amount.places", field, shorten(s), MaxAmountPlaces)
	}
	return decimal.NewFromString(s)
}

// AmountText writes an amount ParseAmount read from s the one way amounts
// are written ("-3", "1.50"), keeping the places s gave: ".5" is "0.5",
// "00.50" is "0.50", "5." is "5".
func AmountText(d decimal.Decimal, s string) string {
	_, frac, _ := strings.Cut(s, ".")
	return d.StringFixed(int32(len(frac)))
}

func digitsOnly(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// shorten keeps a message readable when the amount it quotes is huge.
func shorten(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:20]) + "…"
	}
	return s
}
