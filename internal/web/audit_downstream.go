package web

import (
	"strings"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
)

// downstreamText says, for a correction's or void's entry in the History,
// what it changed downstream, before → after: each later deal whose own
// amounts changed (the pot after those that did not is potLaterText's),
// the pot after the last deal, and who pays whom.
func downstreamText(loc i18n.Localizer, g *tapp.State, d *tapp.Downstream) (later []string, potEnd string, pays []string) {
	for _, c := range d.Deals {
		var parts []string
		for seat, name := range g.Setup.Players {
			if was, is := c.Before.Deltas[seat], c.After.Deltas[seat]; !was.Equal(is) {
				parts = append(parts, name+" "+signed(loc, was)+" → "+signed(loc, is))
			}
		}
		if was, is := c.Before.PotDelta, c.After.PotDelta; !was.Equal(is) {
			parts = append(parts, loc.T("audit.pot", signed(loc, was)+" → "+signed(loc, is)))
		}
		if len(parts) > 0 {
			later = append(later, loc.T("audit.later-deal", c.Hand, strings.Join(parts, ", ")))
		}
	}
	if !d.PotBefore.Equal(d.PotAfter) {
		potEnd = loc.T("audit.pot-end", loc.Num(d.PotBefore), loc.Num(d.PotAfter))
	}
	before, after := paysText(loc, g, d.Before), paysText(loc, g, d.After)
	if before == after {
		return later, potEnd, []string{loc.T("audit.pays-same", before)}
	}
	return later, potEnd, []string{loc.T("audit.pays-before", before), loc.T("audit.pays-after", after)}
}

// paysText says who would pay whom in a line: each payment, all square,
// or waiting for the cut of the pot's leftover units.
func paysText(loc i18n.Localizer, g *tapp.State, s tapp.Settlement) string {
	switch {
	case s.Provisional:
		return loc.T("audit.pays-cut")
	case len(s.Transfers) == 0:
		return loc.T("audit.pays-nobody")
	}
	var parts []string
	for _, t := range transferViews(loc, g, s.Transfers) {
		parts = append(parts, loc.T("close.pays", t.From, t.To, t.Amount))
	}
	return strings.Join(parts, "; ")
}
