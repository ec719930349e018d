package i18n

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

func load(t *testing.T) *Bundle {
	t.Helper()
	refusals, err := game.Refusals()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(refusals, payout.EnglishPhrases())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every key of every language exists in the others: no word of the UI is
// missing in German or Swedish.
func TestNoKeyMissing(t *testing.T) {
	b := load(t)
	en := b.Keys("en")
	if len(en) < 250 {
		t.Fatalf("only %d English keys: the catalog did not load", len(en))
	}
	for _, lang := range Languages() {
		have := map[string]bool{}
		for _, k := range b.Keys(lang) {
			have[k] = true
		}
		for _, k := range en {
			if !have[k] {
				t.Errorf("%s lacks %q", lang, k)
			}
		}
		if len(have) != len(en) {
			t.Errorf("%s has %d keys, English %d", lang, len(have), len(en))
		}
	}
}

var verb = regexp.MustCompile(`%(\[\d+\])?[sdqvU]`)

// argsFor builds arguments of the right kinds for an English format.
func argsFor(f string) []any {
	var args []any
	next := 0
	for _, m := range verb.FindAllString(f, -1) {
		i := next
		if strings.HasPrefix(m, "%[") {
			i = int(m[2]-'0') - 1
		}
		for len(args) <= i {
			args = append(args, nil)
		}
		switch m[len(m)-1] {
		case 'd', 'v', 'U':
			args[i] = 7
		default:
			args[i] = "Anna"
		}
		next = i + 1
	}
	return args
}

// Every translation takes the English arguments: no missing or extra verb,
// no verb of the wrong kind.
func TestTranslationsTakeTheirArguments(t *testing.T) {
	b := load(t)
	for _, key := range b.Keys("en") {
		f, _ := b.Format("en", key)
		args := argsFor(f)
		for _, lang := range Languages() {
			got := b.For(lang).T(key, append([]any(nil), args...)...)
			if strings.Contains(got, "%!") || got == "" {
				t.Errorf("%s %s: %q", lang, key, got)
			}
		}
	}
}

func TestExplanationsAndErrorsTranslate(t *testing.T) {
	b := load(t)
	s := payout.Setup{Variant: payout.OldTapp, Players: []string{"Anna", "Ben", "Cleo"}, Rules: payout.DefaultRules(payout.OldTapp)}
	p := 73
	res, err := payout.Score(s, payout.Table{}, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: &p})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Explanation.Render(b.For("en")), res.Explanation.Text(); got != want {
		t.Fatalf("English through the catalog %q, payout's own %q", got, want)
	}
	de := res.Explanation.Render(b.For("de"))
	if !strings.Contains(de, "Coeurfrage von Ben mit 73 Augen gewonnen") || !strings.Contains(de, "3,25") {
		t.Fatalf("German explanation: %q", de)
	}
	sv := res.Explanation.Render(b.For("sv"))
	if !strings.Contains(sv, "Coeurfrage vanns av Ben med 73 ögon") || !strings.Contains(sv, "från varje motspelare") {
		t.Fatalf("Swedish explanation: %q", sv)
	}
	p = 119
	_, err = payout.Score(s, payout.Table{}, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: &p})
	if got := b.For("de").Error(err); !strings.Contains(got, "genau 1 Auge") {
		t.Fatalf("German error: %q", got)
	}
	if got := b.For("sv").Error(err); !strings.Contains(got, "exakt 1 öga") {
		t.Fatalf("Swedish error: %q", got)
	}
}

func TestMoney(t *testing.T) {
	b := load(t)
	d := decimal.RequireFromString
	cases := []struct {
		lang, cur, amount string
		places            int32
		want              string
	}{
		{"de", "EUR", "12.5", 2, "12,50 €"},
		{"en", "EUR", "12.5", 2, "€12.50"},
		{"de", "CHF", "12.5", 2, "CHF 12.50"},
		{"sv", "CHF", "-3", 2, "−CHF 3.00"},
		{"sv", "SEK", "12.5", 2, "12,50 kr"},
		{"en", "", "-14", 0, "−14"},
		{"de", "USD", "1", 2, "1,00 USD"},
		{"en", "USD", "1", 2, "USD 1.00"},
	}
	for _, c := range cases {
		if got := b.For(c.lang).Money(d(c.amount), c.cur, c.places); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.lang, c.cur, c.amount, got, c.want)
		}
	}
	if got := b.For("de").Num(d("-3.25")); got != "−3,25" {
		t.Errorf("German number: %q", got)
	}
}

func TestParseAmount(t *testing.T) {
	good := map[string]string{"1,50": "1.50", "1.50": "1.50", "0,5": "0.5", "1.234,50": "1234.50", "1,234.50": "1234.50", " 2 ": "2", "1'000": "1000", "-0": "-0", "−1,5": "-1.5",
		"0,005": "0.005", "0.125": "0.125", "1.000,00": "1000.00", "1,000.00": "1000.00", "1000": "1000", "12,5": "12.5"}
	for in, want := range good {
		got, err := NormalizeAmount(in)
		if err != nil || got != want {
			t.Errorf("%q → %q, %v; want %q", in, got, err, want)
		}
		if _, err := ParseAmount(in); err != nil {
			t.Errorf("ParseAmount(%q): %v", in, err)
		}
	}
	// "1,000" is a thousand on an English keyboard and one on a German
	// one: refused, never read as one of them (a payment of 1,000 kr was
	// recorded as 1).
	for _, bad := range []string{"", "abc", "1e9", "1,2,3", "1.2.3", ",", "NaN", "1,000", "1.000", "12.500", "-1,000", "999,999",
		".1,000", "1.2,5", "12.34,5", "1,2345.6"} {
		if got, err := NormalizeAmount(bad); err == nil {
			t.Errorf("%q accepted as %q", bad, got)
		}
	}
}

