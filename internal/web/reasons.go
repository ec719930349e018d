package web

import (
	"net/url"
	"slices"
	"strings"

	"tappbook/internal/i18n"
	"tappbook/templates"
)

// Quick reasons (issue 36): a correction's or a void's reason is one tap,
// typing optional. A reason tapped is stored as the app's words, a short
// English code as the undo's "undone" is, and shown in each page's
// language; words typed beside it are kept as given, after the tapped
// reason in the page's language.

// correctionReasons are the quick reasons a correction offers.
func correctionReasons() []string {
	return []string{"typo", "wrong player", "wrong contract", "wrong points"}
}

// voidReasons are the quick reasons a void offers: a deal played that
// does not count.
func voidReasons() []string {
	return []string{"misdeal", "not played", "entered twice"}
}

func quickReasonKey(code string) string {
	return "reason.quick." + strings.ReplaceAll(code, " ", "-")
}

// quickReason is the translation of a quick reason's code, or "" for
// any other reason.
func quickReason(loc i18n.Localizer, reason string) string {
	if slices.Contains(correctionReasons(), reason) || slices.Contains(voidReasons(), reason) {
		return loc.T(quickReasonKey(reason))
	}
	return ""
}

// givenReason is the reason a form gives from its quick reasons (field
// reason_quick, one of offered) and its words (field reason): the code
// tapped, the words typed, or both as "Typo: Ben's, not Anna's" in the
// page's language. A code the form does not offer is left out.
func givenReason(loc i18n.Localizer, offered []string, form url.Values) string {
	typed := strings.TrimSpace(form.Get("reason"))
	picked := form.Get("reason_quick")
	switch {
	case !slices.Contains(offered, picked):
		return typed
	case typed == "":
		return picked
	}
	return loc.T(quickReasonKey(picked)) + ": " + typed
}

// reasonPicks offers quick reasons as a form's picks, the one tapped
// chosen.
func reasonPicks(loc i18n.Localizer, offered []string, picked string) []templates.Option {
	out := make([]templates.Option, 0, len(offered))
	for _, code := range offered {
		out = append(out, templates.Option{Value: code, Label: loc.T(quickReasonKey(code)), Selected: code == picked})
	}
	return out
}
