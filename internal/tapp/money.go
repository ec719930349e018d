package tapp

import (
	"strings"

	"github.com/shopspring/decimal"
	"golang.org/x/text/currency"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// currencyPlaces is the ISO 4217 minor unit of a currency: 2 for most, 0 or
// 3 for a few.
func currencyPlaces(code string) int32 {
	switch code {
	case "":
		return 0
	case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF":
		return 0
	case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
		return 3
	}
	return 2
}

// CheckCurrency takes "" or an ISO 4217 code, in any case, and gives it in
// capitals. Three letters are not enough: api.md asks for a code, so "ABC"
// is refused (x/text knows the codes, current and withdrawn).
func CheckCurrency(code string) (string, error) {
	up := strings.ToUpper(strings.TrimSpace(code))
	if up == "" {
		return "", nil
	}
	switch codes := symbolCodes(up); len(codes) {
	case 0:
	case 1:
		return "", catalogue.Input("currency", "currency.symbol", code, codes[0].ID)
	default:
		return "", catalogue.Input("currency", "currency.symbols", code, problem.Choice{Terms: codes, Sep: ", "})
	}
	if len(up) != 3 || strings.Trim(up, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return "", catalogue.Input("currency", "currency", code)
	}
	if _, err := currency.ParseISO(up); err != nil {
		return "", catalogue.Input("currency", "currency", code)
	}
	return up, nil
}

// CheckUnit takes the money one unit is worth ("" is 1), as written, for
// a game or a group in currency (checked already). A unit finer than the
// currency's minor unit is refused (api.md: amounts are in the currency):
// what it adds up to could not be paid exactly.
func CheckUnit(unit, currency string) (string, error) { return checkUnit(unit, currency, false) }

// checkUnit is CheckUnit; kept: a unit already played for, not held to its
// currency's places (see Start.UnitKept).
func checkUnit(unit, currency string, kept bool) (string, error) {
	if unit == "" {
		unit = "1"
	}
	u, err := payout.ParseAmount("unit", unit)
	if _, ok := problem.As(err); ok {
		return "", err
	}
	if err != nil || !u.IsPositive() {
		return "", catalogue.Input("unit", "unit", unit)
	}
	unit = payout.AmountText(u, unit)
	if places := currencyPlaces(currency); currency != "" && !kept && !u.Round(places).Equal(u) {
		like := u.Round(places)
		if !like.IsPositive() {
			like = decimal.New(1, -places)
		}
		return "", catalogue.Input("unit", "unit.places", problem.Number(unit), currency, places, problem.Number(like.StringFixed(places)))
	}
	return unit, nil
}

// Places is how many decimals the game's money shows: the currency's minor
// unit, or more if the unit value has more (1 unit = 0.125 shows 3).
func (g *State) Places() int32 { return MoneyPlaces(g.Currency, g.UnitText) }

// MoneyPlaces is how many decimals money in a currency shows when one unit
// is worth unit: the currency's minor unit, or the unit's places if more.
// A group of evenings keeps its money by the same rule.
func MoneyPlaces(currency, unit string) int32 {
	places := currencyPlaces(currency)
	if u, err := decimal.NewFromString(unit); err == nil && -u.Exponent() > places {
		places = -u.Exponent()
	}
	return places
}

// Money turns units into the game's money: units × unit value.
func (g *State) Money(units decimal.Decimal) decimal.Decimal { return units.Mul(g.Unit) }

// MoneyText is an amount of money as a decimal string with the game's places.
func (g *State) MoneyText(units decimal.Decimal) string {
	return g.Money(units).StringFixed(g.Places())
}

// smallUnits are the whole amounts from −smallUnitsMax to smallUnitsMax,
// made once: nearly every amount a deal moves is one of them, and a
// decimal is immutable, so deals share them instead of each allocating its
// own. Nothing writes to the table after it is made.
const smallUnitsMax = 512

var smallUnits = func() (t [2*smallUnitsMax + 1]decimal.Decimal) {
	for i := range t {
		t[i] = decimal.New(int64(i-smallUnitsMax), 0)
	}
	return t
}()

// wholeUnits is n units.
func wholeUnits(n int64) decimal.Decimal {
	if n >= -smallUnitsMax && n <= smallUnitsMax {
		return smallUnits[n+smallUnitsMax]
	}
	return decimal.New(n, 0)
}

// addUnits is a + b, in int64 when both are whole numbers that fit, as
// balances and the pot nearly always are.
func addUnits(a, b decimal.Decimal) decimal.Decimal {
	if a.Exponent() == 0 && b.Exponent() == 0 && a.NumDigits() <= 17 && b.NumDigits() <= 17 {
		return wholeUnits(a.CoefficientInt64() + b.CoefficientInt64())
	}
	return a.Add(b)
}

// symbolCodes are the codes a money's symbol or short word stands for, as
// people at a table write it ("kr", "€", "Fr."): the refusal names the
// code to write instead. Nil for anything else.
func symbolCodes(up string) []problem.Term {
	var codes []string
	switch strings.TrimSuffix(up, ".") {
	case "€", "EURO", "EUROS":
		codes = []string{"EUR"}
	case "KR", ":-":
		codes = []string{"SEK", "NOK", "DKK"}
	case "FR", "SFR", "FRANKEN":
		codes = []string{"CHF"}
	case "£":
		codes = []string{"GBP"}
	case "$":
		codes = []string{"USD", "CAD", "AUD"}
	case "¥":
		codes = []string{"JPY", "CNY"}
	default:
		return nil
	}
	terms := make([]problem.Term, len(codes))
	for i, c := range codes {
		terms[i] = problem.Term{ID: c}
	}
	return terms
}
