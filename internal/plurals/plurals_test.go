package plurals

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Each language's plural rules choose the word: one only for exactly 1.
func TestChooseAndSet(t *testing.T) {
	cases := []struct {
		lang   language.Tag
		format string
		args   []any
		want   string
	}{
		{language.English, "with %d {1:point|points} in %d {2:trick|tricks}", []any{14, 1}, "with 14 points in 1 trick"},
		{language.English, "with %d {1:point|points} in %d {2:trick|tricks}", []any{0, 2}, "with 0 points in 2 tricks"},
		{language.English, "%d {1:unit|units} left over", []any{1}, "1 unit left over"},
		{language.German, "mit %d {1:Auge|Augen} in %d {2:Stich|Stichen}", []any{14, 1}, "mit 14 Augen in 1 Stich"},
		{language.German, "alle %d {1:Stich|Stiche}", []any{2}, "alle 2 Stiche"},
		{language.Swedish, "med %d {1:öga|ögon} på %d {2:stick|stick}", []any{1, 2}, "med 1 öga på 2 stick"},
		{language.English, "%[2]d {2:event|events} of %[1]s", []any{"Anna", 1}, "1 event of Anna"},
		{language.English, "no count {here}", nil, "no count {here}"},
	}
	b := catalog.NewBuilder()
	for i, c := range cases {
		if got := fmtS(Choose(c.lang, c.format, c.args), c.args); got != c.want {
			t.Errorf("Choose(%s, %q, %v) = %q, want %q", c.lang, c.format, c.args, got, c.want)
		}
		key := string(rune('a' + i))
		if err := Set(b, c.lang, key, c.format); err != nil {
			t.Fatal(err)
		}
		if got := message.NewPrinter(c.lang, message.Catalog(b)).Sprintf(key, c.args...); got != c.want {
			t.Errorf("through the catalog (%s, %q, %v) = %q, want %q", c.lang, c.format, c.args, got, c.want)
		}
	}
}

func fmtS(format string, args []any) string { return fmt.Sprintf(format, args...) }

// form is the grammar of a counted word as a regular expression: the
// scanner must find exactly what it finds.
var form = regexp.MustCompile(`\{(\d+):([^{}|]*)\|([^{}|]*)\}`)

// On random formats made of the grammar's pieces and of near misses, the
// scanner finds the same counted words as the regular expression, and
// Choose gives what a replacement by the regular expression gives.
func TestScannerMatchesGrammar(t *testing.T) {
	pieces := []string{"{", "}", "|", ":", "1", "2", "12", "x", "point", "ö", " ", "%d", "{1:a|b}", "{2:|}", "{1:a|b|c}", "{:a|b}", "{1a|b}", "\n", "{{1:a|b}}"}
	rng := rand.New(rand.NewPCG(4, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		format := b.String()
		want := form.FindAllStringSubmatchIndex(format, -1)
		got := forms(format)
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%q: scanner %v, regexp %v", format, got, want)
		}
		if Has(format) != form.MatchString(format) {
			t.Fatalf("%q: Has %v", format, Has(format))
		}
		args := []any{rng.IntN(3), rng.IntN(3)}
		ref := form.ReplaceAllStringFunc(format, func(m string) string {
			p := form.FindStringSubmatch(m)
			n, _ := strconv.Atoi(p[1])
			if n >= 1 && n <= len(args) && isOne(language.English, args[n-1]) {
				return p[2]
			}
			return p[3]
		})
		if got := Choose(language.English, format, args); got != ref {
			t.Fatalf("%q %v: Choose %q, regexp %q", format, args, got, ref)
		}
	}
}
