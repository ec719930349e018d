package plurals

import (
	"fmt"
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
