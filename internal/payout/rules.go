package payout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"tappbook/internal/names"
	"tappbook/internal/problem"
)

// Rules are a game's house rules (rules.md names them; api.md gives their
// keys). Only the fields of the game's variant mean anything.
type Rules struct {
	TappThreshold int                        // zuger: 61 (draw at 60) or 65
	Stake         decimal.Decimal            // old-tapp: the dealer's stake, whole units ≥ 0
	Remainder     string                     // old-tapp: biggest-loser or cut
	Cards         int                        // wuerttemberg: 36 or 32
	SuitTapp      bool                       // wuerttemberg: suit-tapp allowed
	Values        map[string]decimal.Decimal // wuerttemberg: contract values
}

// Remainder rules for the old-tapp final split.
const (
	RemainderBiggestLoser = "biggest-loser"
	RemainderCut          = "cut"
)

// WuerttembergValueKeys lists the Württemberg contract values (api.md's keys).
func WuerttembergValueKeys() []string {
	return []string{
		"suit", "suit-hearts", "suit-tapp", "bettel", "rufer", "rufer-hearts",
		"open-bettel", "durch", "durch-hearts", "ramsch", "jungfer",
	}
}

func defaultWuerttembergValues() map[string]decimal.Decimal {
	v := map[string]int{
		"suit": 5, "suit-hearts": 10, "suit-tapp": 5, "bettel": 15, "rufer": 15,
		"rufer-hearts": 30, "open-bettel": 30, "durch": 30, "durch-hearts": 60,
		"ramsch": 5, "jungfer": 10,
	}
	out := make(map[string]decimal.Decimal, len(v))
	for k, n := range v {
		out[k] = units(n)
	}
	return out
}

// DefaultRules gives the house rules rules.md sets when a game says nothing.
func DefaultRules(v Variant) Rules {
	switch v {
	case Zuger:
		return Rules{TappThreshold: 61}
	case OldTapp:
		return Rules{Stake: units(2), Remainder: RemainderCut}
	case Wuerttemberg:
		return Rules{Cards: 36, Values: defaultWuerttembergValues()}
	}
	return Rules{}
}

// storedDefaults are the defaults the games already stored were started
// under, where they differ from DefaultRules: old-tapp's remainder was
// biggest-loser until rules.md made cut the default.
func storedDefaults(v Variant) Rules {
	r := DefaultRules(v)
	if v == OldTapp {
		r.Remainder = RemainderBiggestLoser
	}
	return r
}

// ruleKeys lists the house-rule keys a variant takes.
func ruleKeys(v Variant) []string {
	switch v {
	case Zuger:
		return []string{"tapp_threshold"}
	case OldTapp:
		return []string{"stake", "remainder"}
	case Wuerttemberg:
		return []string{"cards", "suit_tapp", "values"}
	}
	return nil
}

// ParseVariant refuses anything but the four variant ids.
func ParseVariant(s string) (Variant, error) {
	for _, v := range Variants() {
		if string(v) == s {
			return v, nil
		}
	}
	return "", inputErr("variant", "variant.unknown", s)
}

// DecodeRules reads the house rules of a new game from their JSON form,
// filling in the defaults. Unknown keys, keys of another variant and values
// out of range are refused; values of the wrong JSON type are Malformed.
func DecodeRules(v Variant, raw map[string]json.RawMessage) (Rules, error) {
	return decodeRules(DefaultRules(v), v, raw)
}

// DecodeStoredRules reads the house rules of a game as its game.started
// event stored them. Every server so far stored every key, defaults filled
// in; a key that is missing all the same (a hand-made or imported file)
// takes the default of the time games were stored without it, so a game
// keeps the rules it was started with when a default changes.
func DecodeStoredRules(v Variant, raw map[string]json.RawMessage) (Rules, error) {
	return decodeRules(storedDefaults(v), v, raw)
}

func decodeRules(r Rules, v Variant, raw map[string]json.RawMessage) (Rules, error) {
	allowed := ruleKeys(v)
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys) // report the same key first every time
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			if len(allowed) == 0 {
				return Rules{}, inputErr("rules."+k, "rules.none", k, v)
			}
			return Rules{}, inputErr("rules."+k, "rules.unknown", k, v, strings.Join(allowed, ", "))
		}
		if err := r.set(k, raw[k]); err != nil {
			return Rules{}, err
		}
	}
	return r, nil
}

func ruleTypeErr(key, want string) *problem.Error {
	return catalogue.Malformed("rules."+key, "rules.type", key, want)
}

