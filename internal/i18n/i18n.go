// Package i18n gives the phone UI its words in English, German and Swedish:
// the language a browser asks for, every message by key (printf formats in
// golang.org/x/text's catalog, loaded from embedded JSON), explanations and
// validation messages of the payout engine, numbers and money the local way.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"tappbook/internal/plurals"
	"tappbook/internal/problem"
)

//go:embed locales/*.json
var locales embed.FS

// Languages the UI speaks, the first the fallback.
func Languages() []string { return []string{"en", "de", "sv"} }

// Bundle holds every message of every language.
type Bundle struct {
	cat     *catalog.Builder
	matcher language.Matcher
	keys    map[string]map[string]string // language → key → format, for tests and checks
	spoken  map[string]Localizer         // language → its Localizer, made once
	heard   accepted                     // Accept-Language headers matched lately
}

// Load reads the embedded messages. The English texts of refusals (errors)
// and of explanations (phrases) come from the packages that own them, as
// the caller gathers them; the JSON files hold the rest and the
// translations.
func Load(errors problem.Catalogue, phrases map[string]string) (*Bundle, error) {
	b := &Bundle{cat: catalog.NewBuilder(catalog.Fallback(language.English)), keys: map[string]map[string]string{}}
	var tags []language.Tag
	for _, lang := range Languages() {
		raw, err := locales.ReadFile("locales/" + lang + ".json")
		if err != nil {
			return nil, fmt.Errorf("load %s messages: %w", lang, err)
		}
		msgs := map[string]string{}
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return nil, fmt.Errorf("load %s messages: %w", lang, err)
		}
		if lang == "en" {
			for code, f := range errors.Messages() {
				msgs["err."+code] = f
			}
			for k, f := range phrases {
				msgs[k] = f
			}
		}
		tag := language.MustParse(lang)
		for k, f := range msgs {
			// A message that counts ({N:one|other}) is chosen by the
			// language's plural rules as it is printed.
			if err := plurals.Set(b.cat, tag, k, f); err != nil {
				return nil, fmt.Errorf("load %s message %q: %w", lang, k, err)
			}
		}
		b.keys[lang] = msgs
		tags = append(tags, tag)
	}
	b.matcher = language.NewMatcher(tags)
	b.spoken = map[string]Localizer{}
	for _, lang := range Languages() {
		b.spoken[lang] = b.localizer(lang)
	}
	return b, nil
}

