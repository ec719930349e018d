package web

import (
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/group"
	"tappbook/internal/i18n"
	"tappbook/templates"
)

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

// chartColours is how many players the charts tell apart by colour.
const chartColours = 8
