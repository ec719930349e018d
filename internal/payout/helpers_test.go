package payout

import (
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

func ip(n int) *int             { return &n }
func bp(b bool) *bool           { return &b }
func d(n int64) decimal.Decimal { return decimal.NewFromInt(n) }

func setupOf(v Variant, players ...string) Setup {
	return Setup{Variant: v, Players: players, Rules: DefaultRules(v)}
}

// dealCase is one hand-worked deal: who deals, the pot before it, the record,
// and the expected changes by seat and for the pot.
type dealCase struct {
	name    string
	cite    string // the rules.md row or example the case checks
	dealer  int
	pot     int64
	rec     Record
	want    []int64
	wantPot int64
	outcome Outcome
	value   int64 // what each opponent pays or receives, -1 to skip
}

func runDeals(t *testing.T, s Setup, cases []dealCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := ScoreNew(s, Table{Dealer: c.dealer, Pot: d(c.pot)}, c.rec)
			if err != nil {
				t.Fatalf("%s: unexpected error: %v", c.cite, err)
			}
			for seat, w := range c.want {
				if !res.Deltas[seat].Equal(d(w)) {
					t.Errorf("%s: %s's change = %s, want %d (all: %v)", c.cite, s.Players[seat], res.Deltas[seat], w, res.Deltas)
				}
			}
			if !res.PotDelta.Equal(d(c.wantPot)) {
				t.Errorf("%s: pot change = %s, want %d", c.cite, res.PotDelta, c.wantPot)
			}
			if c.outcome != "" && res.Explanation.Outcome != c.outcome {
				t.Errorf("%s: outcome = %s, want %s", c.cite, res.Explanation.Outcome, c.outcome)
			}
			if c.value >= 0 && !res.Explanation.Value.Equal(d(c.value)) {
				t.Errorf("%s: value = %s, want %d", c.cite, res.Explanation.Value, c.value)
			}
			if txt := res.Explanation.Text(); txt == "" {
				t.Errorf("%s: empty explanation", c.cite)
			}
		})
	}
}

// refuse asserts that a record is refused with the given message code and
// field.
func refuse(t *testing.T, s Setup, table Table, rec Record, field, code string) {
	t.Helper()
	_, err := Score(s, table, rec)
	ie, ok := problem.As(err)
	if !ok {
		t.Fatalf("record %+v: want input error %s, got %v", rec, code, err)
	}
	if ie.Code != code || ie.Field != field {
		t.Fatalf("record %+v: got %s on %s (%v), want %s on %s", rec, ie.Code, ie.Field, ie, code, field)
	}
}
