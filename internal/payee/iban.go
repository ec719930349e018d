package payee

import (
	"math/big"
	"strconv"
	"strings"
)

// ibanLength is the length of an IBAN in each country that has them, from
// the IBAN registry SWIFT keeps for ISO 13616.
var ibanLength = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
	"IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
	"LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
	"NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
	"RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
	"SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// CheckIBAN gives an IBAN as it is kept (no spaces, upper case), or why it
// is none: letters and digits only, a country that has IBANs, that
// country's length, and check digits that hold (ISO 13616: the IBAN read
// as a number, its first four characters moved to the end and each letter
// written as 10–35, leaves 1 when divided by 97). "" is no IBAN.
func CheckIBAN(s string) (string, error) {
	iban := strings.ToUpper(strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\u00a0' {
			return -1
		}
		return r
	}, strings.TrimSpace(s)))
	if iban == "" {
		return "", nil
	}
	ok := len(iban) >= 5 && isLetters(iban[:2]) && isDigit(rune(iban[2])) && isDigit(rune(iban[3]))
	for _, r := range iban {
		ok = ok && (isUpper(r) || isDigit(r))
	}
	if !ok {
		return "", catalogue.Input("iban", "pay.iban-chars", strings.TrimSpace(s))
	}
	want, known := ibanLength[iban[:2]]
	if !known {
		return "", catalogue.Input("iban", "pay.iban-country", iban)
	}
	if len(iban) != want {
		return "", catalogue.Input("iban", "pay.iban-length", iban[:2], want, len(iban))
	}
	if ibanMod97(iban) != 1 {
		return "", catalogue.Input("iban", "pay.iban-checksum", Grouped(iban))
	}
	return iban, nil
}

// ibanMod97 is the remainder ISO 13616 checks.
func ibanMod97(iban string) int64 {
	var digits strings.Builder
	for _, r := range iban[4:] + iban[:4] {
		if isDigit(r) {
			digits.WriteRune(r)
		} else {
			digits.WriteString(strconv.Itoa(int(r-'A') + 10))
		}
	}
	n, _ := new(big.Int).SetString(digits.String(), 10)
	return new(big.Int).Mod(n, big.NewInt(97)).Int64()
}

// Grouped writes an IBAN in groups of four, as banks print it.
func Grouped(iban string) string {
	var b strings.Builder
	for i, r := range iban {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}
