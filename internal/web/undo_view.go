package web

import (
	"fmt"
	"strings"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// The table's undo (api.md "Corrections": retract): the last deal taken
// back as if never recorded, one tap on every phone for as long as it is
// the last deal, and after it the way back.

// undoView offers to take back the last deal, saying what it takes back;
// nil when the game would not take it (no deal, Herz-As said after it, a
// closed evening).
func undoView(x *explained, loc i18n.Localizer, g *tapp.State) *templates.UndoView {
	n := len(g.Hands())
	if n == 0 || !allowed(g, tapp.RetractHand{Hand: n}) {
		return nil
	}
	return &templates.UndoView{Hand: n, Text: loc.T("table.undo-last", n, dealSays(x, loc, g.Hand(n))),
		Short: loc.T("table.undo", n), Key: fmt.Sprintf("retract-%d-v%d", n, g.Version)}
}

// dealSays is what a deal stands for now, in a line: its explanation, or
// that it is voided and why. The explanation is said through x (nil:
// afresh): the last deal's is the deal list's.
func dealSays(x *explained, loc i18n.Localizer, h *tapp.Hand) string {
	if h.Voided {
		return voidTag(loc, h.VoidReason)
	}
	return x.say(loc, h.Result())
}

// retractedLast is deal n as it was taken back, while nothing has been
// recorded in its place; nil otherwise.
func retractedLast(g *tapp.State, n int) *tapp.Hand {
	r := g.Retracted()
	if n < 1 || len(r) == 0 || g.NextHand() != n {
		return nil
	}
	if h := r[len(r)-1]; h.Number == n {
		return h
	}
	return nil
}

// undoneView: the deal just taken back, who deals it again, and the one
// tap that records it again as it was.
func undoneView(loc i18n.Localizer, g *tapp.State, ask tableAsk) *templates.UndoneView {
	h := retractedLast(g, ask.undone)
	if h == nil {
		return nil
	}
	// The sentence ends where the deal's own did: no second full stop.
	text := loc.T("table.retracted", h.Number, strings.TrimSuffix(dealSays(nil, loc, h), "."), g.Setup.Players[h.Dealer])
	v := &templates.UndoneView{Hand: h.Number, Text: text, Key: fmt.Sprintf("redo-%d-v%d", h.Number, g.Version)}
	if !h.Voided {
		n := h.Number
		v.CanRedo = allowed(g, tapp.RecordHand{Record: h.Record(), Checks: tapp.Checks{ExpectedHand: &n}})
	}
	return v
}
