package web

import (
	"github.com/shopspring/decimal"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// handView is a deal's row on the table page: what it
// moved, its explanation, its history of corrections and voids. Its place
// at an evening's end (endingOf) is the caller's: the row's key holds it.
func (u ui) handView(loc i18n.Localizer, g *tapp.State, h *tapp.Hand) templates.HandView {
	hv := templates.HandView{Number: h.Number, Dealer: g.Setup.Players[h.Dealer], Explanation: u.explained.say(loc, h.Result()),
		Voided: h.Voided, VoidReason: voidTag(loc, h.VoidReason)}
	deltas := h.Result().Deltas()
	hv.Deltas = make([]string, len(deltas))
	for seat, d := range deltas {
		hv.Deltas[seat] = seatChange(loc, g.Setup.Players[seat], d)
	}
	if len(h.Revisions) < 2 {
		// A deal as it was recorded has no story to tell: the page shows
		// a history from its second line on, and most deals have one line.
		return hv
	}
	u.handHistory(loc, g, h, &hv)
	return hv
}

// handHistory fills in hv's story of deal h from its revisions: a line for
// each, and whether any of them corrected or rescored the deal. It reads
// hv.Explanation, so that the deal's own result is said only once.
func (u ui) handHistory(loc i18n.Localizer, g *tapp.State, h *tapp.Hand, hv *templates.HandView) {
	hv.History = make([]templates.HistoryLine, 0, len(h.Revisions))
	var last *tapp.Result // the result before each revision
	voided := false       // and whether it then counted
	entered := 0          // the revision that last entered the deal (a record or a correction)
	for i := range h.Revisions {
		r := &h.Revisions[i]
		at := timeMark // where the sentence puts the time: a <time> element
		line := templates.HistoryLine{At: whenOf(r.At, "clock")}
		switch r.Kind {
		case tapp.TypeHandRecorded:
			why := hv.Explanation // the deal's result is this revision's: decoded and said once
			if r.Result() != h.Result() {
				why = u.explained.say(loc, r.Result())
			}
			line.Text = loc.T("history.recorded", at, why)
		case tapp.TypeHandCorrect:
			// The records are decoded from the stored bytes only where
			// they decide: a correction after a void.
			back := r.Reason == redoReason
			if voided && !back {
				back = broughtBack(r.Reason, voided, *h.Revisions[entered].Record(), *r.Record())
			}
			hv.Corrected = hv.Corrected || !back
			switch {
			case back && (r.Reason == "" || r.Reason == redoReason):
				line.Text = loc.T("history.redone", at)
			case back:
				line.Text = loc.T("history.brought-back", at, reasonText(loc, r.Reason))
			case r.Reason == "":
				line.Text = loc.T("history.corrected-plain", at)
			default:
				line.Text = loc.T("history.corrected", at, reasonText(loc, r.Reason))
			}
			line.Before, line.After = resultView(u.explained, loc, g, last), resultView(u.explained, loc, g, r.Result())
			if voided && line.Before != nil {
				// Brought back: before, the deal counted nothing, whatever
				// it said.
				line.Before = &templates.ResultView{Explanation: loc.T("history.was-voided")}
			}
			voided = false
		case tapp.TypeHandVoided:
			voided = true
			if r.Reason == undoReason {
				line.Text = loc.T("history.undone", at)
			} else {
				line.Text = loc.T("history.voided", at, reasonText(loc, r.Reason))
			}
		case tapp.TypeHandRescored:
			hv.Rescored = true
			line.Text = loc.T("history.rescored", at, r.Cause)
			line.Before, line.After = resultView(u.explained, loc, g, last), resultView(u.explained, loc, g, r.Result())
		}
		if r.Result() != nil {
			last = r.Result()
		}
		if r.Kind == tapp.TypeHandRecorded || r.Kind == tapp.TypeHandCorrect {
			entered = i
		}
		line.Text, line.TextAfter = aroundTime(line.Text)
		hv.History = append(hv.History, line)
	}
}

// endingOf says where deal h stands in the end of a Württemberg evening
// (rules.md): the last regular deal, then each Zwangsramsch; else "".
func endingOf(loc i18n.Localizer, g *tapp.State, h *tapp.Hand) string {
	switch end := g.End(); {
	case end.LastRegular > 0 && h.Number == end.LastRegular:
		return loc.T("table.last-regular")
	case end.ForcedDeal(h.Number):
		return loc.T("table.forced", h.Number-end.LastRegular, len(end.Zwangsramsch))
	}
	return ""
}

// broughtBack says whether a correction puts back what was recorded — a
// redo, or a voided deal entered again as it was — so that nothing was
// corrected. The table and the History say a deal's story alike by it.
func broughtBack(reason string, wasVoided bool, entered, now payout.Record) bool {
	return reason == redoReason || (wasVoided && entered.Same(now))
}

// isUsualUnit tells whether a game plays for its variant's usual unit
// (Württemberg's 0.01: a cent is a cent).
func isUsualUnit(g *tapp.State) bool {
	usual, err := decimal.NewFromString(g.Variant().DefaultUnit)
	return err == nil && g.Unit.Equal(usual)
}

// potBefore is the pot before deal i+1 (0-based i), from the pots after
// each deal.
func potBefore(after []decimal.Decimal, i int) decimal.Decimal {
	if i == 0 {
		return decimal.Zero
	}
	return after[i-1]
}

// potMoved says what a deal did to the pot: "Pot 5 → 7", or "Pot 7" when
// it left it as it was.
func potMoved(loc i18n.Localizer, before, after decimal.Decimal) string {
	if before.Equal(after) {
		return loc.T("table.pot-stayed", loc.Num(after))
	}
	return loc.T("table.pot-moved", loc.Num(before), loc.Num(after))
}

// voidTag is how the deal list names a voided deal: the one-tap undo by
// its name, any other void with its reason.
func voidTag(loc i18n.Localizer, reason string) string {
	switch reason {
	case "":
		return ""
	case undoReason:
		return loc.T("table.undone-tag")
	}
	return loc.T("table.voided", reasonText(loc, reason))
}

// seatChange says what a deal moved for a seat, as the deal list shows it:
// "Anna +2", "Ben −1", made in one piece (signed, then the name before it,
// would make each twice more).
func seatChange(loc i18n.Localizer, name string, d decimal.Decimal) string {
	if d.IsPositive() {
		return name + " +" + loc.Num(d)
	}
	return name + " " + loc.Num(d)
}

// resultView shows a result, its explanation said through x (nil: said
// afresh).
func resultView(x *explained, loc i18n.Localizer, g *tapp.State, r *tapp.Result) *templates.ResultView {
	if r == nil {
		return nil
	}
	out := &templates.ResultView{Explanation: x.say(loc, r)}
	for seat, d := range r.Deltas() {
		out.Deltas = append(out.Deltas, seatChange(loc, g.Setup.Players[seat], d))
	}
	if g.Variant().HasPot {
		out.Pot = loc.T("audit.pot", signed(loc, r.PotDelta()))
	}
	return out
}

func transferViews(loc i18n.Localizer, g *tapp.State, ts []tapp.Transfer) []templates.TransferView {
	var out []templates.TransferView
	for i, t := range ts {
		v := templates.TransferView{From: t.From, To: t.To, Amount: loc.Money(g.Money(t.Amount), g.Currency, g.Places())}
		if state, _ := g.TransferState(i); state != tapp.StateOpen {
			v.State, v.StateText = state, loc.T("pay.state."+state)
		}
		out = append(out, v)
	}
	return out
}
