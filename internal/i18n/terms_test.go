package i18n

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// A refusal shown in German or Swedish names contracts, suits, variants
// and fields as the pages do, never by the API's identifiers ("open-bettel",
// "points", "hearts"); the API's English keeps the identifiers. Swept over
// every contract of every variant with each field given alone, with the
// wrong trump and with none, so every message that names one of them is
// met.
func TestRefusalsNameNoIdentifier(t *testing.T) {
	b := load(t)
	pts, tricks, kontra, yes := 50, 4, 2, true
	ramsch := map[string]payout.RamschScore{}
	seen := map[string]bool{}
	for _, v := range payout.Variants() {
		players := []string{"Anna", "Ben", "Cleo", "Dan"}
		if lo, _ := payout.PlayerCount(v); lo == 3 {
			players = players[:3]
		}
		s := payout.Setup{Variant: v, Players: players, Rules: payout.DefaultRules(v)}
		var records []payout.Record
		for _, c := range append(payout.Contracts(v), "", "grand") {
			base := payout.Record{Contract: c}
			records = append(records, base, complete(v, c, payout.Hearts), complete(v, c, payout.Clubs))
			for _, give := range []func(*payout.Record){
				func(r *payout.Record) { r.Declarer = "Ben" },
				func(r *payout.Record) { r.Partner = "Cleo" },
				func(r *payout.Record) { r.Trump = payout.Hearts },
				func(r *payout.Record) { r.Trump = payout.Clubs },
				func(r *payout.Record) { r.Points = &pts },
				func(r *payout.Record) { r.Tricks = &tricks },
				func(r *payout.Record) { r.Tout = &yes },
				func(r *payout.Record) { r.Kontra = &kontra },
				func(r *payout.Record) { r.Matzl = payout.MatzlDeclarer },
				func(r *payout.Record) { r.Ramsch = ramsch },
			} {
				r := base
				give(&r)
				records = append(records, r)
			}
		}
		for _, r := range records {
			_, err := payout.Score(s, payout.Table{}, r)
			pe, ok := problem.As(err)
			if !ok {
				continue
			}
			seen[pe.Code] = true
			for _, lang := range []string{"de", "sv"} {
				l := b.For(lang)
				msg := l.Error(err)
				if id := identifierIn(l, msg); id != "" {
					t.Errorf("%s %s %+v: %q names %q by its API identifier", lang, v, r, msg, id)
				}
			}
		}
	}
	s := payout.Setup{Variant: payout.Wuerttemberg, Players: []string{"Anna", "Ben"}, Rules: payout.DefaultRules(payout.Wuerttemberg)}
	if err := s.Check(); err != nil {
		seen["players.count"] = true
		for _, lang := range []string{"de", "sv"} {
			if msg := b.For(lang).Error(err); strings.Contains(msg, " or ") || strings.Contains(msg, "wuerttemberg") {
				t.Errorf("%s: %q", lang, msg)
			}
		}
		if !strings.Contains(err.Error(), "wuerttemberg is played by 3 or 4 players") {
			t.Errorf("the API's English changed: %q", err)
		}
	}
	// The sweep met every message that names an identifier; a sweep that
	// stopped reaching them would pass on nothing.
	for _, code := range []string{"field.not-taken", "trump.none", "trump.not-allowed", "matzl.no-trump", "contract.missing", "contract.unknown", "players.count"} {
		if !seen[code] {
			t.Errorf("no record of the sweep was refused with %s", code)
		}
	}
}

// complete is a record of contract c with every field it takes given
// (the declarer Ben, the partner Cleo, points that win), trump if it takes
// one and the matzl, if it takes one, caught by the declarer's side.
func complete(v payout.Variant, c, trump string) payout.Record {
	r := payout.Record{Contract: c}
	f, ok := payout.ContractFields(v, c, false)
	if !ok {
		return r
	}
	if f.Trump != "" {
		r.Trump = trump
	}
	if f.Matzl != "" {
		r.Matzl = payout.MatzlDeclarer
	}
	if f.Declarer != "" {
		r.Declarer = "Ben"
	}
	if f.Partner != "" {
		r.Partner = "Cleo"
	}
	if f.Points != "" {
		p := 90
		r.Points = &p
	}
	if f.Tricks != "" {
		n := 6
		r.Tricks = &n
	}
	return r
}

