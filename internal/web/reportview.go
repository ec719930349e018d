package web

import (
	"context"
	"strconv"
	"strings"

	"tappbook/internal/events"
	"tappbook/internal/i18n"
	"tappbook/internal/payqr"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// reportView fills the evening's report to take home: the standings as the
// close page shows them, the pot, who pays whom (with the QR codes unless
// the page is read through a read-only link), the deals, and the signed
// receipt once closed. An open evening shows the standing so far, said to
// be unsettled.
func (u ui) reportView(ctx context.Context, p templates.Page, loc i18n.Localizer, g *tapp.State, key *signing.Key) (templates.ReportView, error) {
	cv := closeView(p, loc, g, nil, key)
	p.EveningClosed = g.Closed != nil
	v := templates.ReportView{Page: p, Settled: g.Closed != nil, Players: g.Setup.Players, Undecided: cv.Undecided,
		Heading: loc.T("report.heading", loc.T("variant."+string(g.Setup.Variant)), whenOf(g.StartedAt, "date").Text),
		Facts:   reportFacts(loc, g), ReceiptQR: cv.ReceiptQR, Back: p.Base + "/close", BackText: loc.T("report.back")}
	if p.ReadOnly {
		v.Back, v.BackText = p.Base, loc.T("nav.table")
	}
	if !v.Settled {
		v.NotSettled = loc.T("report.not-settled")
	} else {
		v.Fingerprint = events.Fingerprint(g.Closed.Head)
	}
	v.Image, v.ImageName = p.Base+"/report.png", "tappbook-"+string(g.Setup.Variant)+"-"+whenOf(g.StartedAt, "date").Text+".png"
	if cv.HasPot {
		v.Heads = append(v.Heads, loc.T("close.share"))
	}
	v.Heads = append(v.Heads, cv.UnitsHead, loc.T("table.money"))
	for i, pl := range cv.Players {
		row := templates.ReportRow{Name: pl.Name, Negative: pl.Negative}
		if cv.HasPot {
			row.Cells = append(row.Cells, cv.Split[i])
		}
		row.Cells = append(row.Cells, pl.Units, pl.Money)
		v.Standings = append(v.Standings, row)
	}
	v.Pot = reportPot(loc, cv)
	if err := u.reportTransfers(ctx, &v, loc, g); err != nil {
		return v, err
	}
	v.Deals, v.DealsPot = reportDeals(loc, g), g.Variant().HasPot
	return v, nil
}

// reportFacts: the players, what a unit is worth and how many deals.
func reportFacts(loc i18n.Localizer, g *tapp.State) string {
	facts := []string{strings.Join(g.Setup.Players, ", ")}
	if g.Currency != "" {
		facts = append(facts, loc.T("report.unit", loc.Money(g.Unit, g.Currency, g.Places())))
	}
	return strings.Join(append(facts, loc.T("report.deals", len(g.Hands()))), " · ")
}

// reportPot is what the close page says of the pot.
func reportPot(loc i18n.Localizer, cv templates.CloseView) []string {
	var out []string
	switch {
	case cv.PotWent != "":
		out = append(out, cv.PotWent)
	case cv.HasPot && cv.Leftover == 0:
		out = append(out, loc.T("close.pot-even", cv.Pot))
	case cv.HasPot:
		out = append(out, loc.T("close.pot", cv.Pot, cv.Leftover))
	}
	if cv.LeftoverTo != "" {
		out = append(out, cv.LeftoverTo)
	}
	return out
}

// reportTransfers lists who pays whom; each with its payee's QR code (the
// pay page's) and, once the evening is closed, whether it was paid. A
// read-only page shows no way to pay (api.md "Paying what the close says":
// how a player is paid is for the ones at the table).
func (u ui) reportTransfers(ctx context.Context, v *templates.ReportView, loc i18n.Localizer, g *tapp.State) error {
	if v.Undecided != "" {
		return nil
	}
	ts := g.Settlement().Transfers
	v.Square = len(ts) == 0
	pays, err := api{svc: u.svc}.eveningPayments(ctx, g, ts)
	if err != nil {
		return err
	}
	for i, t := range ts {
		amount := loc.Money(g.Money(t.Amount), g.Currency, g.Places())
		rt := templates.ReportTransfer{Text: loc.T("close.pays", t.From, t.To, amount), From: t.From, To: t.To, Amount: amount}
		if state, _ := g.TransferState(i); g.Closed != nil || state != tapp.StateOpen {
			rt.State, rt.StateText = state, loc.T("pay.state."+state)
		}
		if ways := payqr.Ways(pays[i]); len(ways) > 0 && !v.ReadOnly {
			rt.QR = v.Root + "/api/games/" + g.ID + "/pay/" + strconv.Itoa(i) + ".png"
			rt.Ways = waysText(loc, ways)
		}
		v.Transfers = append(v.Transfers, rt)
	}
	return nil
}

// waysText names the ways a QR code can be read: "EPC · Swish".
func waysText(loc i18n.Localizer, ways []payqr.Way) string {
	kinds := make([]string, 0, len(ways))
	for _, w := range ways {
		kinds = append(kinds, loc.T("pay.way."+w.Kind))
	}
	return strings.Join(kinds, " · ")
}

// reportDeals is every deal in one line each: its number, what it was,
// what it moved by seat and, where there is one, the pot after it.
func reportDeals(loc i18n.Localizer, g *tapp.State) []templates.ReportDeal {
	var pots []string
	if g.Variant().HasPot {
		for _, p := range g.PotsAfter() {
			pots = append(pots, loc.Num(p))
		}
	}
	out := make([]templates.ReportDeal, 0, len(g.Hands()))
	for i, h := range g.Hands() {
		ex := h.Result().Explanation()
		d := templates.ReportDeal{Number: h.Number, Head: ex.Head(loc), Explanation: ex.Render(loc), Voided: h.Voided}
		if d.Voided {
			d.Head = voidTag(loc, h.VoidReason) + " · " + d.Head
			d.Explanation = voidTag(loc, h.VoidReason) + " · " + d.Explanation
		}
		deltas, _ := h.Moves()
		for _, x := range deltas {
			d.Deltas = append(d.Deltas, signed(loc, x))
		}
		if i < len(pots) {
			d.Pot = pots[i]
		}
		out = append(out, d)
	}
	return out
}
