package web

import (
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/templates"
)

// lineChart is what a chart of running totals shows: each line's value at
// every step (a deal, an evening), after a start at zero.
type lineChart struct {
	names []string
	seats []int               // each line's colour and dash
	steps [][]decimal.Decimal // steps[i][line]: the values after step i+1; nil when run gives them
	run   *running            // the steps, made only for those drawn; when steps is nil
	first templates.When      // the step axis: the first step's mark (Text; a day also its instant)
	end   templates.When      // and the last's
	num   func(decimal.Decimal) string
	last  func(decimal.Decimal) string // a line's last value, as its key says it
	label string                       // what the chart shows, for screen readers
}

// chartPoints is the most points a line is drawn with: a long evening is
// thinned, its last step always kept.
const chartPoints = 150

// draw lays the chart out in a 300 × 120 box: x is the step, y the value,
// zero in between, the value axis marked at its top, zero and bottom, the
// step axis at the first and the last step. Values become floats here only
// as pixel positions, never as amounts.
func (c lineChart) draw() templates.ChartView {
	const w, h = 300, 120
	run := c.run
	if run == nil {
		run = runningOf(c.steps)
	}
	steps, lo, hi := run.count, run.lo, run.hi
	if steps == 0 || lo.Equal(hi) {
		return templates.ChartView{Empty: true}
	}
	flo, fhi := lo.InexactFloat64(), hi.InexactFloat64()
	yf := func(v float64) float64 { return 2 + (fhi-v)/(fhi-flo)*(h-4) }
	y := func(v decimal.Decimal) float64 { return yf(v.InexactFloat64()) }
	pos := func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
	out := templates.ChartView{Width: w, Height: h, ZeroY: pos(y(decimal.Zero)), Label: c.label}
	// Labels sit on their line, moved in where they would leave the box.
	tick := func(d decimal.Decimal) templates.ChartTick {
		return templates.ChartTick{Text: c.num(d), At: pos(min(max(y(d)+4, 8), h))}
	}
	out.Ticks = append(out.Ticks, tick(hi))
	if hi.IsPositive() && lo.IsNegative() {
		out.Ticks = append(out.Ticks, tick(decimal.Zero))
	}
	out.Ticks = append(out.Ticks, tick(lo))
	// Two evenings of one day would say that day twice.
	if steps > 1 && c.first.Text != c.end.Text {
		out.Steps = append(out.Steps, templates.ChartTick{Text: c.first.Text, When: c.first, At: pos(float64(w) / float64(steps))})
	}
	out.Steps = append(out.Steps, templates.ChartTick{Text: c.end.Text, When: c.end, At: pos(w)})
	paths := linePaths(run, len(c.names), yf, w, h)
	last := run.row(len(run.drawn) - 1)
	out.Lines = make([]templates.ChartLine, 0, len(c.names))
	for line, name := range c.names {
		out.Lines = append(out.Lines, templates.ChartLine{Name: name, Seat: c.seats[line], Path: paths[line], Last: c.last(last[line])})
	}
	return out
}

// linePaths draws lines lines through the start at zero, then
// run.drawn, in a w × h box where yf gives a value's height: as SVG path
// data, a move to the start and then relative lines, each a move from
// point to point in tenths (appendMove). Each step is read as floats
// into one row, reused: a drawn point needs a height, not an amount (no
// decimal per point and line). A step's move along x is the same for
// every line: written once.
func linePaths(run *running, lines int, yf func(float64) float64, w, h float64) []string {
	dxs := make([]byte, 0, len(run.drawn)*len(" 1.7"))
	dxEnds := make([]int, 1, len(run.drawn)+1) // step k's move is dxs[dxEnds[k]:dxEnds[k+1]]
	var x int64
	for _, i := range run.drawn {
		next := tenths(float64(i+1) * w / float64(run.count))
		dxs = appendMove(append(dxs, ' '), next-x)
		dxEnds, x = append(dxEnds, len(dxs)), next
	}
	// Each line is written into a builder of its own, whose string is
	// the bytes written, not a copy of them.
	paths := make([]strings.Builder, lines)
	at := make([]int64, lines) // each line's height so far, in tenths
	zero := tenths(yf(0))      // every line starts at zero
	start := append(appendMove([]byte("M0 "), zero), 'l')
	for line := range paths {
		paths[line].Grow(len(start) + len(run.drawn)*len(" 1.7-1.5"))
		paths[line].Write(start)
		at[line] = zero
	}
	vals, ys := make([]float64, lines), make([]float64, lines)
	var move []byte // one step's move, written, then copied into its line's builder
	for k := range run.drawn {
		run.at(k, vals)
		dodge(vals, yf, 2, h-2, ys)
		for line := range paths {
			y := tenths(ys[line])
			move = append(move[:0], dxs[dxEnds[k]:dxEnds[k+1]]...)
			if y >= at[line] { // a move up is signed; one down needs a space
				move = append(move, ' ')
			}
			paths[line].Write(appendMove(move, y-at[line]))
			at[line] = y
		}
	}
	out := make([]string, lines)
	for line := range paths {
		out[line] = paths[line].String()
	}
	return out
}

