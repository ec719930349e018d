package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/group"
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
	v := templates.StatsView{Page: p, Group: base, Evenings: len(s.Evenings), Chart: runningChart(s, money)}
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

// runningChart draws each member's running total over the closed evenings
// in a 300 × 120 box, as the table's chart draws an evening: money becomes
// a float here only as a pixel position.
func runningChart(s group.Stats, money func(decimal.Decimal) string) templates.ChartView {
	const w, h = 300, 120
	steps := len(s.Evenings)
	lo, hi := 0.0, 0.0
	for _, p := range s.Players {
		for _, r := range p.Running {
			f := r.InexactFloat64()
			lo, hi = min(lo, f), max(hi, f)
		}
	}
	if steps == 0 || lo == hi {
		return templates.ChartView{Empty: true}
	}
	y := func(v float64) float64 { return 2 + (hi-v)/(hi-lo)*(h-4) }
	out := templates.ChartView{Width: w, Height: h, ZeroY: strconv.FormatFloat(y(0), 'f', 1, 64)}
	for i, p := range s.Players {
		var b strings.Builder
		fmt.Fprintf(&b, "0,%.1f", y(0))
		for k, r := range p.Running {
			fmt.Fprintf(&b, " %.1f,%.1f", float64((k+1)*w)/float64(steps), y(r.InexactFloat64()))
		}
		last := decimal.Zero
		if n := len(p.Running); n > 0 {
			last = p.Running[n-1]
		}
		out.Lines = append(out.Lines, templates.ChartLine{Name: p.Name, Seat: i % chartColours, Points: b.String(), Last: money(last)})
	}
	return out
}
