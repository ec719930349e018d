package payout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// Rules are a game's house rules (rules.md names them; api.md gives their
// keys). Only the fields of the game's variant mean anything; each
// variant's descriptor lists its rules, their defaults and checks.
type Rules struct {
	TappThreshold int                        // zuger: 61 (draw at 60) or 65
	Stake         decimal.Decimal            // old-tapp: the dealer's stake, whole units ≥ 0
	Remainder     string                     // old-tapp: biggest-loser or cut
	Cards         int                        // wuerttemberg: 36 or 32
	SuitTapp      bool                       // wuerttemberg: suit-tapp allowed
	Values        map[string]decimal.Decimal // wuerttemberg: contract values
}

// DefaultRules gives the house rules rules.md sets when a game says nothing.
func DefaultRules(v Variant) Rules {
	if d := Describe(v); d != nil {
		return d.Defaults()
	}
	return Rules{}
}

// DecodeRules reads the house rules of a new game from their JSON form,
// filling in the defaults. Unknown keys, keys of another variant and values
// out of range are refused; values of the wrong JSON type are Malformed.
func DecodeRules(v Variant, raw map[string]json.RawMessage) (Rules, error) {
	d := Describe(v)
	if d == nil {
		return Rules{}, inputErr("variant", "variant.unknown", v)
	}
	return d.decodeRules(d.Defaults(), raw)
}

// DecodeStoredRules reads the house rules of a game as its game.started
// event stored them. Every server so far stored every key, defaults filled
// in; a key that is missing all the same (a hand-made or imported file)
// takes the default of the time games were stored without it, so a game
// keeps the rules it was started with when a default changes.
func DecodeStoredRules(v Variant, raw map[string]json.RawMessage) (Rules, error) {
	d := Describe(v)
	if d == nil {
		return Rules{}, inputErr("variant", "variant.unknown", v)
	}
	r := d.Defaults()
	if d.stored != nil {
		r = d.stored()
	}
	return d.decodeRules(r, raw)
}

func (d *Descriptor) decodeRules(r Rules, raw map[string]json.RawMessage) (Rules, error) {
	r.Values = maps.Clone(r.Values) // the defaults' map is the caller's own
	var allowed []string
	for _, h := range d.Rules {
		allowed = append(allowed, h.Key)
	}
	keys := slices.Sorted(maps.Keys(raw)) // report the same key first every time
	for _, k := range keys {
		i := slices.IndexFunc(d.Rules, func(h HouseRule) bool { return h.Key == k })
		if i < 0 {
			if len(allowed) == 0 {
				return Rules{}, inputErr("rules."+k, "rules.none", k, problem.Variant(string(d.Variant)))
			}
			return Rules{}, inputErr("rules."+k, "rules.unknown", k, problem.Variant(string(d.Variant)), strings.Join(allowed, ", "))
		}
		if err := d.Rules[i].set(&r, raw[k]); err != nil {
			return Rules{}, err
		}
	}
	return r, nil
}

// RulesMap gives the house rules of a variant as api.md shows them; amounts
// are decimal strings.
func (r Rules) RulesMap(v Variant) map[string]any {
	out := map[string]any{}
	if d := Describe(v); d != nil {
		for _, h := range d.Rules {
			out[h.Key] = h.show(r)
		}
	}
	return out
}

// Show gives the rule's value in rules as api.md shows it (a form's
// current value).
func (h HouseRule) Show(r Rules) any { return h.show(r) }

// checkRules refuses house rules out of range: what decoding refuses, for
// rules that did not come through it.
func (d *Descriptor) checkRules(r Rules) error {
	for _, h := range d.Rules {
		if err := h.check(r); err != nil {
			return err
		}
	}
	return nil
}

// ruleTypeErr refuses a rule's value of the wrong kind; want says in
// English what it takes, and a UI in its own words (key "rule-takes."+key).
func ruleTypeErr(key, want string) *problem.Error {
	return catalogue.Malformed("rules."+key, "rules.type", key, problem.Words{Set: "rule-takes", ID: key, Text: want})
}

