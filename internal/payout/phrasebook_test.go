package payout

import (
	"fmt"
	"testing"

	"golang.org/x/text/language"

	"tappbook/internal/plurals"
)

// Every English phrase reads as fmt.Sprintf writes it: given each phrase
// of the book with arguments of the kinds the explanations give (names,
// amounts, counts of one and of many), too few, too many, and of another
// kind, the parsed phrasebook says what fmt says; and it prints most
// phrases itself, not through fmt.
func TestEnglishPhrasesReadAsFmtWritesThem(t *testing.T) {
	book := newEnglishPhrases(EnglishPhrases())
	parsed := 0
	for key, f := range EnglishPhrases() {
		if book[key].parts != nil {
			parsed++
		}
		n := book[key].args
		for _, args := range [][]any{
			kinds(n, "Anna", d(5), 1), kinds(n, "Ben Bauer", d(-2).Shift(-1), 70),
			kinds(n+1, "Cleo", d(3), 2), kinds(max(n-1, 0), "Dan", d(1), 0),
			kinds(n, 7, 1.5, "x"), kinds(n, "Ann", "Ben", "Cleo"),
		} {
			want := fmt.Sprintf(plurals.Choose(language.English, f, args), args...)
			if got := book.Phrase(key, args...); got != want {
				t.Errorf("%s %q with %v: %q, fmt says %q", key, f, args, got, want)
			}
		}
	}
	if parsed < len(EnglishPhrases())*3/4 {
		t.Fatalf("%d of %d phrases parsed", parsed, len(EnglishPhrases()))
	}
	if got := book.Phrase("ex.head", "Solo", "by Ben", "won", "with 70 points"); got != "Solo by Ben won with 70 points" {
		t.Fatalf("ex.head: %q", got)
	}
}

// kinds gives n arguments, cycling through the values given.
func kinds(n int, vals ...any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = vals[i%len(vals)]
	}
	return out
}

// A phrase the parts cannot print is left to fmt: plural forms, an
// escaped percent sign, a verb other than %s and %d, a bad index.
func TestPhrasesLeftToFmt(t *testing.T) {
	for _, f := range []string{"with %d {1:point|points}", "100%% %s", "%v", "%x", "%[0]s", "%[x]s", "%[1s", "%", "%5s"} {
		if _, _, ok := parsePhrase(f); ok {
			t.Errorf("%q parsed", f)
		}
	}
	for f, want := range map[string]int{"plain": 0, "%s and %s": 2, "%[2]s %[1]s": 2, "%[2]s %s": 3, "%d%%": -1} {
		_, args, ok := parsePhrase(f)
		if want < 0 && ok || want >= 0 && (!ok || args != want) {
			t.Errorf("%q: %d arguments (%v), want %d", f, args, ok, want)
		}
	}
}
