package web

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/templates"
)

// ruleViews asks for a variant's house rules as its descriptor lists them,
// each with what was typed or its default.
func ruleViews(loc i18n.Localizer, d *payout.Descriptor, form url.Values) []templates.RuleView {
	def := d.Defaults()
	val := func(name, fallback string) string {
		if form != nil && form.Has(name) {
			return form.Get(name)
		}
		return fallback
	}
	var out []templates.RuleView
	for _, h := range d.Rules {
		label := loc.T("rule." + h.Key)
		switch h.Form {
		case payout.RuleChoice:
			cur := val(h.Key, fmt.Sprint(h.Show(def)))
			var opts []templates.Option
			for _, x := range h.Choices {
				opts = append(opts, templates.Option{Value: x, Label: loc.T("rule." + h.Key + "." + x), Selected: x == cur})
			}
			out = append(out, templates.RuleView{Name: h.Key, Label: label, Kind: "select", Options: opts})
		case payout.RuleUnits:
			out = append(out, templates.RuleView{Name: h.Key, Label: label, Kind: "number",
				Field: templates.Field{Value: val(h.Key, fmt.Sprint(h.Show(def)))}})
		case payout.RuleToggle:
			on := h.Show(def) == true
			if form != nil {
				on = form.Get(h.Key) == "true"
			}
			out = append(out, templates.RuleView{Name: h.Key, Label: label, Kind: "checkbox", Checked: on})
		case payout.RuleValues:
			defaults, _ := h.Show(def).(map[string]string)
			for _, k := range h.Keys {
				name := h.Key + "." + k
				label := loc.T("rule.value", loc.T("value."+k))
				if d.UnitName != "" {
					label = loc.T("rule.value-"+d.UnitName, loc.T("value."+k))
				}
				out = append(out, templates.RuleView{Name: name, Label: label, Kind: "number",
					Field: templates.Field{Value: val(name, defaults[k])}, Folded: true})
			}
		}
	}
	return out
}

// formRules turns the house-rule inputs of the start form into api.md's
// rules object. What is no amount or choice is passed on as typed, for the
// rules to refuse with their own message.
func formRules(d *payout.Descriptor, form url.Values) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for _, h := range d.Rules {
		switch h.Form {
		case payout.RuleChoice:
			if t := form.Get(h.Key); t != "" {
				if _, err := strconv.Atoi(t); err != nil || !h.Numeric {
					t = strconv.Quote(t)
				}
				out[h.Key] = []byte(t)
			}
		case payout.RuleUnits:
			if s := form.Get(h.Key); s != "" {
				if err := thousands("rules."+h.Key, s); err != nil {
					return nil, err
				}
				out[h.Key] = []byte(strconv.Quote(typedAmount(s)))
			}
		case payout.RuleToggle:
			out[h.Key] = []byte(strconv.FormatBool(form.Get(h.Key) == "true"))
		case payout.RuleValues:
			vals := map[string]string{}
			for _, k := range h.Keys {
				if s := form.Get(h.Key + "." + k); s != "" {
					if err := thousands("rules."+h.Key, s); err != nil {
						return nil, err
					}
					vals[k] = typedAmount(s)
				}
			}
			b, err := json.Marshal(vals)
			if err != nil {
				return nil, fmt.Errorf("house rule %s: %w", h.Key, err)
			}
			out[h.Key] = b
		}
	}
	return out, nil
}
