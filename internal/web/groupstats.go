package web

import (
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/templates"
)

func (u ui) statsPage(c echo.Context) error {
	gv, err := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return u.problem(c, err)
	}
	st := gv.Group
	p, loc, base := u.groupHead(c, st, "/stats", "stats.title", st.Name)
	s := st.Stats(gv.Games)
	money := func(d decimal.Decimal) string { return loc.Money(d, st.Currency, st.Places()) }
	row := func(seat int, name string, l group.Line) templates.StatsRow {
		r := templates.StatsRow{Name: name, Seat: seat % chartColours, Evenings: l.Evenings, Deals: l.Deals, Declared: l.Declared, DeclaredWon: l.DeclaredWon,
			WonPercent: "–", Won: money(l.Won), Lost: money(l.Lost), Net: money(l.Net()), Best: "–", Worst: "–", Negative: l.Net().IsNegative()}
		if pct, ok := l.WonPercent(); ok {
			r.WonPercent = loc.Num(pct) + " %"
		}
		if l.Best != nil {
			r.Best, r.Worst = money(l.Best.Money), money(l.Worst.Money)
		}
		return r
	}
	v := templates.StatsView{Page: p, Group: base, Evenings: len(s.Evenings), Chart: runningChart(s, loc, money, func(d decimal.Decimal) string { return loc.Amount(d, st.Currency, st.Places()) })}
	for i, pl := range s.Players {
		v.Rows = append(v.Rows, row(i, pl.Name, pl.Line))
	}
	for _, vr := range payout.Variants() {
		vs := templates.VariantStats{Name: loc.T("variant." + string(vr))}
		for i, pl := range s.Players {
			if k := slices.IndexFunc(pl.Variants, func(x group.VariantLine) bool { return x.Variant == vr }); k >= 0 {
				vs.Rows = append(vs.Rows, row(i, pl.Name, pl.Variants[k].Line))
			}
		}
		if len(vs.Rows) > 0 {
			v.Variants = append(v.Variants, vs)
		}
	}
	return render(c, http.StatusOK, templates.Stats(v))
}

// runningChart draws each member's running total over the closed evenings,
// as the table's chart draws an evening: the value axis in the group's
// money, the step axis the first and the last evening's day.
func runningChart(s group.Stats, loc i18n.Localizer, money func(decimal.Decimal) string, amount func(decimal.Decimal) string) templates.ChartView {
	c := lineChart{num: amount, last: money, label: loc.T("stats.chart")}
	for i, p := range s.Players {
		c.names = append(c.names, p.Name)
		c.seats = append(c.seats, i%chartColours)
	}
	for k := range s.Evenings {
		row := make([]decimal.Decimal, len(s.Players))
		for i, p := range s.Players {
			row[i] = p.Running[k]
		}
		c.steps = append(c.steps, row)
	}
	if n := len(s.Evenings); n > 0 {
		first, last := s.Evenings[0].Started, s.Evenings[n-1].Started
		show := "date"
		if n > 1 && first.In(time.Local).Format(time.DateOnly) == last.In(time.Local).Format(time.DateOnly) {
			show = "minute" // evenings of one day: the day alone would not tell them apart
		}
		c.first, c.end = whenOf(first, show), whenOf(last, show)
	}
	return c.draw()
}
