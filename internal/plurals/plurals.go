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
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// form is {N:one|other}.
var form = regexp.MustCompile(`\{(\d+):([^{}|]*)\|([^{}|]*)\}`)

// Has reports whether a format has a word that counts.
func Has(format string) bool { return form.MatchString(format) }

// Choose gives the format with each counted word in the form its argument
// asks for in the language.
func Choose(lang language.Tag, format string, args []any) string {
	if !strings.Contains(format, "{") {
		return format
	}
	return form.ReplaceAllStringFunc(format, func(m string) string {
		p := form.FindStringSubmatch(m)
		n, _ := strconv.Atoi(p[1])
		if n >= 1 && n <= len(args) && isOne(lang, args[n-1]) {
			return p[2]
		}
		return p[3]
	})
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
	words := form.FindAllStringSubmatchIndex(format, -1)
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