// drawnSteps gives the steps (0-based) a chart of count steps draws
// after its start: every every-th step and the last, at most about
// chartPoints.
func drawnSteps(count int) []int {
	every := max(1, count/chartPoints)
	drawn := make([]int, 0, count/every+1)
	for i := every; i <= count; i += every {
		drawn = append(drawn, i-1)
	}
	if count%every != 0 {
		drawn = append(drawn, count-1)
	}
	return drawn
}

// tenths is a position in whole tenths of a pixel, as a chart's lines
// are drawn: each point is the nearest tenth to where it belongs, so that
// moves from point to point add up to no error along the line.
func tenths(f float64) int64 { return int64(math.Round(f * 10)) }

// appendMove writes a move of t tenths of a pixel as SVG's path data
// reads it, in as few bytes as it takes: 17 as 1.7, -5 as -.5, 30 as 3.
// A line's moves are shorter than its points would be and repeat, which
// compresses them to a third: a chart was the most bytes of a table page.
func appendMove(dst []byte, t int64) []byte {
	if t < 0 {
		dst, t = append(dst, '-'), -t
	}
	if whole, tenth := t/10, t%10; tenth == 0 {
		dst = strconv.AppendInt(dst, whole, 10)
	} else {
		if whole > 0 {
			dst = strconv.AppendInt(dst, whole, 10)
		}
		dst = append(dst, '.', byte('0'+tenth))
	}
	return dst
}

// running is a chart's steps as draw reads them: how many, which are
// drawn (drawnSteps), the values after each of those, and the lowest and
// highest value reached (zero included, where every line starts).
type running struct {
	count  int
	drawn  []int                         // drawnSteps(count)
	row    func(k int) []decimal.Decimal // the values after step drawn[k]+1
	at     func(k int, dst []float64)    // the same as floats, into dst: where they are drawn
	lo, hi decimal.Decimal
}

// runningOf reads steps made beforehand, steps[i][line].
func runningOf(steps [][]decimal.Decimal) *running {
	drawn := drawnSteps(len(steps))
	r := &running{count: len(steps), drawn: drawn, row: func(k int) []decimal.Decimal { return steps[drawn[k]] },
		at: func(k int, dst []float64) {
			for line, v := range steps[drawn[k]] {
				dst[line] = v.InexactFloat64()
			}
		}}
	for _, row := range steps {
		for _, v := range row {
			r.lo, r.hi = decimal.Min(r.lo, v), decimal.Max(r.hi, v)
		}
	}
	return r
}

// wholeRunning is running totals of whole units, kept in int64:
// totals[i*lines+line] is line's value after step i+1, and after the
// last step, where totals ends before it (the pot shared out), last's.
// Only the steps drawn are read, and only the last becomes decimals.
func wholeRunning(count int, drawn []int, totals, last []int64, lines int, lo, hi int64) *running {
	rowOf := func(k int) []int64 {
		if i := drawn[k]; i*lines < len(totals) {
			return totals[i*lines : (i+1)*lines]
		}
		return last
	}
	return &running{count: count, drawn: drawn, lo: decimal.NewFromInt(lo), hi: decimal.NewFromInt(hi),
		row: func(k int) []decimal.Decimal {
			row := make([]decimal.Decimal, lines)
			for line, v := range rowOf(k) {
				row[line] = decimal.NewFromInt(v)
			}
			return row
		},
		at: func(k int, dst []float64) {
			for line, v := range rowOf(k) {
				dst[line] = float64(v)
			}
		}}
}

// dodgeGap is how far apart, in pixels, lines are drawn where their values
// are equal: side by side, not one hiding the other.
const dodgeGap = 3.0

// dodge gives each line's height at one step into at, y of its value:
// lines of equal value are spread dodgeGap apart around it, in their
// order, and moved in together where that would leave lo…hi; a line alone
// at its value stays on it. Values are compared as the floats they are
// drawn from: two amounts a float cannot tell apart are one height.
func dodge(vals []float64, y func(float64) float64, lo, hi float64, at []float64) []float64 {
	for i, v := range vals {
		rank, same := 0, 0
		for j, u := range vals {
			if u == v {
				if j < i {
					rank++
				}
				same++
			}
		}
		spread := float64(same-1) / 2 * dodgeGap
		mid := min(max(y(v), lo+spread), hi-spread)
		at[i] = mid + (float64(rank)-float64(same-1)/2)*dodgeGap
	}
	return at
}
