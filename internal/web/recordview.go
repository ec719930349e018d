package web

import (
	"cmp"
	"strconv"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// The record form's view model, built from the game as it stands: which
// contracts, players, trumps, counts and fields the form for a deal asks,
// with what was typed and the refusals next to their fields.

// contracts gives the contracts deal hand may be: every one of the
// variant's, or only Ramsch for a Württemberg Zwangsramsch, the next one
// or one played and now corrected.
func contractsFor(g *tapp.State, hand int) []string {
	if end := g.End(); hand == g.NextHand() && end.Phase == tapp.PhaseForced || end.ForcedDeal(hand) {
		return []string{g.Variant().ForcedContract}
	}
	return g.Variant().Offered(g.Setup.Rules)
}

// recordView fills the form for deal hand of a game, for contract: what the
// deal's contract asks, each part by a function of its own below.
func (u ui) recordView(p templates.Page, loc i18n.Localizer, g *tapp.State, hand int, contract string, f dealForm, edit bool) templates.RecordView {
	v := recordHead(p, loc, g, hand, &f, edit)
	available := contractsFor(g, hand)
	if len(available) == 1 {
		contract = available[0]
	}
	if contract == "" {
		contract = cmp.Or(g.Variant().DefaultContract, g.Variant().UsualContract) // when nobody bids, or what most deals are
	}
	if end := g.End(); end.Phase == tapp.PhaseForced && hand == g.NextHand() {
		v.Forced = loc.T("herz.forced", end.Forced, len(g.Setup.Players))
	}
	for _, c := range available {
		v.Contracts = append(v.Contracts, templates.Option{Value: c, Label: loc.T("contract." + c), Selected: c == contract})
	}
	tout := f.get("tout") == "true"
	fields, ok := payout.ContractFields(g.Setup.Variant, contract, tout)
	if !ok {
		return v
	}
	v.Contract = contract
	askWho(&v, fields, g.Setup.Players, &f)
	askTrump(&v, loc, fields, &f)
	v.ToutField, v.Tout = fields.Tout != "", tout
	all := payout.TricksPerDeal(g.Setup)
	askTricks(&v, loc, fields, all, &f)
	askPoints(&v, loc, g, fields, &f)
	askKontra(&v, loc, fields, &f)
	if fields.Matzl != "" && contract != "durch" {
		askMatzl(&v, loc, &f)
	}
	if fields.Ramsch != "" {
		askRamsch(&v, g, all, &f)
	}
	return v
}

// reopenForm is where an evening is reopened: the form on its
// end-of-evening page.
func reopenForm(p templates.Page) string { return p.Base + "/close#reopen-form" }

// recordHead is what every deal's form shows whatever its contract: the
// deal, its dealer and forehand, the keys, and for a correction what the
// deal stands at now.
func recordHead(p templates.Page, loc i18n.Localizer, g *tapp.State, hand int, f *dealForm, edit bool) templates.RecordView {
	p.EveningClosed = g.Closed != nil
	n := len(g.Setup.Players)
	dealer := g.DealerOf(hand)
	v := templates.RecordView{Page: p, Variant: string(g.Setup.Variant), Hand: hand, Dealer: g.Setup.Players[dealer],
		Forehand: g.Setup.Players[(dealer+1)%n], Edit: edit, Error: f.err, IdemKey: f.get("idempotency_key"),
		CorrectReason: templates.Field{Value: f.get("reason"), Error: f.errs["reason"]}}
	if v.IdemKey == "" {
		v.IdemKey = newKey()
	}
	if f.err != "" && g.Closed != nil && !p.ReadOnly {
		// Refused as the evening was closed meanwhile (on another phone):
		// the way on is the form that reopens it.
		v.Reopen = reopenForm(p)
	}
	v.Draft = draftKey(p.GameID, g, hand, edit)
	if edit {
		v.CorrectQuick = reasonPicks(loc, correctionReasons(), f.get("reason_quick"))
		v.VoidQuick = reasonPicks(loc, voidReasons(), "")
	}
	if h := g.Hand(hand); edit && h != nil {
		v.Voided = h.Voided
		if !h.Voided {
			v.Now = resultView(nil, loc, g, h.Result())
		}
		// What the form was begun from: kept through a refusal of what
		// was typed (a 422), so that it still meets a change made since.
		v.Changes = h.Changes()
		if c, err := strconv.Atoi(f.get("changes")); err == nil {
			v.Changes = c
		}
	}
	return v
}

// pick offers values under their labels, the one typed in field name chosen.
func (f *dealForm) pick(name string, values, labels []string) []templates.Option {
	var out []templates.Option
	cur := f.get(name)
	for i, val := range values {
		out = append(out, templates.Option{Value: val, Label: labels[i], Selected: val == cur})
	}
	return out
}

// askWho asks who declared (unless forehand does) and who was called.
func askWho(v *templates.RecordView, fields payout.Fields, players []string, f *dealForm) {
	switch {
	case fields.DeclarerIsForehand:
		v.DeclarerFixed = v.Forehand
	case fields.Declarer != "":
		v.Declarers = f.pick("declarer", players, players)
	}
	v.DeclarerField = templates.Field{Error: f.errs["declarer"]}
	if fields.Partner != "" {
		var others []string
		for _, name := range players {
			if name != v.Forehand {
				others = append(others, name)
			}
		}
		v.Partners = f.pick("partner", others, others)
		v.PartnerField = templates.Field{Error: f.errs["partner"]}
	}
}

// askTrump asks the trump where the contract has one.
func askTrump(v *templates.RecordView, loc i18n.Localizer, fields payout.Fields, f *dealForm) {
	if fields.Trump == "" {
		return
	}
	values := fields.Trumps
	if fields.Trump == "optional" {
		values = append([]string{""}, values...)
	}
	var labels []string
	for _, s := range values {
		labels = append(labels, loc.T("suit."+s+".name"))
	}
	v.Trumps = f.pick("trump", values, labels)
	v.TrumpNeeded = fields.Trump == "required"
	v.TrumpField = templates.Field{Error: f.errs["trump"]}
}

// askTricks asks won or lost where tricks alone decide, else the count of
// tricks where the contract has one; all is the tricks of a deal.
func askTricks(v *templates.RecordView, loc i18n.Localizer, fields payout.Fields, all int, f *dealForm) {
	switch {
	case fields.WonBy != "":
		// Tricks alone decide: won or lost is one tap, and the count is
		// asked only when lost (a won deal's count is known).
		v.WonBy, v.Outcome = fields.WonBy, outcomeOf(*f, fields.WonBy, all)
		win := winningTricks(fields.WonBy, all)
		var values []string
		for t := 0; t <= all; t++ {
			if t != win {
				values = append(values, strconv.Itoa(t))
			}
		}
		v.LostTricks = f.pick("tricks", values, values)
		v.OutcomeField = templates.Field{Error: f.errs["outcome"]}
		v.TricksField = templates.Field{Error: f.errs["tricks"]}
		if v.Outcome != "lost" && v.TricksField.Error != "" {
			// Won or lost was not tapped: the count's question is hidden,
			// so its refusal goes with won or lost, and asks for that tap.
			msg := v.TricksField.Error
			if o := f.get("outcome"); o != "won" && o != "lost" {
				msg = loc.T("record.outcome-missing", loc.T("record.won"), loc.T("record.lost"))
			}
			v.OutcomeField.Error, v.TricksField.Error = msg, ""
		}
	case fields.Tricks != "":
		var values, labels []string
		// Where points are counted the tricks are asked only when they
		// change the money (api.md): left out, the save says so if they do.
		optional := fields.Tricks == "optional" || fields.Points == "required"
		if optional {
			values, labels = append(values, ""), append(labels, "—")
		}
		for t := 0; t <= all; t++ {
			label := strconv.Itoa(t)
			switch t {
			case 0:
				label = loc.T("record.tricks-none")
			case all:
				label = loc.T("record.tricks-all", all)
			}
			values, labels = append(values, strconv.Itoa(t)), append(labels, label)
		}
		v.Tricks = f.pick("tricks", values, labels)
		v.TricksNeeded = !optional
		v.TricksField = templates.Field{Error: f.errs["tricks"]}
	}
}

// askPoints asks the declarer's side's points where the contract counts
// them; the messages the phone shows as points are typed go with every
// contract (a Ramsch's points use them too).
func askPoints(v *templates.RecordView, loc i18n.Localizer, g *tapp.State, fields payout.Fields, f *dealForm) {
	v.Total = payout.TotalPoints(g.Setup.Variant)
	v.PointsOver = withN(loc.Error(payout.Messages().Input("points", "points.range", sentinel, v.Total)))
	v.PointsOne = loc.Error(payout.Messages().Input("points", "points.one"))
	v.PointsMinusOne = withN(loc.Error(payout.Messages().Input("points", "points.total-minus-one", sentinel)))
	v.PointsWhole = loc.T("form.whole-number")
	if fields.Points == "" {
		v.Total = 0
		return
	}
	v.PointsNeeded = fields.Points == "required"
	v.Points = templates.Field{Value: f.get("points"), Error: f.errs["points"]}
	v.PointsSide = f.get("points_side")
	// Optional points are offered where they count for something;
	// where tricks alone decide they are asked only if already typed.
	v.ShowPoints = v.PointsNeeded || v.Points.Value != "" || v.Points.Error != "" || fields.WonBy == ""
}

// askKontra offers the kontra levels where the contract can be doubled.
func askKontra(v *templates.RecordView, loc i18n.Localizer, fields payout.Fields, f *dealForm) {
	if fields.Kontra == "" {
		return
	}
	cur := f.get("kontra")
	for level := 0; level <= 10; level++ {
		label := loc.T("record.kontra-none")
		if level > 0 {
			label = strconv.Itoa(level) + " · " + payout.KontraName(level)
		}
		v.Kontra = append(v.Kontra, templates.Option{Value: strconv.Itoa(level), Label: label, Selected: cur == strconv.Itoa(level)})
	}
	v.KontraField = templates.Field{Error: f.errs["kontra"]}
}

// askMatzl asks which side caught the matzl, nobody unless tapped.
func askMatzl(v *templates.RecordView, loc i18n.Localizer, f *dealForm) {
	sides := []string{payout.MatzlNone, payout.MatzlDeclarer, payout.MatzlDefenders}
	labels := []string{loc.T("record.matzl-none"), loc.T("record.matzl-declarer"), loc.T("record.matzl-defenders")}
	v.Matzl = f.pick("matzl", sides, labels)
	if f.get("matzl") == "" {
		v.Matzl[0].Selected = true
	}
	v.MatzlField = templates.Field{Error: f.errs["matzl"]}
}

// askRamsch asks each player's points and tricks of a Ramsch; all is the
// tricks of a deal.
func askRamsch(v *templates.RecordView, g *tapp.State, all int, f *dealForm) {
	v.RamschTotal, v.RamschTricks = payout.TotalPoints(g.Setup.Variant), all
	for seat, name := range g.Setup.Players {
		key := strconv.Itoa(seat)
		v.Ramsch = append(v.Ramsch, templates.RamschRow{Name: name, NoTrick: f.get("ramsch_none_"+key) == "true",
			Points: templates.Field{Value: f.get("ramsch_points_" + key), Error: f.errs["ramsch."+key+".points"]},
			Tricks: templates.Field{Value: f.get("ramsch_tricks_" + key), Error: f.errs["ramsch."+key+".tricks"]}})
	}
	v.RamschError = f.errs["ramsch"]
}

// draftKey names the draft the phone keeps of a deal's form while it is
// filled in (static/app.js, in the tab's sessionStorage): the game and the
// deal the form is for, a new deal by its number, a correction by the deal
// and how many times its record has been entered. A draft is put back only
// onto a form with the same name: never onto another deal's form, and
// never onto a correction of a deal entered again since (by another phone,
// say), which it would quietly undo.
func draftKey(game string, g *tapp.State, hand int, edit bool) string {
	if !edit {
		return game + "/new/" + strconv.Itoa(hand)
	}
	entered := 0
	if h := g.Hand(hand); h != nil {
		entered = h.Entered()
	}
	return game + "/edit/" + strconv.Itoa(hand) + "/" + strconv.Itoa(entered)
}

// withDeal names a new deal's form's deal for the phone to record it, and
// the ones after it, without the server (offline.go).
func withDeal(loc i18n.Localizer, g *tapp.State, v templates.RecordView) templates.RecordView {
	if !v.Edit && v.Hand == g.NextHand() && foreseeable(g) && v.GameID != "" {
		v.Deals = nextDeal(loc, v.GameID, g, v.IdemKey)
	}
	return v
}
