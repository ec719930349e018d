package payout

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// The form helpers say what each contract takes, the same as the checks do:
// a record with every required field and nothing else scores (or fails only
// on its values), and each field the helper calls "never" is refused.
func TestContractFieldsAgreeWithTheChecks(t *testing.T) {
	setups := map[Variant]Setup{
		Zuger:        setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan"),
		OldTapp:      setupOf(OldTapp, "Anna", "Ben", "Cleo"),
		Matzlfangen:  setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan"),
		Wuerttemberg: setupOf(Wuerttemberg, "Anna", "Ben", "Cleo"),
	}
	w := setups[Wuerttemberg]
	w.Rules.SuitTapp = true
	setups[Wuerttemberg] = w
	for _, v := range Variants() {
		s := setups[v]
		for _, c := range Contracts(v) {
			for _, tout := range []bool{false, true} {
				f, ok := ContractFields(v, c, tout)
				if !ok {
					t.Fatalf("%s %s: no fields", v, c)
				}
				// The fields the helper says are never taken are refused.
				never := map[string]string{"partner": f.Partner, "tout": f.Tout, "kontra": f.Kontra, "ramsch": f.Ramsch}
				rec := Record{Contract: c, Declarer: "Ben"}
				if f.Declarer == "" {
					rec.Declarer = ""
				}
				for field, need := range never {
					if need != "" {
						continue
					}
					r := rec
					switch field {
					case "partner":
						r.Partner = "Cleo"
					case "tout":
						r.Tout = bp(true)
					case "kontra":
						r.Kontra = ip(1)
					case "ramsch":
						r.Ramsch = map[string]RamschScore{}
					}
					_, err := Score(s, Table{}, r)
					if ie, ok := problem.As(err); !ok || ie.Field != field && ie.Code != "field.not-taken" {
						t.Errorf("%s %s: %s is never taken, but %v", v, c, field, err)
					}
				}
				if f.Trump != "" && len(f.Trumps) == 0 {
					t.Errorf("%s %s: takes a trump but allows none", v, c)
				}
				if (v == Matzlfangen && c == "rufen") != f.DeclarerIsForehand {
					t.Errorf("%s %s: declarer is forehand = %v", v, c, f.DeclarerIsForehand)
				}
			}
		}
		if _, ok := ContractFields(v, "grand", false); ok {
			t.Errorf("%s: fields for an unknown contract", v)
		}
	}
	if TotalPoints(Matzlfangen) != 130 || TotalPoints(Zuger) != 120 {
		t.Error("total points: Matzlfangen counts 130, the rest 120")
	}
	tricks := map[string]int{"zuger": 8, "old-tapp": 11, "matzlfangen": 8, "wuerttemberg": 11}
	for v, want := range tricks {
		if got := TricksPerDeal(setups[Variant(v)]); got != want {
			t.Errorf("%s: %d tricks a deal, want %d", v, got, want)
		}
	}
	w4 := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan")
	w4.Rules.Cards = 32
	if TricksPerDeal(w4) != 7 {
		t.Error("4 players with 32 cards take 7 tricks")
	}
	w3 := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	w3.Rules.Cards = 32
	if TricksPerDeal(w3) != 10 {
		t.Error("3 players with 32 cards: 10 tricks and a tapp of 2")
	}
	if !slices.Equal(Contracts(OldTapp), []string{"coeurfrage", "solo", "coeursolo", "pass"}) {
		t.Errorf("old-tapp contracts: %v", Contracts(OldTapp))
	}
}

// RulesMap gives each variant's house rules with api.md's names, amounts as
// decimal strings, and reads back to the same rules.
func TestRulesMap(t *testing.T) {
	for _, v := range Variants() {
		m := DefaultRules(v).RulesMap(v)
		want := map[Variant]string{Zuger: "tapp_threshold", OldTapp: "remainder,stake", Matzlfangen: "", Wuerttemberg: "cards,suit_tapp,values"}[v]
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if strings.Join(keys, ",") != want {
			t.Errorf("%s: rules %v", v, keys)
		}
	}
	if m := DefaultRules(OldTapp).RulesMap(OldTapp); m["stake"] != "2" {
		t.Errorf("stake is a decimal string: %v", m["stake"])
	}
	if m := DefaultRules(Wuerttemberg).RulesMap(Wuerttemberg); m["values"].(map[string]string)["durch-hearts"] != "60" {
		t.Errorf("values: %v", m["values"])
	}
}

