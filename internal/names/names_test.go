package names

import (
	"errors"
	"strings"
	"testing"
)

func kindOf(err error) string {
	var p *Problem
	if errors.As(err, &p) {
		return p.Kind
	}
	return ""
}

// Names that lie are refused, each with what is wrong; names that are
// only written differently are kept in one normal form.
func TestPlayer(t *testing.T) {
	refused := []struct {
		name, kind string
		r          rune
	}{
		{"Anna\u200b", Invisible, '\u200b'},         // zero-width space: looks like "Anna"
		{"\u200b", Invisible, '\u200b'},             // invisible only
		{"An\u00adna", Invisible, '\u00ad'},         // soft hyphen
		{"Anna\u2060", Invisible, '\u2060'},         // word joiner
		{"\ufeffAnna", Invisible, '\ufeff'},         // byte order mark
		{"Anna\u3164", Invisible, '\u3164'},         // Hangul filler
		{"Anna\u2800", Invisible, '\u2800'},         // blank braille pattern
		{"\u202e3+", Bidi, '\u202e'},                // right-to-left override: shows "+3" as "3+"
		{"Ben\u2067", Bidi, '\u2067'},               // right-to-left isolate
		{"Cleo\u200f", Bidi, '\u200f'},              // right-to-left mark
		{"A\x00b", Control, 0},                      // NUL
		{"Anna\nBen", Control, '\n'},                // a line break
		{"Anna\tBen", Control, '\t'},                // a tab
		{"Dan\u0085", Control, '\u0085'},            // next line
		{" Anna", Space, 0},                         // a space at the start
		{"Anna ", Space, 0},                         // or the end
		{"   ", Space, 0},                           // spaces only
		{"\xff", Invalid, 0},                        // not UTF-8
		{"", Empty, 0},                              // nothing
		{"\u0301", Empty, 0},                        // a lone combining accent shows nothing
		{strings.Repeat("x", 41), Long, 0},          // 41 characters
		{strings.Repeat("é", 41), Long, 0},          // 41 characters, 82 bytes
		{"Anna\U000e0001", Invisible, '\U000e0001'}, // a language tag
		{"\u0410nna", Mixed, '\u0410'},              // a Cyrillic А, then Latin: shows as "Anna"
		{"Ann\u0430", Mixed, '\u0430'},              // a Cyrillic а at the end
		{"\u039fla", Mixed, '\u039f'},               // a Greek Ο: shows as "Ola"
	}
	for _, c := range refused {
		got, err := Player(c.name)
		if kindOf(err) != c.kind {
			t.Errorf("Player(%q) = %q, %v; want a %s problem", c.name, got, err, c.kind)
			continue
		}
		var p *Problem
		errors.As(err, &p)
		if p.Rune != c.r {
			t.Errorf("Player(%q): the character at fault is %U, want %U", c.name, p.Rune, c.r)
		}
	}
	var long *Problem
	if _, err := Player(strings.Repeat("x", 41)); !errors.As(err, &long) || long.Length != 41 || long.Max != 40 {
		t.Errorf("a 41-character name: %v", err)
	}

	kept := []struct{ name, want string }{
		{"Anna", "Anna"},
		{strings.Repeat("é", 40), strings.Repeat("é", 40)},       // 40 characters: kept
		{strings.Repeat("e\u0301", 40), strings.Repeat("é", 40)}, // 80 code points, 40 characters once composed
		{"Anna  Ben", "Anna Ben"},                                // a run of spaces made one
		{"Anna\u00a0Ben", "Anna Ben"},                            // a no-break space made a space
		{"ＡＮＮＡ", "ANNA"},                                         // full-width letters folded
		{"Zoë", "Zoë"},
		{"Jürgen 😀", "Jürgen 😀"},
		{"أحمد", "أحمد"}, // right-to-left letters are fine; only the controls are refused
		{"李娜", "李娜"},
		{"Анна", "Анна"},     // Cyrillic alone is a name
		{"Σοφία", "Σοφία"},   // Greek alone too
		{"Anna 李", "Anna 李"}, // Latin beside Han: no letter looks like another
		{"Anna-Lena 2", "Anna-Lena 2"},
		{"Nikos Νίκος", "Nikos Νίκος"}, // one name in two alphabets, a word each
		{"Сергей Sergei", "Сергей Sergei"},
	}
	for _, c := range kept {
		got, err := Player(c.name)
		if err != nil || got != c.want {
			t.Errorf("Player(%q) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// Names equal after case folding, width folding and normalization have one
// key; different names have different keys.
func TestKey(t *testing.T) {
	same := [][2]string{{"Anna", "anna"}, {"Anna", "ANNA"}, {"Anna", "ＡＮＮＡ"}, {"Zoë", "zoe\u0308"}, {"ÄRGER", "ärger"}}
	for _, p := range same {
		if Key(p[0]) != Key(p[1]) {
			t.Errorf("%q and %q have different keys: %q, %q", p[0], p[1], Key(p[0]), Key(p[1]))
		}
	}
	for _, p := range [][2]string{{"Anna", "Ana"}, {"Anna", "Anna B"}, {"Zoë", "Zoe"}} {
		if Key(p[0]) == Key(p[1]) {
			t.Errorf("%q and %q have the same key", p[0], p[1])
		}
	}
}

// Reasons and notes: visible text required, no control, bidi or invisible
// character, a limit on their length; "" stays "" (the caller decides
// whether it is required).
func TestText(t *testing.T) {
	for _, c := range []struct{ text, kind string }{
		{"typo\nin points", Control},
		{"wrong\x00", Control},
		{"\u202ewon 3", Bidi},
		{"\u200b", Invisible},
		{"ok\u200b", Invisible},
		{"\u0301", Empty}, // a lone accent
		{strings.Repeat("x", MaxText+1), Long},
		{"\xfe", Invalid},
	} {
		if got, err := Text(c.text, MaxText); kindOf(err) != c.kind {
			t.Errorf("Text(%q) = %q, %v; want a %s problem", c.text, got, err, c.kind)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"", ""},
		{"  ", ""},
		{"\u3000", ""}, // an ideographic space only
		{" wrong declarer ", "wrong declarer"},
		{"Ben hatte 73, nicht 37", "Ben hatte 73, nicht 37"},
		{"cafe\u0301", "café"},
		{strings.Repeat("x", MaxText), strings.Repeat("x", MaxText)},
	} {
		if got, err := Text(c.text, MaxText); err != nil || got != c.want {
			t.Errorf("Text(%q) = %q, %v; want %q", c.text, got, err, c.want)
		}
	}
}

// A name typed in another Unicode form resolves to the one kept; a name of
// no one, or only like one in letter case, stays as typed.
func TestResolve(t *testing.T) {
	kept := map[string]bool{"José": true, "Anna": true}
	is := func(n string) bool { return kept[n] }
	for in, want := range map[string]string{"Jose\u0301": "José", "José": "José", "Anna": "Anna", "anna": "anna", "Zoe": "Zoe", "": ""} {
		if got := Resolve(in, is); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}
