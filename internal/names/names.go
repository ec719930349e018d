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
	Mixed      = "mixed"      // a word with letters of two of the Latin, Greek and Cyrillic alphabets ("Аnna" with a Cyrillic А)
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
	case Control, Bidi, Invisible, Disallowed, Mixed:
		return fmt.Sprintf("%s character %U", p.Kind, p.Rune)
	}
	return p.Kind
}

// Player normalizes and checks a player's name: NFC and PRECIS's Nickname
// profile (RFC 8266: compatibility forms folded, inner runs of spaces made
// one), no control, bidi or invisible character, something visible, no word
// mixing letters of the Latin, Greek and Cyrillic alphabets, at most
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
	for word := range strings.FieldsSeq(out) {
		// Word by word: "Nikos Νίκος" writes one name in two alphabets,
		// "Аnna" passes one off as another.
		if r, ok := mixedAlphabets(word); ok {
			return "", &Problem{Kind: Mixed, Rune: r}
		}
	}
	if n := utf8.RuneCountInString(out); n > MaxName {
		return "", &Problem{Kind: Long, Length: n, Max: MaxName}
	}
	return out, nil
}

// Resolve gives the name a request's name stands for among the names is
// accepts: the name itself, or the name it is once normalized as Player
// keeps names ("Jose" with a combining accent is "José"). A name of no one
// is given back as it is, for the caller to refuse.
func Resolve(name string, is func(string) bool) string {
	if name == "" || is(name) {
		return name
	}
	if kept, err := Player(name); err == nil && is(kept) {
		return kept
	}
	return name
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

// confusable are the alphabets whose letters look alike ("A", "Α", "А"):
// a name that mixes them can look like another name at the table.
var confusable = []*unicode.RangeTable{unicode.Latin, unicode.Greek, unicode.Cyrillic}

// mixedAlphabets gives, for a name that mixes the confusable alphabets,
// the first letter of the one it uses least (the odd letter out: the
// Cyrillic А of "Аnna"), after Unicode TS 39's restriction to one script,
// for the three that matter here.
func mixedAlphabets(s string) (rune, bool) {
	var count [3]int
	var first [3]rune
	for _, r := range s {
		for i, t := range confusable {
			if unicode.Is(t, r) {
				if count[i] == 0 {
					first[i] = r
				}
				count[i]++
			}
		}
	}
	odd, used := -1, 0
	for i, n := range count {
		if n == 0 {
			continue
		}
		used++
		if odd < 0 || n < count[odd] {
			odd = i
		}
	}
	if used < 2 {
		return 0, false
	}
	return first[odd], true
}
