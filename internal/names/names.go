// Package names checks the text people type that others read back as
// fact: player names, and the reasons and notes kept in the history. A name
// that looks like another ("Anna" and "Anna" with a zero-width space), a
// right-to-left override that shows "+3" as "3+", a line break or a NUL
// must be refused before it is stored forever. It depends on nothing of
// tappbook, so that the rules engine and the command side both call it.
package names

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"
)

// MaxName is the longest player name, in characters after normalization
// (api.md: ≤ 40 characters).
const MaxName = 40

// MaxText is the longest reason or note, in characters after normalization:
// a sentence for the history, not a letter.
const MaxText = 200

// Problem kinds: what is wrong with a text. Callers turn them into their
// own message codes.
const (
	Invalid    = "invalid"    // not UTF-8
	Empty      = "empty"      // nothing visible
	Space      = "space"      // starts or ends with a space (names only)
	Control    = "control"    // a control character: NUL, a line break, a tab …
	Bidi       = "bidi"       // a character that changes the direction text is shown in
	Invisible  = "invisible"  // a format character that shows nothing (zero-width space, soft hyphen …)
	Disallowed = "disallowed" // refused by PRECIS for another reason (unassigned, a lone joiner …)
	Long       = "long"       // more characters than allowed
)

// Problem says what is wrong with a text: its kind, the character at fault
// (for the kinds about one character), the length and the limit (Long).
type Problem struct {
	Kind   string
	Rune   rune
	Length int
	Max    int
}

func (p *Problem) Error() string {
	switch p.Kind {
	case Long:
		return fmt.Sprintf("%d characters, more than %d", p.Length, p.Max)
	case Control, Bidi, Invisible, Disallowed:
		return fmt.Sprintf("%s character %U", p.Kind, p.Rune)
	}
	return p.Kind
}

// Player normalizes and checks a player's name: NFC and PRECIS's Nickname
// profile (RFC 8266: compatibility forms folded, inner runs of spaces made
// one), no control, bidi or invisible character, something visible, at most
// MaxName characters once normalized. It gives the name as it is kept.
func Player(s string) (string, error) {
	if p := scan(s); p != nil {
		return "", p
	}
	if s == "" {
		return "", &Problem{Kind: Empty}
	}
	if s != strings.TrimSpace(s) {
		return "", &Problem{Kind: Space}
	}
	out, err := precis.Nickname.String(norm.NFC.String(s))
	if err != nil {
		return "", &Problem{Kind: Disallowed, Rune: firstDisallowed(s)}
	}
	if !visible(out) {
		return "", &Problem{Kind: Empty}
	}
	if n := utf8.RuneCountInString(out); n > MaxName {
		return "", &Problem{Kind: Long, Length: n, Max: MaxName}
	}
	return out, nil
}

// Key is what two names are compared by: the same key is the same name,
// however its letters' case or width was typed ("Anna", "anna", "ＡＮＮＡ").
// A name Player refuses is its own key.
func Key(name string) string {
	k, err := precis.Nickname.CompareKey(name)
	if err != nil {
		return name
	}
	return k
}

// Text normalizes and checks a reason or a note: NFC, spaces trimmed at
// both ends, no control, bidi or invisible character, something visible, at
// most max characters. It gives the text as it is kept; "" stays "".
func Text(s string, max int) (string, error) {
	if p := scan(s); p != nil {
		return "", p
	}
	out := strings.TrimSpace(norm.NFC.String(s))
	if out == "" {
		return "", nil
	}
	if !visible(out) {
		return "", &Problem{Kind: Empty}
	}
	if n := utf8.RuneCountInString(out); n > max {
		return "", &Problem{Kind: Long, Length: n, Max: max}
	}
	return out, nil
}

// scan finds the first character no text may hold, naming why.
func scan(s string) *Problem {
	if !utf8.ValidString(s) {
		return &Problem{Kind: Invalid}
	}
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			return &Problem{Kind: Control, Rune: r}
		case unicode.Is(unicode.Bidi_Control, r):
			return &Problem{Kind: Bidi, Rune: r}
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), r == '\u2800':
			// U+2800, the blank braille pattern, is a symbol that shows nothing.
			return &Problem{Kind: Invisible, Rune: r}
		}
	}
	return nil
}

// visible reports whether a text shows anything: a letter, digit,
// punctuation or symbol; spaces and marks alone show nothing.
func visible(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S) {
			return true
		}
	}
	return false
}

// firstDisallowed names the character PRECIS refused, for the message.
func firstDisallowed(s string) rune {
	for _, r := range s {
		if _, err := precis.Nickname.String(string(r)); err != nil {
			return r
		}
	}
	return utf8.RuneError
}
