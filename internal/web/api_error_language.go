package web

import (
	"net/http"

	"tappbook/internal/problem"
)

// apiMessage is an API refusal's sentence in the language the client asks
// for by Accept-Language: a refusal of the domain (a rule, an unknown
// player, a closed evening) in German or Swedish as the pages say it, with
// the field it is about first, as the English has it. English, and what
// the domain did not say (malformed JSON, a full disk), stay api.md's
// English, which scripts may match.
func (u ui) apiMessage(r *http.Request, err error, english string) string {
	pe, ok := problem.As(err)
	if !ok {
		return english
	}
	lang := u.i18n.Match("", r.Header.Get("Accept-Language"))
	if lang == "en" {
		return english
	}
	msg := u.i18n.For(lang).Error(err)
	if pe.Kind == problem.Input && pe.Field != "" {
		msg = pe.Field + ": " + msg
	}
	return msg
}
