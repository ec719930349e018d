package payqr

import "strings"

// EPC is the payload of an EPC QR code ("GiroCode"), EPC069-12 version 002:
// a SEPA credit transfer in euro to the payee's IBAN, with the BIC if they
// gave one (002 lets it be left out), the amount and the message as the
// unstructured remittance. Its elements are lines separated by LF; those
// after the last one given are left out.
func EPC(p Payment) (string, bool) {
	if p.Currency != "EUR" || p.To.IBAN == "" || p.To.Name == "" || !payable(p.Amount) {
		return "", false
	}
	lines := []string{
		"BCD",                           // service tag
		"002",                           // version
		"1",                             // character set: UTF-8
		"SCT",                           // identification: SEPA credit transfer
		p.To.BIC,                        // BIC of the beneficiary's bank, optional in 002
		cut(p.To.Name, 70),              // beneficiary's name
		p.To.IBAN,                       // beneficiary's account
		"EUR" + p.Amount.StringFixed(2), // amount
		"",                              // purpose
		"",                              // structured remittance (a creditor reference): none
		cut(p.Message, 140),             // unstructured remittance
	}
	return strings.Join(lines, "\n"), true
}
