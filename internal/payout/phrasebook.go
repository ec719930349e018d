package payout

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"golang.org/x/text/language"

	"tappbook/internal/plurals"
)

// englishPhrases is the English phrasebook (EnglishPhrases), each format
// parsed once: every deal recorded says its explanation in English (the
// stored "text", the API's "explanation"), some ten phrases, and
// fmt.Sprintf parsing each format again made a fifth of a deal's
// allocations. A phrase whose format or arguments the parts do not serve
// (plural forms, another verb, another type) is printed by fmt as before.
type englishPhrases map[string]phrase

type phrase struct {
	format string       // as written, for fmt
	parts  []phrasePart // nil: fmt prints it
	args   int          // how many arguments the parts print
}

// phrasePart is literal text (arg < 0), or argument arg printed with verb
// 's' (a string, or a decimal as its String) or 'd' (an int).
type phrasePart struct {
	text string
	arg  int
	verb byte
}

func newEnglishPhrases(m map[string]string) englishPhrases {
	out := make(englishPhrases, len(m))
	for k, f := range m {
		parts, args, ok := parsePhrase(f)
		if !ok {
			parts = nil
		}
		out[k] = phrase{format: f, parts: parts, args: args}
	}
	return out
}

// parsePhrase splits a format into its parts: text, %s, %d, and the
// same with an argument index (%[2]s), which fmt's next verb counts on
// from; ok is false for anything else.
func parsePhrase(f string) (parts []phrasePart, args int, ok bool) {
	if plurals.Has(f) {
		return nil, 0, false
	}
	next := 0 // the argument an unindexed verb prints, as fmt counts
	for f != "" {
		i := strings.IndexByte(f, '%')
		if i < 0 {
			return append(parts, phrasePart{text: f, arg: -1}), args, true
		}
		if i > 0 {
			parts = append(parts, phrasePart{text: f[:i], arg: -1})
		}
		f = f[i+1:]
		if rest, ok := strings.CutPrefix(f, "["); ok {
			j := strings.IndexByte(rest, ']')
			n, err := strconv.Atoi(rest[:max(j, 0)])
			if j < 0 || err != nil || n < 1 || strconv.Itoa(n) != rest[:j] {
				return nil, 0, false
			}
			next, f = n-1, rest[j+1:]
		}
		if f == "" || f[0] != 's' && f[0] != 'd' {
			return nil, 0, false
		}
		parts = append(parts, phrasePart{arg: next, verb: f[0]})
		f = f[1:]
		next++
		args = max(args, next)
	}
	return parts, args, true
}

func (m englishPhrases) Phrase(key string, args ...any) string {
	p, ok := m[key]
	if !ok {
		return key
	}
	if s, ok := p.print(args); ok {
		return s
	}
	return fmt.Sprintf(plurals.Choose(language.English, p.format, args), args...)
}

// print prints the phrase from its parts, as fmt.Sprintf would; ok is
// false when the parts cannot (fmt then says what is missing or wrong).
func (p phrase) print(args []any) (string, bool) {
	if p.parts == nil || len(args) != p.args {
		return "", false
	}
	if len(p.parts) == 1 && p.parts[0].arg < 0 {
		return p.parts[0].text, true
	}
	var b strings.Builder
	b.Grow(len(p.format) + 16*len(args))
	for _, part := range p.parts {
		if part.arg < 0 {
			b.WriteString(part.text)
			continue
		}
		switch a := args[part.arg].(type) {
		case string:
			if part.verb != 's' {
				return "", false
			}
			b.WriteString(a)
		case decimal.Decimal:
			if part.verb != 's' {
				return "", false
			}
			b.WriteString(a.String())
		case int:
			if part.verb != 'd' {
				return "", false
			}
			b.WriteString(strconv.Itoa(a))
		default:
			return "", false
		}
	}
	return b.String(), true
}
