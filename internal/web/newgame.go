package web

import (
	"encoding/json"
	"net/url"
	"strings"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// checkStart checks every field of the start form on its own, so that the
// form shows every problem at once, each next to its field: each seat's
// name, the unit, the currency and each house rule. It reports whether
// any was found; the game's own checks still run when it is started.
func checkStart(loc i18n.Localizer, d *payout.Descriptor, form url.Values, view *templates.NewGameView) bool {
	found := false
	// Every seat of the form, a seat missing from the post as a blank one.
	// A name is checked as it will be started with: without the space a
	// phone's keyboard adds after a word (playersAndUnit trims it too).
	seats := make([]string, len(view.Seats))
	for i, name := range form["player"] {
		if i < len(seats) {
			seats[i] = strings.TrimSpace(name)
		}
	}
	for i, err := range payout.SeatProblems(seats) {
		if err == nil || i >= view.MinSeats && strings.TrimSpace(seats[i]) == "" {
			continue // a seat the variant may leave empty
		}
		view.Seats[i].Error, found = loc.Error(err), true
	}
	if err := checkUnit(strings.TrimSpace(form.Get("unit"))); err != nil {
		view.Unit.Error, found = loc.Error(err), true
	}
	if _, err := tapp.CheckCurrency(form.Get("currency")); err != nil {
		view.Currency.Error, found = loc.Error(err), true
	}
	rules, err := formRules(d, form)
	if err != nil {
		if !placeRule(loc, view, err) {
			view.Error = loc.Error(err)
		}
		return true
	}
	for key, raw := range rules {
		parts := map[string]json.RawMessage{key: raw}
		var values map[string]json.RawMessage
		if json.Unmarshal(raw, &values) == nil && values != nil {
			// A rule of many values: each value on its own.
			for k, val := range values {
				one, _ := json.Marshal(map[string]json.RawMessage{k: val})
				if _, err := payout.DecodeRules(d.Variant, map[string]json.RawMessage{key: one}); err != nil {
					found = placeRule(loc, view, typedBack(err, form)) || found
				}
			}
			continue
		}
		if _, err := payout.DecodeRules(d.Variant, parts); err != nil {
			found = placeRule(loc, view, typedBack(err, form)) || found
		}
	}
	return found
}

// placeRule shows a house rule's refusal next to its field, or at the top.
func placeRule(loc i18n.Localizer, view *templates.NewGameView, err error) bool {
	msg := loc.Error(err)
	if ie, ok := problem.As(err); ok {
		for i := range view.Rules {
			if "rules."+view.Rules[i].Name == ie.Field {
				view.Rules[i].Field.Error = msg
				return true
			}
		}
	}
	view.Error = msg
	return true
}

// checkUnit checks the unit as typed ("0,50" as well as "0.50"): a plain
// amount above 0. Its refusal quotes what was typed, comma and all, not
// the amount it was read as.
func checkUnit(typed string) error {
	if typed == "" {
		return nil // the game's default, 1
	}
	if err := thousands("unit", typed); err != nil {
		return err
	}
	norm, err := i18n.NormalizeAmount(typed)
	if err != nil {
		norm = typed
	}
	d, err := payout.ParseAmount("unit", norm)
	if err == nil && !d.IsPositive() {
		err = tapp.Messages().Input("unit", "unit", norm)
	}
	return quoting(err, norm, typed)
}

// typedBack gives a house rule's refusal quoting the amounts as they were
// typed ("2,5" on a German page), not as they were read ("2.5").
func typedBack(err error, form url.Values) error {
	for _, vs := range form {
		for _, typed := range vs {
			typed = strings.TrimSpace(typed)
			err = quoting(err, typedAmount(typed), typed)
		}
	}
	return err
}

// quoting gives err with every argument that quotes norm quoting typed
// instead.
func quoting(err error, norm, typed string) error {
	pe, ok := problem.As(err)
	if !ok || norm == typed {
		return err
	}
	out := *pe
	out.Args = append([]any(nil), pe.Args...)
	for i, a := range out.Args {
		if s, ok := a.(string); ok && s == norm {
			out.Args[i] = typed
		}
	}
	return &out
}
