package web

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// A chart's positions are written through integers as strconv writes
// them: given positions across and beyond the box — every twentieth (the
// halves of a tenth, where rounding is closest), their neighbouring
// floats, random ones, negatives, huge and not-a-number — when each is
// written, then the bytes are strconv's.
func TestTenthsAreWrittenAsStrconvWritesThem(t *testing.T) {
	var fs []float64
	for i := range 20 * 400 {
		f := float64(i) / 20
		fs = append(fs, f, math.Nextafter(f, 0), math.Nextafter(f, 1000), f+0.05, f*1.1)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		fs = append(fs, r.Float64()*400, r.Float64()*1e13)
	}
	fs = append(fs, -0.04, -0.05, -3.25, -0, 1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 1<<39, 1<<41)
	for _, f := range fs {
		if got, want := string(appendTenths([]byte("x"), f)), "x"+strconv.FormatFloat(f, 'f', 1, 64); got != want {
			t.Fatalf("%v (%b): wrote %q, strconv %q", f, math.Float64bits(f), got, want)
		}
	}
}
