package web

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// chart draws each player's running balance, deal by deal. A closed
// evening's last step is the pot shared out, so that the chart ends where
// the standings do.
// Each evening's totals are kept in sums from one page to the next (nil:
// added up afresh).
func chart(loc i18n.Localizer, g *tapp.State, sums *chartSums) templates.ChartView {
	n := len(g.Setup.Players)
	c := lineChart{names: g.Setup.Players, seats: make([]int, n), num: loc.Num, last: loc.Num, label: loc.T("table.chart")}
	for seat := range c.seats {
		c.seats[seat] = seat
	}
	split := g.Closed != nil && g.Variant().HasPot // the last step is the pot shared out
	var first, last int                            // the first and the last deal drawn
	var ok bool
	if c.run, first, last, ok = wholeChart(g, split, sums); !ok {
		c.steps, first, last = decimalChart(g, split)
	}
	if first == 0 {
		return templates.ChartView{Empty: true}
	}
	c.first.Text, c.end.Text = strconv.Itoa(first), loc.T("table.chart-deal", last)
	if first == last {
		c.first = c.end // one deal: marked once
	}
	if split {
		c.end.Text = loc.T("table.chart-split")
	}
	return c.draw()
}

// chartsDeal says whether a deal is a step of the chart: every deal but a
// void that moves nothing (a void counts the stake it kept in the pot).
func chartsDeal(h *tapp.Hand, pot bool) bool { return !h.Voided || pot }

// wholeChart adds up the deals in whole units, in int64, as nearly every
// evening's are: no decimal per deal, each deal added up once from page to
// page (x; nil: all afresh), and only the totals of the steps drawn given
// to draw. False when an amount is not whole or a sum would not fit;
// decimalChart then adds them up.
func wholeChart(g *tapp.State, split bool, x *chartSums) (run *running, first, last int, ok bool) {
	n := len(g.Setup.Players)
	kept := x.of(g.ID)
	kept.mu.Lock()
	defer kept.mu.Unlock()
	s := kept
	if s.version > g.Version {
		s = &sums{} // a snapshot older than the sums kept: added up on its own
	}
	if !s.addUp(g, n) {
		return nil, 0, 0, false
	}
	if s == kept {
		x.weigh(kept)
	}
	steps, lo, hi := len(s.totals)/n, s.lo, s.hi
	var shared []int64 // the totals after the pot is shared out
	if steps > 0 && split {
		moves := make([]int64, n)
		shared = slices.Clone(s.totals[(steps-1)*n:])
		for seat, d := range g.Closed.Split {
			if !d.IsInteger() || !d.BigInt().IsInt64() {
				return nil, 0, 0, false
			}
			moves[seat] = d.IntPart()
		}
		if !addStep(shared, moves, &lo, &hi) {
			return nil, 0, 0, false
		}
		steps++
	}
	// The totals are read after s is unlocked: up to their length now,
	// which a later page only appends after (sums.empty lets them go).
	return wholeRunning(steps, drawnSteps(steps), s.totals[:len(s.totals):len(s.totals)], shared, n, lo, hi), s.first, s.last, true
}

// decimalChart adds up the deals as decimals: each step's balances.
func decimalChart(g *tapp.State, split bool) (steps [][]decimal.Decimal, first, last int) {
	n := len(g.Setup.Players)
	cur := make([]decimal.Decimal, n)
	step := func(deltas []decimal.Decimal) {
		row := make([]decimal.Decimal, n)
		for seat := range cur {
			cur[seat] = cur[seat].Add(deltas[seat])
			row[seat] = cur[seat]
		}
		steps = append(steps, row)
	}
	for _, hand := range g.Hands() {
		if deltas, pot := hand.Moves(); chartsDeal(hand, !pot.IsZero()) {
			step(deltas)
			first, last = cmp.Or(first, hand.Number), hand.Number
		}
	}
	if first > 0 && split {
		step(g.Closed.Split)
	}
	return steps, first, last
}
