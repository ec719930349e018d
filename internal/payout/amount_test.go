package payout

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// Amounts are plain decimals of a bounded size: no exponent, at most 9
// digits before the point and 6 after.
func TestParseAmount(t *testing.T) {
	for _, c := range []struct{ in, code string }{
		{"1e10000", "amount.exponent"},
		{"1e-10000", "amount.exponent"},
		{"1E5", "amount.exponent"},
		{"1234567890", "amount.digits"},
		{strings.Repeat("9", 10000), "amount.digits"},
		{"0.0000001", "amount.places"},
		{".", "amount.syntax"},
		{"one", "amount.syntax"}, // an e that is no exponent
		{"e5", "amount.syntax"},
		{"2.5e+3", "amount.exponent"},
		{"", "amount.syntax"},
		{"1.2.3", "amount.syntax"},
		{"+1", "amount.syntax"},
		{" 1", "amount.syntax"},
		{".", "amount.syntax"},
		{"one", "amount.syntax"}, // an e that is no exponent
		{"e5", "amount.syntax"},
		{"2.5e+3", "amount.exponent"},
	} {
		_, err := ParseAmount("unit", c.in)
		ie, ok := problem.As(err)
		if !ok || ie.Code != c.code || ie.Field != "unit" || len(ie.Error()) > 200 {
			t.Errorf("ParseAmount(%.30q): %v, want %s", c.in, err, c.code)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"0.50", "0.5"}, {"2", "2"}, {"-3", "-3"}, {"999999999", "999999999"}, {"0.000001", "0.000001"}, {"000000000012", "12"}, {".5", "0.5"},
	} {
		d, err := ParseAmount("unit", c.in)
		if err != nil || d.String() != c.want {
			t.Errorf("ParseAmount(%q) = %s, %v; want %s", c.in, d, err, c.want)
		}
	}
}

// rules.md "End of the session": remainder_to is for a cut; where no cut
// is due it is refused, not ignored (closing cannot be undone).
func TestSplitPotRefusesACutNotDue(t *testing.T) {
	cut := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	cut.Rules.Remainder = RemainderCut
	loser := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	loser.Rules.Remainder = RemainderBiggestLoser
	for _, c := range []struct {
		s        Setup
		balances []int64
		pot      int64
		code     string
	}{
		{setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan"), []int64{0, 0, 0, 0}, 0, "split.no-pot"},
		{cut, []int64{0, 0, 0}, 0, "split.pot-empty"},
		{cut, []int64{-2, -2, -2}, 6, "split.no-leftover"},
		{loser, []int64{-2, 0, 0}, 2, "split.biggest-loser"},
	} {
		bs := make([]decimal.Decimal, len(c.balances))
		for i, b := range c.balances {
			bs[i] = d(b)
		}
		_, err := SplitPot(c.s, bs, d(c.pot), []string{"Anna"})
		if ie, ok := problem.As(err); !ok || ie.Code != c.code || ie.Field != "remainder_to" {
			t.Errorf("%s pot %d: %v, want %s", c.s.Variant, c.pot, err, c.code)
		}
		if _, err := SplitPot(c.s, bs, d(c.pot), nil); err != nil {
			t.Errorf("%s pot %d without remainder_to: %v", c.s.Variant, c.pot, err)
		}
	}
}
