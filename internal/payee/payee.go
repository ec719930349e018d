// Package payee is how a player wants to be paid: an IBAN with the account
// holder's name (and, for the Swiss QR-bill, an address), a Swish number, a
// PayPal.me name. Check refuses what no payer's app could use (an IBAN
// whose ISO 13616 check digits do not hold, a number Swish does not take)
// and gives the details as they are kept: spaces gone, letters upper case,
// a Swish number in one form. It is pure and imports only the refusals.
package payee

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"tappbook/internal/problem"
)

// Details is how one player or group member is paid (api.md "Paying what
// the close says"). The zero value is "nothing given".
type Details struct {
	Name    string   `json:"name,omitempty"`
	IBAN    string   `json:"iban,omitempty"`
	BIC     string   `json:"bic,omitempty"`
	Swish   string   `json:"swish,omitempty"`
	PayPal  string   `json:"paypal,omitempty"`
	Address *Address `json:"address,omitempty"`
}

// Address is the account holder's postal address, which the Swiss QR-bill
// requires (structured, address type S).
type Address struct {
	Street   string `json:"street,omitempty"`
	Postcode string `json:"postcode,omitempty"`
	Town     string `json:"town,omitempty"`
	Country  string `json:"country,omitempty"` // ISO 3166-1 alpha-2
}

// Empty reports whether nothing is given: the details are removed.
func (d Details) Empty() bool {
	return d.Name == "" && d.IBAN == "" && d.BIC == "" && d.Swish == "" && d.PayPal == "" && d.Address == nil
}

// Messages is the catalogue of refusals of payment details, for translators.
func Messages() problem.Catalogue { return catalogue }

var catalogue = problem.NewCatalogue(map[string]string{
	"pay.text":            "%s: write it on one line, without control characters",
	"pay.long":            "%s: at most %d characters, not %d",
	"pay.name-missing":    "name: give the account holder's name, as the bank knows it, for the IBAN",
	"pay.iban-chars":      "iban: %q is not an IBAN; an IBAN is two letters, two check digits and the account, such as CH93 0076 2011 6238 5295 7",
	"pay.iban-country":    "iban: %q does not start with the code of a country that has IBANs",
	"pay.iban-length":     "iban: an IBAN of %s has %d characters, this one %d; check that none is missing or doubled",
	"pay.iban-checksum":   "iban: the check digits of %s do not match the account (ISO 13616): a character is mistyped; copy it from the bank's app",
	"pay.bic":             "bic: %q is not a BIC; a BIC has 8 or 11 letters and digits, such as UBSWCHZH80A, or leave it empty",
	"pay.swish":           "swish: %q is not a Swish number; give a Swedish mobile number such as 070-123 45 67 or +46 70 123 45 67, or a 123 number of a business",
	"pay.paypal":          "paypal: %q is not a PayPal.me name; give only the name after paypal.me/, letters and digits, at most 20",
	"pay.paypal-slash":    "paypal: %q has a slash; give only the name after paypal.me/, such as annamuster",
	"pay.address-missing": "address: %s is missing; the Swiss QR-bill needs the account holder's postcode, town and country",
	"pay.address-country": "address.country: %q is not a two-letter country code such as CH",
	"pay.address-needed":  "address: the Swiss QR-bill, read by Swiss banking apps, needs the account holder's address (postcode, town, country) with the IBAN",
	"pay.address-alone":   "address: an address is for the Swiss QR-bill and goes with an IBAN; give the IBAN too, or leave the address out",
})

// Check reads details as given and gives them as they are kept, or the
// first thing wrong with them. currency is the money they are used for:
// an IBAN of an evening in CHF needs the address the QR-bill carries.
func Check(d Details, currency string) (Details, error) {
	var err error
	if d.Name, err = text("name", d.Name, 70); err != nil {
		return Details{}, err
	}
	if d.IBAN, err = CheckIBAN(d.IBAN); err != nil {
		return Details{}, err
	}
	if d.BIC, err = checkBIC(d.BIC); err != nil {
		return Details{}, err
	}
	if d.Swish, err = CheckSwish(d.Swish); err != nil {
		return Details{}, err
	}
	if d.PayPal, err = checkPayPal(d.PayPal); err != nil {
		return Details{}, err
	}
	if d.Address, err = checkAddress(d.Address); err != nil {
		return Details{}, err
	}
	switch {
	case d.IBAN != "" && d.Name == "":
		return Details{}, catalogue.Input("name", "pay.name-missing")
	case d.Address != nil && d.IBAN == "":
		return Details{}, catalogue.Input("address", "pay.address-alone")
	case d.IBAN != "" && d.Address == nil && currency == "CHF":
		return Details{}, catalogue.Input("address", "pay.address-needed")
	}
	return d, nil
}

// text is a one-line field, trimmed, of at most max characters.
func text(field, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", catalogue.Input(field, "pay.text", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", catalogue.Input(field, "pay.long", field, max, n)
	}
	return s, nil
}

func checkBIC(s string) (string, error) {
	s = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	if s == "" {
		return "", nil
	}
	ok := (len(s) == 8 || len(s) == 11) && isLetters(s[:6])
	for _, r := range s {
		ok = ok && (isUpper(r) || isDigit(r))
	}
	if !ok {
		return "", catalogue.Input("bic", "pay.bic", s)
	}
	return s, nil
}

func checkPayPal(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if strings.Contains(s, "/") {
		return "", catalogue.Input("paypal", "pay.paypal-slash", s)
	}
	ok := len(s) <= 20
	for _, r := range s {
		ok = ok && r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
	}
	if !ok {
		return "", catalogue.Input("paypal", "pay.paypal", s)
	}
	return s, nil
}

func checkAddress(a *Address) (*Address, error) {
	if a == nil {
		return nil, nil
	}
	var out Address
	var err error
	if out.Street, err = text("address.street", a.Street, 70); err != nil {
		return nil, err
	}
	if out.Postcode, err = text("address.postcode", a.Postcode, 16); err != nil {
		return nil, err
	}
	if out.Town, err = text("address.town", a.Town, 35); err != nil {
		return nil, err
	}
	if out.Country, err = text("address.country", a.Country, 70); err != nil {
		return nil, err
	}
	out.Country = strings.ToUpper(out.Country)
	switch {
	case out == (Address{}):
		return nil, nil // an empty address is none
	case out.Postcode == "":
		return nil, catalogue.Input("address.postcode", "pay.address-missing", "postcode")
	case out.Town == "":
		return nil, catalogue.Input("address.town", "pay.address-missing", "town")
	case out.Country == "":
		return nil, catalogue.Input("address.country", "pay.address-missing", "country")
	case len(out.Country) != 2 || !isLetters(out.Country):
		return nil, catalogue.Input("address.country", "pay.address-country", out.Country)
	}
	return &out, nil
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isLetters(s string) bool {
	for _, r := range s {
		if !isUpper(r) {
			return false
		}
	}
	return true
}
