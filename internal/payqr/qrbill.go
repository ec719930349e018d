package payqr

import (
	"strings"
	"unicode"
)

// QRBill is the payload of a Swiss QR code (Swiss Implementation
// Guidelines QR-bill, version 2.3, QR type SPC version 0200): a payment in
// CHF or EUR to a Swiss or Liechtenstein IBAN, to a creditor with a
// structured address (type S), without reference (NON) and with the
// message as the unstructured message. Its elements are lines separated
// by LF; the ultimate creditor and the ultimate debtor are given empty.
func QRBill(p Payment) (string, bool) {
	to := p.To
	if p.Currency != "CHF" && p.Currency != "EUR" || to.Address == nil || to.Name == "" || !payable(p.Amount) {
		return "", false
	}
	if !strings.HasPrefix(to.IBAN, "CH") && !strings.HasPrefix(to.IBAN, "LI") || qrIBAN(to.IBAN) {
		return "", false
	}
	a := to.Address
	empty := make([]string, 7)
	lines := []string{"SPC", "0200", "1", to.IBAN,
		// Creditor: address type, name, street, building number, postcode, town, country.
		"S", latin(to.Name, 70), latin(a.Street, 70), "", latin(a.Postcode, 16), latin(a.Town, 35), a.Country}
	lines = append(lines, empty...) // ultimate creditor: for future use, empty
	lines = append(lines, p.Amount.StringFixed(2), p.Currency)
	lines = append(lines, empty...) // ultimate debtor: the payer fills it in
	lines = append(lines, "NON", "", latin(p.Message, 140), "EPD")
	return strings.Join(lines, "\n"), true
}

// qrIBAN: a QR-IBAN (institution id 30000–31999) takes only a QR
// reference, which a transfer between friends does not have.
func qrIBAN(iban string) bool {
	return len(iban) >= 9 && iban[4:9] >= "30000" && iban[4:9] <= "31999"
}

// latin gives s in the characters the QR-bill allows (Basic Latin, Latin-1
// Supplement, Latin Extended-A and a few more), any other as '.', at most
// n characters.
func latin(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0x17f, r == 'Ș', r == 'ș', r == 'Ț', r == 'ț', r == '€':
			return r
		case unicode.IsSpace(r):
			return ' '
		}
		return '.'
	}, s)
	return cut(s, n)
}