func (r *Rules) set(key string, raw json.RawMessage) error {
	switch key {
	case "tapp_threshold":
		var n int
		if err := strictUnmarshal(raw, &n); err != nil {
			return ruleTypeErr(key, "a whole number, 61 or 65")
		}
		if n != 61 && n != 65 {
			return inputErr("rules."+key, "rules.tapp_threshold", n)
		}
		r.TappThreshold = n
	case "stake":
		d, err := decodeUnits("rules."+key, raw)
		if _, ok := problem.As(err); ok {
			return err
		}
		if err != nil {
			return ruleTypeErr(key, "a whole number of units, such as 2")
		}
		if d.IsNegative() || !d.IsInteger() {
			return inputErr("rules."+key, "rules.stake", d.String())
		}
		r.Stake = d
	case "remainder":
		var s string
		if err := strictUnmarshal(raw, &s); err != nil {
			return ruleTypeErr(key, `"biggest-loser" or "cut"`)
		}
		if s != RemainderBiggestLoser && s != RemainderCut {
			return inputErr("rules."+key, "rules.remainder", s)
		}
		r.Remainder = s
	case "cards":
		var n int
		if err := strictUnmarshal(raw, &n); err != nil {
			return ruleTypeErr(key, "36 or 32")
		}
		if n != 36 && n != 32 {
			return inputErr("rules."+key, "rules.cards", n)
		}
		r.Cards = n
	case "suit_tapp":
		var b bool
		if err := strictUnmarshal(raw, &b); err != nil {
			return ruleTypeErr(key, "true or false")
		}
		r.SuitTapp = b
	case "values":
		var m map[string]json.RawMessage
		if err := strictUnmarshal(raw, &m); err != nil || m == nil {
			return ruleTypeErr(key, `an object of contract values, such as {"suit": 5}`)
		}
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if !slices.Contains(WuerttembergValueKeys(), k) {
				return inputErr("rules.values."+k, "rules.values.unknown", k, strings.Join(WuerttembergValueKeys(), ", "))
			}
			d, err := decodeUnits("rules.values."+k, m[k])
			if _, ok := problem.As(err); ok {
				return err
			}
			if err != nil {
				return ruleTypeErr("values."+k, "a whole number of units, such as 5")
			}
			if d.Sign() <= 0 || !d.IsInteger() {
				return inputErr("rules.values."+k, "rules.values.range", k, d.String())
			}
			r.Values[k] = d
		}
	}
	return nil
}

// strictUnmarshal refuses JSON null as well as the wrong type.
func strictUnmarshal(raw json.RawMessage, v any) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return fmt.Errorf("null")
	}
	return json.Unmarshal(raw, v)
}

// decodeUnits takes an amount as a JSON number or a decimal string, of
// ParseAmount's form and size (a *problem.Error for field otherwise); another
// JSON type, or a string that is no number, is a plain error.
func decodeUnits(field string, raw json.RawMessage) (decimal.Decimal, error) {
	var s string
	if err := strictUnmarshal(raw, &s); err != nil {
		var n json.Number
		if err := strictUnmarshal(raw, &n); err != nil {
			return decimal.Decimal{}, err
		}
		s = n.String()
	}
	d, err := ParseAmount(field, s)
	if ie, ok := problem.As(err); ok && ie.Code == "amount.syntax" {
		return decimal.Decimal{}, fmt.Errorf("%s: not a number", field) // the wrong type, as before
	}
	return d, err
}

// RulesMap gives the house rules of a variant as api.md shows them; amounts
// are decimal strings.
func (r Rules) RulesMap(v Variant) map[string]any {
	switch v {
	case Zuger:
		return map[string]any{"tapp_threshold": r.TappThreshold}
	case OldTapp:
		return map[string]any{"stake": r.Stake.String(), "remainder": r.Remainder}
	case Wuerttemberg:
		vals := make(map[string]string, len(r.Values))
		for k, d := range r.Values {
			vals[k] = d.String()
		}
		return map[string]any{"cards": r.Cards, "suit_tapp": r.SuitTapp, "values": vals}
	}
	return map[string]any{}
}

// PlayerCount says how many players a variant seats.
func PlayerCount(v Variant) (min, max int) {
	switch v {
	case OldTapp:
		return 3, 3
	case Wuerttemberg:
		return 3, 4
	}
	return 4, 4
}

// MaxNameLength is api.md's limit on a player's name, in characters.
const MaxNameLength = names.MaxName

// CheckPlayers refuses a seating a new game cannot start with: the wrong
// number of players, or a name that is empty, over-long, not one line of
// visible text (a control, bidi or invisible character: see
// internal/names), or the same as another once case and width are folded
// ("Anna", "anna"). NormalizePlayers gives the names as the game keeps them.
func CheckPlayers(v Variant, players []string) error {
	if err := checkCount(v, players); err != nil {
		return err
	}
	seen := map[string]string{}
	for i, p := range players {
		name, err := names.Player(p)
		if err != nil {
			return playerErr(i+1, p, err)
		}
		key := names.Key(name)
		if other, ok := seen[key]; ok {
			if other == name {
				return inputErr("players", "players.twice", name)
			}
			return inputErr("players", "players.same", other, name)
		}
		seen[key] = name
	}
	return nil
}

