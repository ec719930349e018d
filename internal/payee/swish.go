package payee

import "strings"

// CheckSwish gives a Swish number as it is kept, or why it is none. Swish
// pays to a Swedish mobile number (kept as +467…, 9 digits after +46: 070,
// 072, 073, 076 and 079 numbers) or to a business's Swish number (123
// and seven digits). Spaces, dashes and a leading 0046 or 0 are the ways
// people write them. "" is no number.
func CheckSwish(s string) (string, error) {
	digits := strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '-' || r == '\u00a0' || r == '(' || r == ')':
			return -1
		}
		return r
	}, strings.TrimSpace(s))
	if digits == "" {
		return "", nil
	}
	national := ""
	switch {
	case strings.HasPrefix(digits, "+46"):
		national = "0" + strings.TrimPrefix(digits[3:], "0")
	case strings.HasPrefix(digits, "0046"):
		national = "0" + strings.TrimPrefix(digits[4:], "0")
	default:
		national = digits
	}
	if len(national) == 10 && allDigits(national) {
		switch {
		case strings.HasPrefix(national, "123"):
			return national, nil
		case national[:2] == "07" && strings.ContainsRune("02369", rune(national[2])):
			return "+46" + national[1:], nil
		}
	}
	return "", catalogue.Input("swish", "pay.swish", strings.TrimSpace(s))
}

// SwishNational is a kept Swish number as the Swish app writes it: 07… for
// a mobile number, the 123 number as it is.
func SwishNational(kept string) string {
	if rest, ok := strings.CutPrefix(kept, "+46"); ok {
		return "0" + rest
	}
	return kept
}

func allDigits(s string) bool {
	for _, r := range s {
		if !isDigit(r) {
			return false
		}
	}
	return true
}
