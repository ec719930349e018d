package web

import (
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
	if len(v.Lines) != 3 {
		t.Fatalf("%d lines", len(v.Lines))
	}
	if v.Lines[1].Points == v.Lines[2].Points {
		t.Fatalf("Ben and Cleo are drawn on the same points: %s", v.Lines[1].Points)
	}
	// Each line still has a point for the start and every step.
	for _, l := range v.Lines {
		if n := len(strings.Fields(l.Points)); n != 3 {
			t.Fatalf("%s has %d points: %s", l.Name, n, l.Points)
		}
	}
}
