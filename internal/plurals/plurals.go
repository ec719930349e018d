// Package plurals lets a message count: "1 trick", "2 tricks"; "1 Stich",
// "2 Stiche"; "1 stick", "2 stick". A format names the word forms where the
// word stands, {N:one|other}, N the argument (from 1) that counts:
//
//	"with %d {1:point|points} in %d {2:trick|tricks}"
//
// The form is chosen by the language's CLDR plural rules from
// golang.org/x/text (for English, German and Swedish: "one" for exactly 1,
// "other" otherwise). Set loads such a format into an x/text catalog, whose
// printer chooses; Choose chooses directly, for code that prints with fmt.
// It depends on nothing of tappbook.
package plurals

import (
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// Has reports whether a format has a word that counts.
func Has(format string) bool {
	_, ok := nextForm(format, 0)
	return ok
}

// Choose gives the format with each counted word in the form its argument
// asks for in the language.
func Choose(lang language.Tag, format string, args []any) string {
	w, ok := nextForm(format, 0)
	if !ok {
		return format
	}
	var out strings.Builder
	out.Grow(len(format))
	last := 0
	for ok {
		out.WriteString(format[last:w[0]])
		n, _ := strconv.Atoi(format[w[2]:w[3]])
		if n >= 1 && n <= len(args) && isOne(lang, args[n-1]) {
			out.WriteString(format[w[4]:w[5]])
		} else {
			out.WriteString(format[w[6]:w[7]])
		}
		last = w[1]
		w, ok = nextForm(format, last)
	}
	out.WriteString(format[last:])
	return out.String()
}

// forms finds every {N:one|other} of a format, left to right, each as the
// indexes of the whole, N, one and other (as regexp's submatch indexes
// give them).
func forms(format string) [][]int {
	var out [][]int
	for w, ok := nextForm(format, 0); ok; w, ok = nextForm(format, w[1]) {
		out = append(out, w[:])
	}
	return out
}

// nextForm finds the first {N:one|other} at or after from: N one or more
// ASCII digits, one and other anything but {, } and |. Every message a
// page or an explanation prints passes here, so it is a scan, not a
// regular expression.
func nextForm(s string, from int) ([8]int, bool) {
	for from < len(s) {
		k := strings.IndexByte(s[from:], '{')
		if k < 0 {
			break
		}
		start := from + k
		if w, ok := formAt(s, start); ok {
			return w, true
		}
		from = start + 1
	}
	return [8]int{}, false
}

// formAt matches {N:one|other} at s[start], which is '{'.
func formAt(s string, start int) ([8]int, bool) {
	i := start + 1
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start+1 || i >= len(s) || s[i] != ':' {
		return [8]int{}, false
	}
	digitsEnd := i
	word := func(from int, end byte) (int, bool) {
		j := from
		for j < len(s) && s[j] != '{' && s[j] != '}' && s[j] != '|' {
			j++
		}
		return j, j < len(s) && s[j] == end
	}
	oneEnd, ok := word(i+1, '|')
	if !ok {
		return [8]int{}, false
	}
	otherEnd, ok := word(oneEnd+1, '}')
	if !ok {
		return [8]int{}, false
	}
	return [8]int{start, otherEnd + 1, start + 1, digitsEnd, i + 1, oneEnd, oneEnd + 1, otherEnd}, true
}

func isOne(lang language.Tag, arg any) bool {
	var n int
	switch v := arg.(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	default:
		return false
	}
	if n < 0 {
		n = -n
	}
	return plural.Cardinal.MatchPlural(lang, n, 0, 0, 0, 0) == plural.One
}

// Set loads a message into an x/text catalog: as it is, or, where words
// count, as a choice by the language's plural rules over each counting
// argument, every branch the whole format with its words in place (a
// choice only of the word would leave the printer with arguments the word
// does not use).
func Set(b *catalog.Builder, lang language.Tag, key, format string) error {
	words := forms(format)
	if len(words) == 0 {
		return b.SetString(lang, key, format)
	}
	return b.Set(lang, key, choice(format, words, nil))
}

// choice chooses the form of word len(one), the forms of the words before
// it given in one.
func choice(format string, words [][]int, one []bool) catalog.Message {
	if len(one) == len(words) {
		var out strings.Builder
		last := 0
		for i, w := range words {
			out.WriteString(format[last:w[0]])
			if one[i] {
				out.WriteString(format[w[4]:w[5]])
			} else {
				out.WriteString(format[w[6]:w[7]])
			}
			last = w[1]
		}
		out.WriteString(format[last:])
		return catalog.String(out.String())
	}
	w := words[len(one)]
	n, _ := strconv.Atoi(format[w[2]:w[3]])
	with := func(b bool) []bool { return append(append([]bool(nil), one...), b) }
	return plural.Selectf(n, "%d", plural.One, choice(format, words, with(true)), plural.Other, choice(format, words, with(false)))
}
