package payee

import (
	"testing"

	"tappbook/internal/problem"
)

func TestIBANKeptWithoutSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"CH93 0076 2011 6238 5295 7":    "CH9300762011623852957", // api.md's example
		"de89370400440532013000":        "DE89370400440532013000",
		"SE45 5000 0000 0583 9825 7466": "SE4550000000058398257466",
		"GB82-WEST-1234-5698-7654-32":   "GB82WEST12345698765432",
		"":                              "",
	} {
		got, err := CheckIBAN(in)
		if err != nil || got != want {
			t.Errorf("CheckIBAN(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestIBANRefused(t *testing.T) {
	for in, code := range map[string]string{
		"CH9400762011623852957":      "pay.iban-checksum", // one check digit off
		"CH9300762011623852958":      "pay.iban-checksum", // the last digit mistyped
		"DE89370400440352013000":     "pay.iban-checksum", // two digits swapped
		"CH930076201162385295":       "pay.iban-length",
		"ZZ9300762011623852957":      "pay.iban-country",
		"CH93 0076 2011 6238 5295 é": "pay.iban-chars",
		"1234":                       "pay.iban-chars",
	} {
		_, err := CheckIBAN(in)
		if pe, ok := problem.As(err); !ok || pe.Code != code || pe.Field != "iban" || pe.Kind != problem.Input {
			t.Errorf("CheckIBAN(%q) = %v; want the refusal %s", in, err, code)
		}
	}
}

func TestSwishNumbersKeptInOneForm(t *testing.T) {
	for in, want := range map[string]string{
		"+46701234567":        "+46701234567",
		"070-123 45 67":       "+46701234567",
		"+46 (0)70 123 45 67": "+46701234567",
		"0046 76 123 45 67":   "+46761234567",
		"123 123 45 67":       "1231234567",
		"123-1234567":         "1231234567",
	} {
		got, err := CheckSwish(in)
		if err != nil || got != want {
			t.Errorf("CheckSwish(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if got := SwishNational("+46701234567"); got != "0701234567" {
		t.Errorf("SwishNational = %q", got)
	}
}

func TestSwishRefusesWhatIsNotASwishNumber(t *testing.T) {
	for _, in := range []string{"08-123 45 67", "+4930123456", "0751234567", "12312345", "+46 70 123 45 6", "swish me"} {
		_, err := CheckSwish(in)
		if pe, ok := problem.As(err); !ok || pe.Code != "pay.swish" {
			t.Errorf("CheckSwish(%q) = %v; want pay.swish", in, err)
		}
	}
}

func TestCheckDetails(t *testing.T) {
	zurich := &Address{Street: "Bahnhofstrasse 1", Postcode: "8000", Town: "Zürich", Country: "ch"}
	got, err := Check(Details{Name: " Anna Muster ", IBAN: "CH93 0076 2011 6238 5295 7", Address: zurich, PayPal: "annamuster"}, "CHF")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Anna Muster" || got.IBAN != "CH9300762011623852957" || got.Address.Country != "CH" || got.PayPal != "annamuster" {
		t.Errorf("kept %+v", got)
	}
	for _, c := range []struct {
		d        Details
		currency string
		code     string
	}{
		{Details{IBAN: "CH9300762011623852957"}, "EUR", "pay.name-missing"},
		{Details{Name: "Anna", IBAN: "CH9300762011623852957"}, "CHF", "pay.address-needed"},
		{Details{Name: "Anna", Address: zurich}, "CHF", "pay.address-alone"},
		{Details{Name: "Anna", IBAN: "CH9300762011623852957", Address: &Address{Town: "Zürich", Country: "CH"}}, "CHF", "pay.address-missing"},
		{Details{Name: "Anna", IBAN: "CH9300762011623852957", Address: &Address{Postcode: "8000", Town: "Zürich", Country: "Schweiz"}}, "CHF", "pay.address-country"},
		{Details{PayPal: "paypal.me/anna"}, "EUR", "pay.paypal-slash"},
		{Details{PayPal: "anna muster"}, "EUR", "pay.paypal"},
		{Details{BIC: "UBS"}, "EUR", "pay.bic"},
		{Details{Name: "Anna\nMuster"}, "EUR", "pay.text"},
	} {
		if _, err := Check(c.d, c.currency); !isCode(err, c.code) {
			t.Errorf("Check(%+v, %s) = %v; want %s", c.d, c.currency, err, c.code)
		}
	}
}

func isCode(err error, code string) bool {
	pe, ok := problem.As(err)
	return ok && pe.Code == code
}