// Keys gives a language's message keys, sorted.
func (b *Bundle) Keys(lang string) []string {
	var out []string
	for k := range b.keys[lang] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Format gives a language's raw format for a key.
func (b *Bundle) Format(lang, key string) (string, bool) {
	f, ok := b.keys[lang][key]
	return f, ok
}

// Match picks the language for a request: an explicit choice (a query or a
// cookie) if it is one we speak, else the best of the Accept-Language header.
func (b *Bundle) Match(choice, acceptLanguage string) string {
	for _, l := range Languages() {
		if choice == l {
			return l
		}
	}
	if lang, ok := b.heard.get(acceptLanguage); ok {
		return lang
	}
	lang := b.match(acceptLanguage)
	b.heard.put(acceptLanguage, lang)
	return lang
}

// match gives the best of an Accept-Language header's languages.
func (b *Bundle) match(acceptLanguage string) string {
	tags, _, _ := language.ParseAcceptLanguage(acceptLanguage)
	tag, _, _ := b.matcher.Match(tags...)
	base, _ := tag.Base()
	for _, l := range Languages() {
		if base.String() == l {
			return l
		}
	}
	return "en"
}

// For gives a Localizer for a language.
func (b *Bundle) For(lang string) Localizer {
	if l, ok := b.spoken[lang]; ok {
		return l
	}
	return b.localizer(lang)
}

func (b *Bundle) localizer(lang string) Localizer {
	tag := language.MustParse(lang)
	msgs := map[string]*parsedMessage{}
	for k, f := range b.keys[lang] {
		m := parseMessage(f)
		msgs[k] = &m
	}
	l := Localizer{lang: lang, tag: tag, p: message.NewPrinter(tag, message.Catalog(b.cat)), keys: b.keys[lang], msgs: msgs}
	l.quote = l.quoted("")
	return l
}

// Localizer speaks one language.
type Localizer struct {
	lang string
	tag  language.Tag
	p    *message.Printer
	keys map[string]string         // the language's formats, read only
	msgs map[string]*parsedMessage // the same parsed, read only
	// quote is how the language quotes a value (%q): see quoted.
	quote any
}

// Lang is the language's code (en, de, sv).
func (l Localizer) Lang() string { return l.lang }

// T gives the message for key, its verbs filled with args; decimals are
// written the local way, and in German and Swedish the API's identifiers
// in their words and a quoted value in their quotation marks.
func (l Localizer) T(key string, args ...any) string {
	// Most messages take only strings and counts: printed from the parsed
	// format as they are, with no copy of the arguments.
	if m, ok := l.msgs[key]; ok && plain(args) {
		if s, ok := m.fill(l.tag, l.quote, args); ok {
			return s
		}
	}
	return l.sprintf(key, l.local(args))
}

// plain reports whether every argument is a string or an int.
func plain(args []any) bool {
	for _, a := range args {
		switch a.(type) {
		case string, int:
		default:
			return false
		}
	}
	return true
}

// local gives the arguments as the language writes them: a copy, so the
// caller's (an error's, say) stay as they were.
func (l Localizer) local(args []any) []any {
	args = slices.Clone(args)
	for i, a := range args {
		switch v := a.(type) {
		case decimal.Decimal:
			args[i] = l.Num(v)
		case *decimal.Decimal:
			args[i] = l.Num(*v)
		case problem.Term:
			args[i] = l.quoted(l.term(v))
		case problem.Choice:
			args[i] = l.choice(v)
		case problem.Number:
			args[i] = l.Typed(string(v))
		case problem.Words:
			args[i] = l.say(v.Set+"."+v.ID, v.Text)
		case string:
			args[i] = l.quoted(v)
		}
	}
	return args
}

// sprintf prints a message from its parsed format where it can, else (and
// for a key the language lacks, which the catalog takes from English)
// with x/text's printer.
func (l Localizer) sprintf(key string, args []any) string {
	if m, ok := l.msgs[key]; ok {
		if s, ok := m.fill(l.tag, "", args); ok {
			return s
		}
	}
	return l.p.Sprintf(key, args...)
}

// term says an identifier of the API in the language, as its pages name
// it ("open-bettel" is "Aufgelegter Bettel"). English keeps a field's
// identifier, which is its English word and which its messages' "points:"
// prefix repeats.
func (l Localizer) term(t problem.Term) string {
	if t.Set == "" || (l.lang == "en" && t.Set == "field") {
		return t.ID
	}
	s := l.say(t.Set+"."+t.ID, t.ID)
	if s == t.ID {
		return s
	}
	// Swedish writes a game's name and a field in lower case inside a
	// sentence ("vid färgspel"); a variant is a name ("Zuger Tapp").
	if l.lang == "sv" && t.Set != "variant" {
		r, size := utf8.DecodeRuneInString(s)
		s = string(unicode.ToLower(r)) + s[size:]
	}
	return s
}

// say gives the language's words for key, or otherwise where it has none.
func (l Localizer) say(key, otherwise string) string {
	if _, ok := l.keys[key]; !ok {
		return otherwise
	}
	return l.sprintf(key, nil)
}

// choice says a list of alternatives: in English as the API joins them,
// else "a, b oder c".
func (l Localizer) choice(c problem.Choice) string {
	words := make([]string, len(c.Terms))
	for i, t := range c.Terms {
		words[i] = l.term(t)
	}
	if l.lang == "en" || len(words) < 2 {
		return strings.Join(words, c.Sep)
	}
	last := len(words) - 1
	return strings.Join(words[:last], ", ") + " " + l.sprintf("list.or", nil) + " " + words[last]
}

// quoted is a value a German or Swedish message may quote (%q): in the
// language's quotation marks, not a program's straight ones.
func (l Localizer) quoted(s string) any {
	switch l.lang {
	case "de":
		return localQuote{s: s, open: "„", close: "“"}
	case "sv":
		return localQuote{s: s, open: "”", close: "”"}
	}
	return s
}

// localQuote prints as its text, and under %q in the language's quotation
// marks, with what cannot be seen escaped as %q would.
type localQuote struct{ s, open, close string }

func (q localQuote) Format(f fmt.State, verb rune) {
	if verb != 'q' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), q.s)
		return
	}
	fmt.Fprint(f, q.quote())
}

// quote is the value in the language's quotation marks.
func (q localQuote) quote() string {
	inner := q.s
	if !printable(inner) {
		quoted := strconv.Quote(inner)
		inner = strings.ReplaceAll(quoted[1:len(quoted)-1], `\"`, `"`)
	}
	return q.open + inner + q.close
}

func printable(s string) bool {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// Phrase makes a Localizer the payout engine's phrasebook.
func (l Localizer) Phrase(key string, args ...any) string { return l.T(key, args...) }

// Error says what is wrong with a request, in the language, when it is one
// of tappbook's coded refusals.
func (l Localizer) Error(err error) string {
	pe, ok := problem.As(err)
	if !ok {
		return l.T("err.internal")
	}
	msg := l.T("err."+pe.Code, pe.Args...)
	if pe.Kind == problem.Input && pe.Field != "" {
		// Next to its field the message needs no "field:" prefix (the
		// API's English has one, "rules.values.%[1]s: ", whose term a page
		// may say in words: cut at the prefix's end, not at its text).
		if cut, ok := strings.CutPrefix(msg, pe.Field+": "); ok {
			msg = cut
		} else if f := l.keys["err."+pe.Code]; l.lang == "en" && strings.Contains(f, ": ") && !strings.Contains(f[:strings.Index(f, ": ")], " ") {
			// A prefix with a term said in words ("rules.values.Open
			// bettel: "); a term holds no ": ". Only the API's English
			// has such a prefix: a translation starting "Karten: " means it.
			if _, rest, ok := strings.Cut(msg, ": "); ok {
				msg = rest
			}
		}
	}
	// A page shows a sentence: it starts with a capital (the API's
	// English starts lower case).
	if r, size := utf8.DecodeRuneInString(msg); size > 0 {
		msg = string(unicode.ToUpper(r)) + msg[size:]
	}
	// ... and ends with a full stop (the API's English has none).
	if msg != "" && !strings.ContainsRune(".?!…", lastRune(msg)) {
		msg += "."
	}
	return msg
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// decimalComma reports whether the language writes 1,50.