// intChoice is a rule that is one of a few whole numbers.
func intChoice(key, code, want string, choices []int, field func(*Rules) *int) HouseRule {
	var names []string
	for _, c := range choices {
		names = append(names, strconv.Itoa(c))
	}
	check := func(n int) error {
		if !slices.Contains(choices, n) {
			return inputErr("rules."+key, code, n)
		}
		return nil
	}
	return HouseRule{Key: key, Form: RuleChoice, Choices: names, Numeric: true, takes: want,
		set: func(r *Rules, raw json.RawMessage) error {
			var n int
			if err := strictUnmarshal(raw, &n); err != nil {
				return ruleTypeErr(key, want)
			}
			if err := check(n); err != nil {
				return err
			}
			*field(r) = n
			return nil
		},
		show:  func(r Rules) any { return *field(&r) },
		check: func(r Rules) error { return check(*field(&r)) },
	}
}

// stringChoice is a rule that is one of a few words.
func stringChoice(key, code, want string, choices []string, field func(*Rules) *string) HouseRule {
	check := func(s string) error {
		if !slices.Contains(choices, s) {
			return inputErr("rules."+key, code, s)
		}
		return nil
	}
	return HouseRule{Key: key, Form: RuleChoice, Choices: choices, takes: want,
		set: func(r *Rules, raw json.RawMessage) error {
			var s string
			if err := strictUnmarshal(raw, &s); err != nil {
				return ruleTypeErr(key, want)
			}
			if err := check(s); err != nil {
				return err
			}
			*field(r) = s
			return nil
		},
		show:  func(r Rules) any { return *field(&r) },
		check: func(r Rules) error { return check(*field(&r)) },
	}
}

// toggle is a rule that is on or off.
func toggle(key string, field func(*Rules) *bool) HouseRule {
	const want = "true or false"
	return HouseRule{Key: key, Form: RuleToggle, takes: want,
		set: func(r *Rules, raw json.RawMessage) error {
			var b bool
			if err := strictUnmarshal(raw, &b); err != nil {
				return ruleTypeErr(key, want)
			}
			*field(r) = b
			return nil
		},
		show:  func(r Rules) any { return *field(&r) },
		check: func(Rules) error { return nil },
	}
}

// wholeUnits is a rule that is a whole number of units, at least min.
func wholeUnits(key, code, want string, min int64, field func(*Rules) *decimal.Decimal) HouseRule {
	check := func(d decimal.Decimal) error {
		if d.LessThan(decimal.NewFromInt(min)) || !d.IsInteger() {
			return inputErr("rules."+key, code, d.String())
		}
		return nil
	}
	return HouseRule{Key: key, Form: RuleUnits, takes: want,
		set: func(r *Rules, raw json.RawMessage) error {
			d, err := decodeUnits("rules."+key, raw)
			if _, ok := problem.As(err); ok {
				return err
			}
			if err != nil {
				return ruleTypeErr(key, want)
			}
			if err := check(d); err != nil {
				return err
			}
			*field(r) = d
			return nil
		},
		show:  func(r Rules) any { return field(&r).String() },
		check: func(r Rules) error { return check(*field(&r)) },
	}
}

// unitValues is a rule that gives each of keys a whole number of units
// above 0; a game may give some and keep the defaults of the rest.
func unitValues(key string, keys []string, field func(*Rules) map[string]decimal.Decimal) HouseRule {
	check := func(k string, d decimal.Decimal) error {
		if d.Sign() <= 0 || !d.IsInteger() {
			return inputErr("rules."+key+"."+k, "rules.values.range", problem.Term{Set: "value", ID: k}, d.String())
		}
		return nil
	}
	const want = `an object of contract values, such as {"suit": 5}`
	return HouseRule{Key: key, Form: RuleValues, Keys: keys, takes: want,
		set: func(r *Rules, raw json.RawMessage) error {
			var m map[string]json.RawMessage
			if err := strictUnmarshal(raw, &m); err != nil || m == nil {
				return ruleTypeErr(key, want)
			}
			values := field(r)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if !slices.Contains(keys, k) {
					return inputErr("rules."+key+"."+k, "rules.values.unknown", k, strings.Join(keys, ", "))
				}
				d, err := decodeUnits("rules."+key+"."+k, m[k])
				if _, ok := problem.As(err); ok {
					return err
				}
				if err != nil {
					return catalogue.Malformed("rules."+key+"."+k, "rules.values.type", problem.Term{Set: "value", ID: k})
				}
				if err := check(k, d); err != nil {
					return err
				}
				values[k] = d
			}
			return nil
		},
		show: func(r Rules) any {
			out := make(map[string]string, len(keys))
			for k, d := range field(&r) {
				out[k] = d.String()
			}
			return out
		},
		check: func(r Rules) error {
			values := field(&r)
			for _, k := range keys {
				if err := check(k, values[k]); err != nil {
					return err
				}
			}
			return nil
		},
	}
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
