package i18n

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"golang.org/x/text/language"

	"tappbook/internal/problem"
)

// Every message of every language, printed from its parsed format, is
// byte for byte what x/text's printer prints from the catalog: with
// counts that take either form, numbers the printer groups or signs the
// language's way, quoted values with what cannot be seen, a decimal, a
// term, and one argument too many or too few.
func TestParsedMessagesPrintAsThePrinter(t *testing.T) {
	b := load(t)
	counts := []int{0, 1, 2, 7, 21, 999, 1000, 1234567, -1}
	texts := []string{"Anna", `Ben "the dealer"`, "tab\there", "Zoë"}
	fast, all := 0, 0
	for _, lang := range Languages() {
		l := b.For(lang)
		for _, key := range b.Keys("en") {
			f, _ := b.Format("en", key)
			for i := range counts {
				args := sampleArgs(f, counts[i], texts[i%len(texts)])
				if i == 3 {
					args = append(args, decimal.RequireFromString("-1.50"), problem.Term{ID: "solo"})
				}
				if i == 4 && len(args) > 0 {
					args = args[:len(args)-1]
				}
				want := l.p.Sprintf(key, l.local(args)...)
				if got := l.T(key, args...); got != want {
					t.Errorf("%s %s %v:\n got %q\nwant %q", lang, key, args, got, want)
				}
				all++
				if _, ok := l.msgs[key].fill(l.tag, "", l.local(args)); ok {
					fast++
				}
			}
		}
	}
	// The parsed path is the common one, or this test compares the
	// printer with itself.
	t.Logf("%d of %d from the parsed format", fast, all)
	if fast < all/2 {
		t.Errorf("only %d of %d messages printed from their parsed format", fast, all)
	}
}

// sampleArgs gives arguments of the kinds an English format's verbs take.
func sampleArgs(f string, n int, s string) []any {
	args := argsFor(f)
	for i, a := range args {
		switch a.(type) {
		case int:
			args[i] = n
		case string:
			args[i] = s
		}
	}
	return args
}

func TestParseMessage(t *testing.T) {
	cases := []struct {
		format string
		args   []any
		want   string
		ok     bool
	}{
		{"%d {1:deal|deals}", []any{1}, "1 deal", true},
		{"%d {1:deal|deals}", []any{2}, "2 deals", true},
		{"%[2]s has %[1]d {1:point|points}, 100%%", []any{1, "Anna"}, "Anna has 1 point, 100%", true},
		{"%q", []any{"a\"b"}, `"a\"b"`, true},
		{"%q", []any{localQuote{s: "x", open: "„", close: "“"}}, "„x“", true},
		{"%d", []any{1000}, "", false},     // the printer groups it
		{"%d", []any{-1}, "", false},       // the printer signs it
		{"%s %s", []any{"a"}, "", false},   // missing: the printer says so
		{"%s", []any{"a", "b"}, "", false}, // extra: the printer says so
		{"%5s", []any{"a"}, "", false},     // width
		{"%U", []any{65}, "", false},       // a verb only the printer knows
		{"${x}", nil, "", false},           // a substitution
		{"{1:a|%d}", []any{1}, "", false},  // a verb in a counted word
		{"no {count} here", nil, "no {count} here", true},
	}
	for _, c := range cases {
		m := parseMessage(c.format)
		got, ok := m.fill(language.English, "", c.args)
		if ok != c.ok || got != c.want {
			t.Errorf("%q %v: got %q %v, want %q %v", c.format, c.args, got, ok, c.want, c.ok)
		}
		if strings.Contains(got, "%!") {
			t.Errorf("%q: %q", c.format, got)
		}
	}
}

// Num writes a decimal of a game's size from its digits exactly as from
// decimal.String: zeros, signs, places trimmed, leading zeros of a
// fraction, in a decimal comma's language and a point's.
func TestNumAsDecimalString(t *testing.T) {
	b := load(t)
	old := func(l Localizer, d decimal.Decimal) string {
		s := d.String()
		if l.decimalComma() {
			s = strings.Replace(s, ".", ",", 1)
		}
		return strings.Replace(s, "-", "−", 1)
	}
	var ds []decimal.Decimal
	for _, s := range []string{"0", "0.000", "-0.00", "1", "-1", "1.50", "-0.05", "0.5", "100", "1000.10", "12345678.90", "-999999999999999999", "0.000000000000000001", "1e3", "-2.5e-20", "123456789012345678901"} {
		ds = append(ds, decimal.RequireFromString(s))
	}
	for _, c := range []int64{0, 1, -1, 7, 10, -120, 3050, 999999, -1000000000000000000, 123456789012345678} {
		for exp := int32(-20); exp <= 2; exp++ {
			ds = append(ds, decimal.New(c, exp))
		}
	}
	small := 0
	for _, lang := range Languages() {
		l := b.For(lang)
		for _, d := range ds {
			if got, want := l.Num(d), old(l, d); got != want {
				t.Errorf("%s Num(%s) = %q, want %q", lang, d, got, want)
			}
			if _, ok := l.smallNum(d); ok {
				small++
			}
		}
	}
	if small < 3*len(ds)/2 {
		t.Errorf("only %d of %d decimals written from their digits", small, 3*len(ds))
	}
}