// A language's phrasebook fills the explanation; a phrase it lacks shows
// its key rather than nothing.
func TestRenderWithPhrases(t *testing.T) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	res, err := Score(s, Table{}, zugerRec("solo", 102, 7))
	if err != nil {
		t.Fatal(err)
	}
	upper := phrasesFunc(func(key string, args ...any) string { return strings.ToUpper(key) + fmt.Sprint(args...) })
	if got := res.Explanation.Render(upper); !strings.Contains(got, "CONTRACT.SOLO") || !strings.Contains(got, "EX.TIMES.UNDER-21") {
		t.Fatalf("render with another phrasebook: %q", got)
	}
	if got := newEnglishPhrases(EnglishPhrases()).Phrase("ex.no-such-phrase"); got != "ex.no-such-phrase" {
		t.Fatalf("a missing phrase: %q", got)
	}
	if !strings.HasPrefix(catalogue.English("no.such.code"), "unknown problem") {
		t.Fatal("an unknown code must say so")
	}
	if err := checkZeroSum(nil, d(1)); err == nil {
		t.Fatal("a pot change with no payments is not zero-sum")
	}
}

// The zero-sum check sums whole amounts in int64 and the rest as decimals,
// to the same answer: given whole, fractional and very long amounts that
// sum to zero it passes, and given the same off by one unit or a hundredth
// it refuses.
func TestZeroSumOfEveryKindOfAmount(t *testing.T) {
	long := decimal.RequireFromString("123456789012345678901")
	for _, c := range []struct {
		deltas []decimal.Decimal
		pot    decimal.Decimal
		zero   bool
	}{
		{[]decimal.Decimal{d(5), d(-3), d(-2)}, d(0), true},
		{[]decimal.Decimal{d(5), d(-3), d(-2)}, d(1), false},
		{[]decimal.Decimal{d(4), d(-2)}, d(-2), true},
		{[]decimal.Decimal{decimal.RequireFromString("2.50"), d(-2)}, decimal.RequireFromString("-0.5"), true},
		{[]decimal.Decimal{decimal.RequireFromString("2.50"), d(-2)}, decimal.RequireFromString("-0.49"), false},
		{[]decimal.Decimal{long, long.Neg()}, d(0), true},
		{[]decimal.Decimal{long, long.Neg().Add(d(1))}, d(0), false},
	} {
		if err := checkZeroSum(c.deltas, c.pot); (err == nil) != c.zero {
			t.Errorf("%v with pot %s: %v, zero-sum: %v", c.deltas, c.pot, err, c.zero)
		}
	}
}

type phrasesFunc func(key string, args ...any) string

func (f phrasesFunc) Phrase(key string, args ...any) string { return f(key, args...) }

// A start form shows every name's problem at once, each at its seat.
func TestSeatProblems(t *testing.T) {
	long := strings.Repeat("x", MaxNameLength+1)
	errs := SeatProblems([]string{"Anna", "", "anna", long, "Ben", "Ben"})
	want := []string{"", "players.empty", "players.same", "players.long", "", "players.twice"}
	for i, w := range want {
		pe, _ := problem.As(errs[i])
		switch {
		case w == "" && errs[i] != nil:
			t.Errorf("seat %d: %v, want no problem", i+1, errs[i])
		case w != "" && (pe == nil || pe.Code != w):
			t.Errorf("seat %d: %v, want %s", i+1, errs[i], w)
		}
	}
	if got := errs[1].Error(); !strings.Contains(got, "player 2") {
		t.Errorf("the empty seat's message %q does not name seat 2", got)
	}
	if got := errs[3].Error(); !strings.Contains(got, "41") {
		t.Errorf("the long name's message %q does not say 41 characters", got)
	}
}

// A head without a declarer or without points and tricks leaves those parts
// out, with their spaces.
func TestHeadLeavesOutMissingParts(t *testing.T) {
	for _, c := range []struct {
		e    Explanation
		want string
	}{
		{Explanation{Contract: "solo", Outcome: Won, Value: d(2)}, "Solo won: 2 from each opponent."},
		{Explanation{Contract: "solo", Declarer: "Ben", Outcome: Lost, Value: d(2)}, "Solo by Ben lost: 2 to each opponent."},
		{Explanation{Contract: "solo", Outcome: Won, Points: ip(70), Value: d(2)}, "Solo won with 70 points: 2 from each opponent."},
	} {
		if got := c.e.Text(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}