// A thousand or a decimal is said to be one, so that a form refuses it in
// those words instead of reading it as typed.
func TestAmbiguousAmounts(t *testing.T) {
	for _, s := range []string{"1,000", "1.000", " 12.500 ", "-1,000"} {
		if _, err := NormalizeAmount(s); !Ambiguous(s) || !errors.Is(err, ErrThousands) {
			t.Errorf("%q: ambiguous %v, %v", s, Ambiguous(s), err)
		}
	}
	for _, s := range []string{"0,005", "1.000,00", "1,000.00", "1000", "1,5", "2.5", "1234.500", "1'000,000"} {
		if Ambiguous(s) {
			t.Errorf("%q is said to be ambiguous", s)
		}
	}
}

func TestMatch(t *testing.T) {
	b := load(t)
	cases := []struct{ choice, accept, want string }{
		{"", "de-CH,de;q=0.9,en;q=0.8", "de"},
		{"", "sv-SE,sv;q=0.9", "sv"},
		{"", "fr-FR,fr;q=0.9", "en"},
		{"", "", "en"},
		{"sv", "de", "sv"},
		{"xx", "de", "de"},
	}
	for range 2 { // the second time from what the bundle remembers
		for _, c := range cases {
			if got := b.Match(c.choice, c.accept); got != c.want {
				t.Errorf("choice %q accept %q: %s, want %s", c.choice, c.accept, got, c.want)
			}
		}
	}
}

// TestMatchRemembersBounded: the headers matched are remembered within a
// bound, whatever clients send, and each is answered alike when it is no
// longer remembered.
func TestMatchRemembersBounded(t *testing.T) {
	b := load(t)
	long := "sv;q=0.9," + strings.Repeat("x-private;q=0.1,", acceptedLongest/16)
	for i := range 3 * acceptedKept {
		accept := fmt.Sprintf("de,en;q=0.%03d", i)
		if got := b.Match("", accept); got != "de" {
			t.Fatalf("accept %q: %s, want de", accept, got)
		}
		if got := b.Match("", long); got != "sv" {
			t.Fatalf("accept %q: %s, want sv", long, got)
		}
		if n := len(b.heard.langs); n > acceptedKept {
			t.Fatalf("%d headers remembered, more than %d", n, acceptedKept)
		}
	}
	if _, ok := b.heard.get(long); ok {
		t.Errorf("a header of %d bytes was remembered, longer than %d", len(long), acceptedLongest)
	}
	if _, ok := b.heard.get(fmt.Sprintf("de,en;q=0.%03d", 3*acceptedKept-1)); !ok {
		t.Error("the last header matched is not remembered")
	}
}

// FuzzAmount: any text typed as an amount is read or refused, never a
// panic; what is read is a plain decimal that reads back the same.
func FuzzAmount(f *testing.F) {
	for _, s := range []string{"1,50", "1.50", "-0", "1e9", "99999999999999999999999999999.99", "1.234,56", "1'000", "−3", "", ",", "0,5", ".1,000", "1,000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		norm, err := NormalizeAmount(s)
		if err != nil {
			return
		}
		d, err := decimal.NewFromString(norm)
		if err != nil {
			t.Fatalf("%q normalised to %q, which is not a decimal", s, norm)
		}
		again, err := NormalizeAmount(norm)
		if err != nil || again != norm {
			t.Fatalf("%q → %q → %q (%v)", s, norm, again, err)
		}
		if d2, _ := ParseAmount(s); !d2.Equal(d) {
			t.Fatalf("ParseAmount(%q) = %s, NormalizeAmount gives %s", s, d2, norm)
		}
	})
}

// A refusal on a page is a sentence: a capital first and a full stop last
// (the API's English is lower case without one), never two.
func TestErrorIsASentence(t *testing.T) {
	b := load(t)
	en := b.For("en")
	refusals, err := game.Refusals()
	if err != nil {
		t.Fatal(err)
	}
	// Every refusal in every language: one stop at most, none after a
	// stop or a question mark, every verb filled.
	for code, format := range refusals.Messages() {
		args := argsFor(format)
		for i, a := range args {
			if a == nil {
				args[i] = "Anna"
			}
		}
		for _, lang := range Languages() {
			got := b.For(lang).Error(refusals.Input("", code, args...))
			if strings.Contains(got, "%!") || regexp.MustCompile(`[.?!…]["“”»)]?\.$`).MatchString(got) {
				t.Errorf("%s %s: %q", lang, code, got)
			}
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{refusals.New(problem.Conflict, "", "conflict.hand", 7, 6), "This is deal 7, not 6; someone may have recorded it already, so check the list before recording again."},
		{refusals.Input("declarer", "declarer.missing"), "Say who played the contract."},
		{refusals.Input("contract", "contract.missing", "solo, tapp"), "Say which contract was played (solo, tapp)."},
		{errors.New("no such thing"), "Something went wrong on the server; nothing was changed. Try again."},
	} {
		if got := en.Error(c.err); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}

// German names the pot one way on every page ("Pott", as the table and the
// explanations say it), not "Topf" on one of them.
func TestGermanPotIsPott(t *testing.T) {
	b := load(t)
	for _, key := range b.Keys("de") {
		if f, _ := b.Format("de", key); strings.Contains(f, "Topf") {
			t.Errorf("de %s says Topf: %s", key, f)
		}
	}
}
