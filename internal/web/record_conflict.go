package web

import (
	"strconv"
	"strings"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
)

// otherPhone says what another phone recorded while this one's form was
// open: each deal from the one the form expected to the last, with what it
// reads and moved, so that the table sees at once whether it is the deal
// it meant to record (then nothing is to be done) or another one.
func otherPhone(loc i18n.Localizer, g *tapp.State, expected string) string {
	from, err := strconv.Atoi(expected)
	if err != nil || from < 1 {
		return ""
	}
	var said []string
	for n := from; n <= len(g.Hands()); n++ {
		h := g.Hand(n)
		what := strings.TrimSuffix(h.Result().Explanation().Render(loc), ".")
		if h.Voided {
			what = loc.T("record.now-voided", h.VoidReason)
		}
		moved := make([]string, len(g.Setup.Players))
		for seat, d := range h.Result().Deltas() {
			moved[seat] = g.Setup.Players[seat] + " " + signed(loc, d)
		}
		said = append(said, loc.T("record.other-phone", n, what, strings.Join(moved, ", ")))
	}
	return strings.Join(said, " ")
}
