package i18n

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Numbers and amounts written and read the local way.

func (l Localizer) decimalComma() bool { return l.lang == "de" || l.lang == "sv" }

// Num writes a decimal the local way: 1.5 in English, 1,5 in German and
// Swedish; a minus sign for negatives.
func (l Localizer) Num(d decimal.Decimal) string {
	if s, ok := l.smallNum(d); ok {
		return s
	}
	s := d.String()
	if l.decimalComma() {
		s = strings.Replace(s, ".", ",", 1)
	}
	return strings.Replace(s, "-", "−", 1)
}

// smallNum writes as Num does a decimal of up to 18 digits and places,
// which every amount of a game is, from its digits as an int64: a table
// page writes hundreds, and decimal.String writes each through math/big.
func (l Localizer) smallNum(d decimal.Decimal) (string, bool) {
	exp := d.Exponent()
	if exp > 0 || exp < -18 || d.NumDigits() > 18 {
		return "", false
	}
	c := d.CoefficientInt64()
	if c == 0 {
		return "0", true
	}
	var digits [24]byte
	ds := strconv.AppendUint(digits[:0], uint64(max(c, -c)), 10)
	places := int(-exp)
	for places > 0 && ds[len(ds)-1] == '0' { // 1.50 is 1.5, 2.00 is 2
		ds, places = ds[:len(ds)-1], places-1
	}
	var out strings.Builder
	out.Grow(len(ds) + places + 5)
	if c < 0 {
		out.WriteString("−")
	}
	if whole := len(ds) - places; whole > 0 {
		out.Write(ds[:whole])
		ds = ds[whole:]
	} else {
		out.WriteByte('0')
	}
	if places > 0 {
		if l.decimalComma() {
			out.WriteByte(',')
		} else {
			out.WriteByte('.')
		}
		for range places - len(ds) { // 0.05
			out.WriteByte('0')
		}
		out.Write(ds)
	}
	return out.String(), true
}

// Typed writes a plain decimal ("0.50") as a person here types it, places
// kept: "0,50" in German and Swedish. For a form's prefilled amount.
func (l Localizer) Typed(s string) string {
	if l.decimalComma() {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Money writes an amount with its currency the way people there write it:
// 12,50 € in German, €12.50 in English, CHF 12.50 everywhere (the Swiss way),
// 12,50 kr for Swedish kronor. places is how many decimals to show.
func (l Localizer) Money(amount decimal.Decimal, currency string, places int32) string {
	sign, fixed, comma := l.amount(amount, currency, places)
	switch {
	case currency == "":
		return sign + fixed
	case currency == "CHF":
		return sign + "CHF " + fixed
	case currency == "EUR" && !comma:
		return sign + "€" + fixed
	case currency == "EUR":
		return sign + fixed + " €"
	case currency == "SEK" || currency == "NOK" || currency == "DKK":
		return sign + fixed + " kr"
	case !comma:
		return sign + currency + " " + fixed
	}
	return sign + fixed + " " + currency
}

// Amount writes an amount as Money does, without the currency: for a
// chart's axis, whose legend says the currency.
func (l Localizer) Amount(amount decimal.Decimal, currency string, places int32) string {
	sign, fixed, _ := l.amount(amount, currency, places)
	return sign + fixed
}

// amount is an amount's sign and digits, and whether they have a decimal
// comma: Swiss francs are written with a point in every language.
func (l Localizer) amount(amount decimal.Decimal, currency string, places int32) (sign, fixed string, comma bool) {
	fixed = amount.Abs().StringFixed(places)
	if amount.IsNegative() {
		sign = "−"
	}
	comma = l.decimalComma() && currency != "CHF"
	if comma {
		fixed = strings.Replace(fixed, ".", ",", 1)
	}
	return sign, fixed, comma
}

// ParseAmount reads an amount typed on a phone: "1,50" as well as "1.50",
// "1.234,50" and "1,234.50"; spaces and apostrophes as thousands marks.
func ParseAmount(s string) (decimal.Decimal, error) {
	t, err := NormalizeAmount(s)
	if err != nil {
		return decimal.Decimal{}, err
	}
	return decimal.NewFromString(t)
}

// ErrThousands is an amount typed as "1,000" or "1.000": a thousand on one
// keyboard, one on another.
var ErrThousands = errors.New("it could be a thousand or a number with decimals")

// Ambiguous reports whether an amount typed on a phone could be read as a
// thousand or as a decimal (ErrThousands).
func Ambiguous(s string) bool {
	t := cleanAmount(s)
	return thousands(t, strings.LastIndex(t, ","), strings.LastIndex(t, "."))
}

func cleanAmount(s string) string {
	t := strings.NewReplacer(" ", "", "'", "", "\u00a0", "", "’", "").Replace(strings.TrimSpace(s))
	return strings.Replace(t, "−", "-", 1)
}

// NormalizeAmount rewrites an amount typed on a phone as a plain decimal
// string with a point, keeping the places it was typed with ("0,50" →
// "0.50"). An amount that could be a thousand or a decimal is
// ErrThousands: a caller must refuse it, not read it as typed.
func NormalizeAmount(s string) (string, error) {
	t := cleanAmount(s)
	comma, dot := strings.LastIndex(t, ","), strings.LastIndex(t, ".")
	if thousands(t, comma, dot) {
		return "", fmt.Errorf("%q: %w", s, ErrThousands)
	}
	switch {
	case comma >= 0 && dot >= 0 && comma > dot: // 1.234,50
		if !grouped(t[:comma], ".") {
			return "", fmt.Errorf("%q is not an amount", s)
		}
		t = strings.ReplaceAll(t, ".", "")
		t = strings.Replace(t, ",", ".", 1)
	case comma >= 0 && dot >= 0: // 1,234.50
		if !grouped(t[:dot], ",") {
			return "", fmt.Errorf("%q is not an amount", s)
		}
		t = strings.ReplaceAll(t, ",", "")
	case comma >= 0 && strings.Count(t, ",") == 1: // 1,50
		t = strings.Replace(t, ",", ".", 1)
	}
	if t == "" || strings.ContainsAny(t, "eE") {
		return "", fmt.Errorf("%q is not an amount", s)
	}
	if _, err := decimal.NewFromString(t); err != nil {
		return "", fmt.Errorf("%q is not an amount", s)
	}
	return t, nil
}

// thousands reports whether t has one separator only, a comma or a point,
// between a whole part of one to three digits that is not 0 and exactly
// three more ("1,000", "12.500"): a thousand in one language, a decimal in
// another, and no page can tell which the phone's keyboard meant. "0,005",
// "1,50" and "1234.500" are decimals wherever they are typed.
func thousands(t string, comma, dot int) bool {
	sep := max(comma, dot)
	if sep < 0 || (comma >= 0 && dot >= 0) || strings.Count(t, t[sep:sep+1]) != 1 || len(t)-sep-1 != 3 {
		return false
	}
	whole := strings.TrimPrefix(t[:sep], "-")
	return len(whole) <= 3 && strings.TrimLeft(whole, "0") != ""
}

// grouped reports whether whole, the part before the decimal separator of
// an amount written with both separators, is digits in groups of three
// after a first of one to three ("1.234", "12.345.678"): a point or comma
// anywhere else (".1,000") says no amount anyone writes.
func grouped(whole, sep string) bool {
	groups := strings.Split(strings.TrimPrefix(whole, "-"), sep)
	for i, g := range groups {
		if strings.Trim(g, "0123456789") != "" || g == "" || len(g) > 3 || i > 0 && len(g) != 3 {
			return false
		}
	}
	return true
}
