// Package jsonenc writes JSON by hand, byte for byte as encoding/json
// writes it (HTML-safe strings, decimal amounts as quoted strings, map
// members in key order), for the few values a recorded deal is encoded as
// on its way (its explanation, its event, the answer): encoding/json's
// reflection was the largest part of recording a deal after SQLite and
// HTTP. Each type that writes itself with it has a property test against
// encoding/json. It depends on nothing of tappbook.
package jsonenc

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string, escaped as encoding/json escapes it
// (quotes, backslashes, control characters, <, > and &, U+2028 and U+2029,
// invalid UTF-8 as U+FFFD).
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Decimal appends d as decimal.Decimal's MarshalJSON writes it: its
// String, quoted.
func Decimal(b []byte, d decimal.Decimal) []byte {
	b = append(b, '"')
	if d.Exponent() == 0 && d.NumDigits() <= 18 {
		b = strconv.AppendInt(b, d.CoefficientInt64(), 10)
	} else {
		b = append(b, d.String()...)
	}
	return append(b, '"')
}

// DecimalMap appends a map of amounts, its members in key order.
func DecimalMap(b []byte, m map[string]decimal.Decimal) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, k)
		b = append(b, ':')
		b = Decimal(b, m[k])
	}
	return append(b, '}')
}

// IntPtr appends *p, or null.
func IntPtr(b []byte, p *int) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*p), 10)
}

// Raw appends JSON that is already encoded, as encoding/json writes a
// json.RawMessage: null for none, else as it is if it is compact and
// HTML-safe (what encoding/json and this package write). false: it is not,
// and the caller encodes with encoding/json, which compacts and escapes.
// raw must be valid JSON.
func Raw(b []byte, raw []byte) ([]byte, bool) {
	if raw == nil {
		return append(b, "null"...), true
	}
	in := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case c == '<' || c == '>' || c == '&':
			return b, false
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return b, false
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9):
			return b, false
		}
	}
	return append(b, raw...), true
}
