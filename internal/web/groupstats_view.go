package web

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/templates"
)

// moneyWriter writes a group's money in the reader's language.
type moneyWriter struct {
	loc      i18n.Localizer
	currency string
	places   int32
}

func (m moneyWriter) money(d decimal.Decimal) string  { return m.loc.Money(d, m.currency, m.places) }
func (m moneyWriter) amount(d decimal.Decimal) string { return m.loc.Amount(d, m.currency, m.places) }

// statsView builds the statistics page from a snapshot's Stats: a card per
// member, head to head, the records, the years (newest first).
func statsView(p templates.Page, loc i18n.Localizer, base templates.GroupBase, st *group.State, s group.Stats) templates.StatsView {
	m := groupMoney(loc, st)
	v := templates.StatsView{Page: p, Group: base, Evenings: len(s.Evenings), Chart: runningChart(s, loc, m.money, m.amount)}
	for i, pl := range s.Players {
		c := templates.StatsCard{StatsRow: statsRow(m, i, pl.Name, pl.Line)}
		for _, vl := range pl.Variants {
			c.Variants = append(c.Variants, templates.StatsLine{Label: loc.T("variant." + string(vl.Variant)),
				Text:     loc.T("stats.variant-line", vl.Evenings, m.money(vl.Net()), vl.DeclaredWon, vl.Declared),
				Negative: vl.Net().IsNegative()})
		}
		several := len(pl.Variants) > 1
		for _, cl := range pl.Contracts {
			label := loc.T("contract." + cl.Contract)
			if several {
				label = loc.T("stats.contract-of", label, loc.T("variant."+string(cl.Variant)))
			}
			c.Contracts = append(c.Contracts, templates.StatsLine{Label: label,
				Text: loc.T("stats.contract-line", cl.Won, cl.Declared, loc.Num(cl.WonPercent()), m.money(cl.Money)), Negative: cl.Money.IsNegative()})
		}
		for _, pr := range pl.Partners {
			c.Partners = append(c.Partners, templates.StatsLine{Label: pr.Partner,
				Text: loc.T("stats.partner-line", pr.Deals, pr.Won, loc.Num(pr.WonPercent()), m.money(pr.Money)), Negative: pr.Money.IsNegative()})
		}
		v.Players = append(v.Players, c)
	}
	for _, pr := range s.Pairs {
		v.Pairs = append(v.Pairs, pairLine(loc, m, pr))
	}
	v.Records = recordLines(loc, m, s.Records)
	for _, y := range slices.Backward(s.Years) {
		sy := templates.StatsYear{Year: y.Year}
		for _, l := range y.Players {
			sy.Lines = append(sy.Lines, templates.StatsLine{Label: l.Name, Text: loc.T("stats.year-line", m.money(l.Net), l.Evenings), Negative: l.Net.IsNegative()})
		}
		v.Years = append(v.Years, sy)
	}
	return v
}

func statsRow(m moneyWriter, seat int, name string, l group.Line) templates.StatsRow {
	r := templates.StatsRow{Name: name, Seat: seat % chartColours, Evenings: l.Evenings, Deals: l.Deals, Declared: l.Declared, DeclaredWon: l.DeclaredWon,
		WonPercent: "–", Won: m.money(l.Won), Lost: m.money(l.Lost), Net: m.money(l.Net()), Best: "–", Worst: "–", Negative: l.Net().IsNegative()}
	if pct, ok := l.WonPercent(); ok {
		r.WonPercent = m.loc.Num(pct) + " %"
	}
	if l.Best != nil {
		r.Best, r.Worst = m.money(l.Best.Money), m.money(l.Worst.Money)
	}
	return r
}

// pairLine says who paid whom between two players, on balance.
func pairLine(loc i18n.Localizer, m moneyWriter, pr group.Pair) templates.StatsLine {
	l := templates.StatsLine{Label: pr.A + " – " + pr.B}
	switch {
	case pr.Money.IsPositive():
		l.Text = loc.T("stats.pair-paid", pr.B, pr.A, m.money(pr.Money), pr.Evenings)
	case pr.Money.IsNegative():
		l.Text = loc.T("stats.pair-paid", pr.A, pr.B, m.money(pr.Money.Neg()), pr.Evenings)
	default:
		l.Text = loc.T("stats.pair-even", pr.Evenings)
	}
	return l
}

func recordLines(loc i18n.Localizer, m moneyWriter, r group.Records) []templates.StatsLine {
	day := func(t time.Time) string { return whenOf(t, "date").Text }
	none := loc.T("stats.record-none")
	best, biggest, run := none, none, none
	if b := r.BestEvening; b != nil {
		best = loc.T("stats.record-evening", b.Name, m.money(b.Money), loc.T("variant."+string(b.Variant)), day(b.Started))
	}
	if b := r.BiggestDeal; b != nil {
		biggest = loc.T("stats.record-deal", b.Name, m.money(b.Money), b.Deal, loc.T("variant."+string(b.Variant)), day(b.Started))
	}
	if b := r.LongestRun; b != nil {
		run = loc.T("stats.record-run", b.Name, b.Deals)
	}
	return []templates.StatsLine{{Label: loc.T("stats.best-evening"), Text: best}, {Label: loc.T("stats.biggest-deal"), Text: biggest},
		{Label: loc.T("stats.longest-run"), Text: run}}
}
