package payout

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// The small helpers other packages build on, each as its callers use it.

// A reason or note is one line of visible text; "" stays "".
func TestCheckText(t *testing.T) {
	if got, err := CheckText("reason", "  typo "); err != nil || got != "typo" {
		t.Errorf("a plain reason: %q %v", got, err)
	}
	if got, err := CheckText("reason", ""); err != nil || got != "" {
		t.Errorf("no reason: %q %v", got, err)
	}
	for s, code := range map[string]string{
		"a\u202ebc": "text.bidi", "a\tb": "text.control", strings.Repeat("x", 1000): "text.long",
		"a\u200bb": "text.invisible", "\xff": "text.invalid",
	} {
		_, err := CheckText("reason", s)
		if pe, ok := problem.As(err); !ok || pe.Code != code || pe.Field != "reason" {
			t.Errorf("%q: %v, want %s", s, err, code)
		}
	}
}

// A record entered again with a tout of false, a kontra of 0 or no Ramsch
// scores is the same deal.
func TestRecordSame(t *testing.T) {
	a := Record{Contract: "solo", Declarer: "Ben", Trump: Clubs, Points: ip(70)}
	b := a
	b.Tout, b.Kontra, b.Ramsch = bp(false), ip(0), map[string]RamschScore{}
	if !a.Same(b) || !b.Same(a) {
		t.Error("defaults given make another deal")
	}
	b.Points = ip(71)
	if a.Same(b) {
		t.Error("other points are the same deal")
	}
}

// A name typed in another Unicode form is the player the game keeps.
func TestSetupNamed(t *testing.T) {
	s := setupOf(Wuerttemberg, "José", "Ben", "Cleo")
	decomposed := "Jose\u0301"
	r := s.Named(Record{Contract: "ramsch", Declarer: decomposed, Ramsch: map[string]RamschScore{decomposed: {Points: ip(50)}, "Ben": {}}})
	if r.Declarer != "José" || r.Ramsch["José"].Points == nil || len(r.Ramsch) != 2 {
		t.Errorf("named: %+v", r)
	}
	if s.Name("Zoe") != "Zoe" {
		t.Error("a name of no player is changed")
	}
	// Both spellings given: left as given, to be refused.
	both := s.Named(Record{Contract: "ramsch", Ramsch: map[string]RamschScore{decomposed: {}, "José": {}}})
	if len(both.Ramsch) != 2 {
		t.Errorf("both spellings: %+v", both.Ramsch)
	}
}

func TestVariantsAndRules(t *testing.T) {
	if v, err := ParseVariant("old-tapp"); err != nil || v != OldTapp {
		t.Errorf("old-tapp: %v %v", v, err)
	}
	if _, err := ParseVariant("skat"); err == nil {
		t.Error("skat is a variant")
	}
	w := Describe(Wuerttemberg)
	if off := w.Offered(w.Defaults()); slices.Contains(off, "suit-tapp") || !slices.Contains(off, "ramsch") {
		t.Errorf("Württemberg by default offers %v", off)
	}
	// A stored old-tapp game without its remainder rule keeps the rule of
	// the time games were stored without it.
	r, err := DecodeStoredRules(OldTapp, map[string]json.RawMessage{"stake": []byte("3")})
	if err != nil || r.Remainder != RemainderBiggestLoser || !r.Stake.Equal(decimal.NewFromInt(3)) {
		t.Errorf("stored rules: %+v %v", r, err)
	}
	if _, err := DecodeStoredRules("skat", nil); err == nil {
		t.Error("rules of no variant decode")
	}
	if AmountText(decimal.RequireFromString("0.5"), ".50") != "0.50" || AmountText(decimal.NewFromInt(5), "5.") != "5" {
		t.Error("amounts are not written with the places given")
	}
	if pe := UnknownField("Points"); pe.Field != "Points" || pe.Code != "field.unknown" {
		t.Errorf("unknown field: %+v", pe)
	}
	if _, ok := Messages().Messages()["ramsch.impossible"]; !ok {
		t.Error("the catalogue lacks ramsch.impossible")
	}
}
