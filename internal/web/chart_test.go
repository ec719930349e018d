package web

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func decs(vs ...int64) []decimal.Decimal {
	out := make([]decimal.Decimal, len(vs))
	for i, v := range vs {
		out[i] = decimal.NewFromInt(v)
	}
	return out
}

// Lines of equal value are drawn side by side, centred on the value; a line
// alone at its value is drawn on it.
func TestDodgeSpreadsEqualValues(t *testing.T) {
	// y of a value: 50 at 0, ten a unit, down the box 0…100.
	y := func(v float64) float64 { return 50 - 10*v }
	dodge := func(vals ...float64) []float64 { return dodge(vals, y, 0, 100, make([]float64, len(vals))) }
	got := dodge(3, -1, -1, -1)
	want := []float64{20, 60 - dodgeGap, 60, 60 + dodgeGap}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("dodge(3, -1, -1, -1) = %v, want %v", got, want)
		}
	}
	if got := dodge(2, -2, 2, -2); got[0] != 30-dodgeGap/2 || got[2] != 30+dodgeGap/2 || got[1] != 70-dodgeGap/2 || got[3] != 70+dodgeGap/2 {
		t.Fatalf("dodge(2, -2, 2, -2) = %v", got)
	}
	// At the box's edge the equal lines move in together: none leaves it.
	got = dodge(5, -5, -5, -5)
	if got[1] != 100-2*dodgeGap || got[2] != 100-dodgeGap || got[3] != 100 || got[0] != 0 {
		t.Fatalf("dodge(5, -5, -5, -5) = %v: lines outside 0…100", got)
	}
}

// Two players whose balances are the same all evening are two lines a
// reader can tell apart, not one.
func TestChartLinesOfEqualBalancesDoNotCoincide(t *testing.T) {
	c := lineChart{names: []string{"Anna", "Ben", "Cleo"}, seats: []int{0, 1, 2},
		steps: [][]decimal.Decimal{decs(2, -1, -1), decs(4, -2, -2)},
		num:   func(d decimal.Decimal) string { return d.String() }, last: func(d decimal.Decimal) string { return d.String() }}
	v := c.draw()
	// Worked by hand: the box is 300 × 120, values from -2 (y 118) to 4
	// (y 2), zero at 2 + 4/6 × 116 = 79.3; -1 is at 98.7, -2 at 118. The
	// two lines at -1 are drawn 3 apart around it; at -2 they move in
	// together, to end at 118, inside the box's 2…118.
	want := map[string][]point{
		"Anna": {{0, 793}, {1500, 407}, {3000, 20}},
		"Ben":  {{0, 793}, {1500, 972}, {3000, 1150}},
		"Cleo": {{0, 793}, {1500, 1002}, {3000, 1180}},
	}
	if len(v.Lines) != 3 {
		t.Fatalf("%d lines", len(v.Lines))
	}
	for _, l := range v.Lines {
		if got := pathPoints(t, l.Path); !slices.Equal(got, want[l.Name]) {
			t.Errorf("%s is drawn through %v (%q), want %v", l.Name, got, l.Path, want[l.Name])
		}
	}
}

// A move is written as few bytes as SVG's path data reads it.
func TestMovesAreWrittenShort(t *testing.T) {
	for tenths, want := range map[int64]string{0: "0", 5: ".5", -5: "-.5", 17: "1.7", -15: "-1.5", 30: "3", -1160: "-116", 1001: "100.1"} {
		if got := string(appendMove([]byte("l"), tenths)); got != "l"+want {
			t.Errorf("%d tenths: %q, want %q", tenths, got, "l"+want)
		}
	}
}

// A long evening's lines, thinned, still start at zero, end at the last
// deal and stay in the box: their moves add up to where the points are.
func TestChartPathsStayInTheBox(t *testing.T) {
	var steps [][]decimal.Decimal
	a, b := int64(0), int64(0)
	for i := range 700 {
		a, b = a+int64(i%7)-3, b-int64(i%5)+2
		steps = append(steps, decs(a, b, -a-b))
	}
	c := lineChart{names: []string{"Anna", "Ben", "Cleo"}, seats: []int{0, 1, 2}, steps: steps,
		num: func(d decimal.Decimal) string { return d.String() }, last: func(d decimal.Decimal) string { return d.String() }}
	// Zero's height in tenths, as the box places it between the lowest
	// and the highest value reached (zero among them).
	lo, hi := int64(0), int64(0)
	for _, row := range steps {
		for _, v := range row {
			lo, hi = min(lo, v.IntPart()), max(hi, v.IntPart())
		}
	}
	zero := int64(math.Round(10 * (2 + float64(hi)/float64(hi-lo)*116)))
	for _, l := range c.draw().Lines {
		ps := pathPoints(t, l.Path)
		if n := len(drawnSteps(len(steps))) + 1; len(ps) != n {
			t.Fatalf("%s has %d points, want %d", l.Name, len(ps), n)
		}
		if ps[0] != (point{0, zero}) {
			t.Errorf("%s starts at %v, want zero at %v", l.Name, ps[0], point{0, zero})
		}
		if last := ps[len(ps)-1]; last.x != 3000 {
			t.Errorf("%s ends at x %d tenths, want 3000", l.Name, last.x)
		}
		for _, p := range ps {
			if p.y < 0 || p.y > 1200 || p.x < 0 || p.x > 3000 {
				t.Fatalf("%s leaves the box at %v", l.Name, p)
			}
		}
	}
}

// point is a chart's point in tenths of a pixel.
type point struct{ x, y int64 }

// pathPoints reads path data as draw writes it, a move to the start and
// relative lines ("M0 79.3l 150-38.6 150-38.7"), back into its points.
func pathPoints(t *testing.T, d string) []point {
	t.Helper()
	start, moves, ok := strings.Cut(strings.TrimPrefix(d, "M"), "l")
	if !ok || !strings.HasPrefix(d, "M") {
		t.Fatalf("path %q: not a move then lines", d)
	}
	num := regexp.MustCompile(`-?(\d+(\.\d)?|\.\d)`)
	read := func(s string) []int64 {
		var out []int64
		for _, n := range num.FindAllString(s, -1) {
			f, err := strconv.ParseFloat(n, 64)
			if err != nil {
				t.Fatalf("path %q: %v", d, err)
			}
			out = append(out, int64(math.Round(f*10)))
		}
		if rest := strings.TrimSpace(num.ReplaceAllString(s, " ")); rest != "" {
			t.Fatalf("path %q: %q is not numbers", d, rest)
		}
		return out
	}
	xy, ds := read(start), read(moves)
	if len(xy) != 2 || len(ds)%2 != 0 {
		t.Fatalf("path %q: a start of %d numbers, %d moves", d, len(xy), len(ds))
	}
	ps := []point{{xy[0], xy[1]}}
	for i := 0; i < len(ds); i += 2 {
		p := ps[len(ps)-1]
		ps = append(ps, point{p.x + ds[i], p.y + ds[i+1]})
	}
	return ps
}
