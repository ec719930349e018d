package i18n

import (
	"strings"
	"testing"
)

// German and Swedish text quotes a word the way each language prints it
// (German „…“, Swedish ”…”), never with the straight " of a keyboard or
// the marks of the other language. A %q verb is a value, not text, and is
// not looked at.
func TestQuotesAreTheLanguages(t *testing.T) {
	b := load(t)
	marks := map[string]struct{ open, close, foreign string }{
		"de": {"„", "“", `"”«»`},
		"sv": {"”", "”", `"„“«»`},
	}
	for lang, m := range marks {
		for _, key := range b.Keys(lang) {
			f, _ := b.Format(lang, key)
			if i := strings.IndexAny(f, m.foreign); i >= 0 {
				t.Errorf("%s %s quotes with %q, not %s…%s: %s", lang, key, []rune(f[i:])[0], m.open, m.close, f)
			}
			opens, closes := strings.Count(f, m.open), strings.Count(f, m.close)
			if m.open == m.close {
				opens, closes = (opens+1)/2, opens/2
			}
			if opens != closes {
				t.Errorf("%s %s opens %d quotes and closes %d: %s", lang, key, opens, closes, f)
			}
		}
	}
}
