package i18n

import (
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// A parsedMessage is a format parsed once, when the bundle loads, into its
// literal text, its arguments and its counted words: a page prints
// hundreds of messages, and x/text's printer looks each up and parses it
// again on every call. It prints only what it can print exactly as that
// printer does (strings, small counts; see fill); anything else (a
// thousand, a negative number, a verb with flags, an argument of another
// type) goes to the printer, which stays the reference.
type parsedMessage struct {
	pieces []piece
	// slow: the format has what only the printer does (%U, flags or
	// width, ${…} substitutions, a counted word with a verb in it).
	slow bool
	// reordered and argNum are the printer's state after the last verb:
	// whether an index ([n]) was used and the next argument's index. An
	// argument past argNum of an unordered format is printed as
	// %!(EXTRA …), which is the printer's to say.
	reordered bool
	argNum    int
	// size is the message's length with each argument taken as 8 bytes:
	// what its text is made in, mostly without growing.
	size int
}

// A piece is literal text, an argument (arg with its verb), or a word
// that counts (arg the count, one and other its forms).
type piece struct {
	text       string
	verb       byte // 0 for text and counted words
	arg        int  // argument index, from 0
	counted    bool
	one, other string
}

// parseMessage parses a format as the catalog holds it: printf verbs and
// {N:one|other} words that count (package plurals).
func parseMessage(format string) parsedMessage {
	var m parsedMessage
	if strings.Contains(format, "${") {
		return parsedMessage{slow: true}
	}
	text := strings.Builder{}
	flush := func() {
		if text.Len() > 0 {
			m.pieces = append(m.pieces, piece{text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(format); {
		c := format[i]
		if c == '{' {
			if w, ok := wordAt(format, i); ok {
				flush()
				m.pieces = append(m.pieces, w.piece)
				if strings.ContainsRune(w.one+w.other, '%') {
					m.slow = true
				}
				i = w.end
				continue
			}
		}
		if c != '%' {
			text.WriteByte(c)
			i++
			continue
		}
		arg, verb, end, ok := m.verbAt(format, i)
		if !ok {
			return parsedMessage{slow: true}
		}
		i = end
		if verb == '%' {
			text.WriteByte('%')
			continue
		}
		flush()
		m.pieces = append(m.pieces, piece{verb: verb, arg: arg})
	}
	flush()
	for _, p := range m.pieces {
		m.size += len(p.text) + max(len(p.one), len(p.other))
		if p.verb != 0 {
			m.size += 8
		}
	}
	return m
}

// verbAt reads the verb at format[i], which is '%': %%, or %s, %q, %d or
// %v with an optional index ([n]), as the printer numbers arguments.
func (m *parsedMessage) verbAt(format string, i int) (arg int, verb byte, end int, ok bool) {
	i++
	if i < len(format) && format[i] == '%' {
		return 0, '%', i + 1, true
	}
	arg = m.argNum
	if i < len(format) && format[i] == '[' {
		close := strings.IndexByte(format[i:], ']')
		if close < 0 {
			return 0, 0, 0, false
		}
		n, err := strconv.Atoi(format[i+1 : i+close])
		if err != nil || n < 1 {
			return 0, 0, 0, false
		}
		arg = n - 1
		m.reordered = true
		i += close + 1
	}
	if i >= len(format) || !strings.ContainsRune("sqdv", rune(format[i])) {
		return 0, 0, 0, false
	}
	m.argNum = arg + 1
	return arg, format[i], i + 1, true
}

type word struct {
	piece
	end int
}

// wordAt reads a word that counts at format[i], which is '{', as package
// plurals finds one: {N:one|other}, N digits, the forms without {, } or |.
func wordAt(format string, i int) (word, bool) {
	j := i + 1
	for j < len(format) && format[j] >= '0' && format[j] <= '9' {
		j++
	}
	if j == i+1 || j >= len(format) || format[j] != ':' {
		return word{}, false
	}
	n, err := strconv.Atoi(format[i+1 : j])
	if err != nil || n < 1 {
		return word{}, false
	}
	rest := format[j+1:]
	bar := strings.IndexAny(rest, "{}|")
	if bar < 0 || rest[bar] != '|' {
		return word{}, false
	}
	brace := strings.IndexAny(rest[bar+1:], "{}|")
	if brace < 0 || rest[bar+1+brace] != '}' {
		return word{}, false
	}
	return word{
		piece: piece{arg: n - 1, counted: true, one: rest[:bar], other: rest[bar+1 : bar+1+brace]},
		end:   j + 1 + bar + 1 + brace + 1,
	}, true
}

// fill prints the message with args as x/text's printer would, or says it
// cannot: then the printer must.
//
// quote is how the language quotes a string under %q: a localQuote
// without its text, or a string (quoted as Go does).
func (m *parsedMessage) fill(lang language.Tag, quote any, args []any) (string, bool) {
	if m.slow || (!m.reordered && m.argNum != 0 && m.argNum < len(args)) {
		return "", false
	}
	if len(m.pieces) == 1 && m.pieces[0].verb == 0 && !m.pieces[0].counted {
		return m.pieces[0].text, true
	}
	var b strings.Builder
	b.Grow(m.size)
	for _, p := range m.pieces {
		switch {
		case p.counted:
			one, ok := isOne(lang, args, p.arg)
			if !ok {
				return "", false
			}
			if one {
				b.WriteString(p.one)
			} else {
				b.WriteString(p.other)
			}
		case p.verb == 0:
			b.WriteString(p.text)
		default:
			if p.arg >= len(args) || !fillArg(&b, p.verb, args[p.arg], quote) {
				return "", false
			}
		}
	}
	return b.String(), true
}

// fillArg writes one argument as the printer would: a string, a quoted
// value of the language (localQuote), a count from 0 to 999 (larger
// numbers the printer groups the language's way, negative ones it signs
// the language's way).
func fillArg(b *strings.Builder, verb byte, arg, quote any) bool {
	switch v := arg.(type) {
	case string:
		switch verb {
		case 's', 'v':
			b.WriteString(v)
		case 'q':
			if q, ok := quote.(localQuote); ok {
				q.s = v
				b.WriteString(q.quote())
			} else {
				b.WriteString(strconv.Quote(v))
			}
		default:
			return false
		}
	case localQuote:
		switch verb {
		case 's', 'v':
			b.WriteString(v.s)
		case 'q':
			b.WriteString(v.quote())
		default:
			return false
		}
	case int:
		if (verb != 'd' && verb != 'v') || v < 0 || v > 999 {
			return false
		}
		b.WriteString(strconv.Itoa(v))
	default:
		return false
	}
	return true
}

// isOne reports whether the count args[i] takes the word's "one" form in
// the language, and whether it is a count this path can judge.
func isOne(lang language.Tag, args []any, i int) (one, ok bool) {
	if i >= len(args) {
		return false, false
	}
	n, ok := args[i].(int)
	if !ok || n < 0 {
		return false, false
	}
	return plural.Cardinal.MatchPlural(lang, n, 0, 0, 0, 0) == plural.One, true
}