// identifierIn gives an API identifier that msg names and the language
// says otherwise, or "".
func identifierIn(l Localizer, msg string) string {
	var terms []problem.Term
	for _, v := range payout.Variants() {
		terms = append(terms, problem.Variant(string(v)))
		for _, c := range payout.Contracts(v) {
			terms = append(terms, problem.Contract(c))
		}
	}
	for _, s := range []string{payout.Clubs, payout.Spades, payout.Hearts, payout.Diamonds} {
		terms = append(terms, problem.Suit(s))
	}
	for _, f := range []string{"declarer", "partner", "trump", "points", "tricks", "tout", "kontra", "matzl", "ramsch"} {
		terms = append(terms, problem.Field(f))
	}
	for _, t := range terms {
		if strings.EqualFold(l.term(t), t.ID) {
			continue
		}
		if regexp.MustCompile(`(^|[^\pL-])` + regexp.QuoteMeta(t.ID) + `($|[^\pL-])`).MatchString(msg) {
			return t.ID
		}
	}
	return ""
}

// German and Swedish quote a value in their own quotation marks; what
// cannot be seen is still escaped, and English keeps the API's quotes.
func TestValuesQuotedTheLanguagesWay(t *testing.T) {
	b := load(t)
	for lang, want := range map[string]string{
		"de": "„Zed“ spielt an diesem Abend nicht mit (Anna, Ben).",
		"sv": "”Zed” spelar inte den här kvällen (Anna, Ben).",
		"en": `"Zed" is not a player in this game (Anna, Ben).`,
	} {
		pe := catalogueErr(t, "declarer", "Zed", "Anna, Ben")
		if got := b.For(lang).Error(pe); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	pe := catalogueErr(t, "declarer", "Z\u200bed", "Anna, Ben")
	if got := b.For("de").Error(pe); !strings.HasPrefix(got, `„Z\u200bed“`) {
		t.Errorf("an invisible character in a quoted value: %q", got)
	}
}

func catalogueErr(t *testing.T, field, name, players string) error {
	t.Helper()
	_, err := payout.Setup{Variant: payout.Zuger, Players: strings.Split(players, ", "), Rules: payout.DefaultRules(payout.Zuger)}.SeatOf(field, name)
	if err == nil {
		t.Fatalf("%q was taken as a player", name)
	}
	return err
}

// T leaves the arguments it is given as they were: an error shown in one
// language is the same error for the next.
func TestTranslatingLeavesTheArguments(t *testing.T) {
	b := load(t)
	args := []any{decimal.RequireFromString("1.5"), "Anna", problem.Contract("open-bettel")}
	_ = b.For("de").T("err.player.unknown", args...)
	if d, ok := args[0].(decimal.Decimal); !ok || !d.Equal(decimal.RequireFromString("1.5")) {
		t.Errorf("the decimal became %#v", args[0])
	}
	if s, ok := args[1].(string); !ok || s != "Anna" {
		t.Errorf("the name became %#v", args[1])
	}
	if args[2] != problem.Contract("open-bettel") {
		t.Errorf("the contract became %#v", args[2])
	}
}

// Next to its field a message has no "field:" prefix, also where the
// prefix holds a term the page says in words: every Württemberg value
// refused, in every language.
func TestNoFieldPrefixNextToTheField(t *testing.T) {
	b := load(t)
	for _, k := range payout.WuerttembergValueKeys() {
		raw := map[string]json.RawMessage{"values": json.RawMessage(`{"` + k + `": 0}`)}
		_, err := payout.DecodeRules(payout.Wuerttemberg, raw)
		if err == nil {
			t.Fatalf("a value of 0 for %s was taken", k)
		}
		for _, lang := range Languages() {
			msg := b.For(lang).Error(err)
			if strings.Contains(msg, "rules.") || strings.Contains(msg, ": ") {
				t.Errorf("%s, %s: %q", lang, k, msg)
			}
		}
		if !strings.HasPrefix(err.Error(), "rules.values."+k+`: the value of "`+k+`" must`) {
			t.Errorf("the API's English changed: %q", err)
		}
	}
}