// NormalizePlayers gives the names CheckPlayers accepted as they are kept:
// NFC, PRECIS Nickname (compatibility forms folded, runs of spaces made one).
func NormalizePlayers(players []string) []string {
	out := make([]string, len(players))
	for i, p := range players {
		if name, err := names.Player(p); err == nil {
			out[i] = name
		} else {
			out[i] = p
		}
	}
	return out
}

// playerErr words a names.Problem of player n's name.
func playerErr(n int, name string, err error) error {
	var p *names.Problem
	if !errors.As(err, &p) {
		return err
	}
	switch p.Kind {
	case names.Empty:
		return inputErr("players", "players.empty", n)
	case names.Space:
		return inputErr("players", "players.space", name)
	case names.Invalid:
		return inputErr("players", "players.text", n)
	case names.Long:
		return inputErr("players", "players.long", name, p.Length, p.Max)
	case names.Control:
		return inputErr("players", "players.control", n, name, p.Rune)
	case names.Bidi:
		return inputErr("players", "players.bidi", n, name, p.Rune)
	case names.Invisible:
		return inputErr("players", "players.invisible", n, name, p.Rune)
	}
	return inputErr("players", "players.disallowed", n, name, p.Rune)
}

// CheckText normalizes and checks a reason or note given in field (the
// api.md name): one line of visible text, no control, bidi or invisible
// character, at most names.MaxText characters. "" stays "": the caller
// says whether the field is required.
func CheckText(field, s string) (string, error) {
	out, err := names.Text(s, names.MaxText)
	var p *names.Problem
	if !errors.As(err, &p) {
		return out, err
	}
	switch p.Kind {
	case names.Empty:
		return "", inputErr(field, "text.empty", field)
	case names.Invalid:
		return "", inputErr(field, "text.invalid", field)
	case names.Long:
		return "", inputErr(field, "text.long", field, p.Length, p.Max)
	case names.Control:
		return "", inputErr(field, "text.control", field, p.Rune)
	case names.Bidi:
		return "", inputErr(field, "text.bidi", field, p.Rune)
	case names.Invisible:
		return "", inputErr(field, "text.invisible", field, p.Rune)
	}
	return "", inputErr(field, "text.disallowed", field, p.Rune)
}

func checkCount(v Variant, players []string) error {
	lo, hi := PlayerCount(v)
	if len(players) < lo || len(players) > hi {
		want := fmt.Sprintf("%d", lo)
		if lo != hi {
			want = fmt.Sprintf("%d or %d", lo, hi)
		}
		return inputErr("players", "players.count", v, want, len(players))
	}
	return nil
}

// checkSeats is what every game's seating has held since the first
// release: it is checked at every deal, so it must not refuse a game
// started before CheckPlayers grew stricter.
func checkSeats(v Variant, players []string) error {
	if err := checkCount(v, players); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, p := range players {
		switch {
		case strings.TrimSpace(p) == "":
			return inputErr("players", "players.empty", i+1)
		case p != strings.TrimSpace(p):
			return inputErr("players", "players.space", p)
		case !utf8.ValidString(p):
			return inputErr("players", "players.text", i+1)
		case utf8.RuneCountInString(p) > MaxNameLength:
			return inputErr("players", "players.long", p, utf8.RuneCountInString(p), MaxNameLength)
		case seen[p]:
			return inputErr("players", "players.twice", p)
		}
		seen[p] = true
	}
	return nil
}

// Check refuses a setup that no deal can be scored in.
func (s Setup) Check() error {
	if _, err := ParseVariant(string(s.Variant)); err != nil {
		return err
	}
	if err := checkSeats(s.Variant, s.Players); err != nil {
		return err
	}
	switch s.Variant {
	case Zuger:
		if s.Rules.TappThreshold != 61 && s.Rules.TappThreshold != 65 {
			return inputErr("rules.tapp_threshold", "rules.tapp_threshold", s.Rules.TappThreshold)
		}
	case OldTapp:
		if s.Rules.Stake.IsNegative() || !s.Rules.Stake.IsInteger() {
			return inputErr("rules.stake", "rules.stake", s.Rules.Stake.String())
		}
		if s.Rules.Remainder != RemainderBiggestLoser && s.Rules.Remainder != RemainderCut {
			return inputErr("rules.remainder", "rules.remainder", s.Rules.Remainder)
		}
	case Wuerttemberg:
		if s.Rules.Cards != 36 && s.Rules.Cards != 32 {
			return inputErr("rules.cards", "rules.cards", s.Rules.Cards)
		}
		for _, k := range WuerttembergValueKeys() {
			if v := s.Rules.Values[k]; v.Sign() <= 0 || !v.IsInteger() {
				return inputErr("rules.values."+k, "rules.values.range", k, v.String())
			}
		}
	}
	return nil
}

// IndexOf gives a player's seat, or -1.
func (s Setup) IndexOf(name string) int { return slices.Index(s.Players, name) }
