package tapp

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/shopspring/decimal"
)

// minTransfers is an independent exact answer (depth-first search over who
// the first open balance settles with), to check Settle's count against.
func minTransfers(b []int64) int {
	var dfs func(i int, b []int64) int
	dfs = func(i int, b []int64) int {
		for i < len(b) && b[i] == 0 {
			i++
		}
		if i == len(b) {
			return 0
		}
		best := len(b)
		for j := i + 1; j < len(b); j++ {
			if b[j]*b[i] < 0 {
				b[j] += b[i]
				best = min(best, 1+dfs(i+1, b))
				b[j] -= b[i]
			}
		}
		return best
	}
	return dfs(0, append([]int64(nil), b...))
}

func randomBalances(rng *rand.Rand, n int) []int64 {
	b := make([]int64, n)
	var sum int64
	for i := 0; i < n-1; i++ {
		switch rng.IntN(4) {
		case 0:
			b[i] = 0
		case 1: // small values make zero-sum subgroups common
			b[i] = int64(rng.IntN(7) - 3)
		default:
			b[i] = int64(rng.IntN(200) - 100)
		}
		sum += b[i]
	}
	b[n-1] = -sum
	return b
}

func check(t *testing.T, players []string, b []int64, ts []Transfer) {
	t.Helper()
	left := map[string]decimal.Decimal{}
	for i, p := range players {
		left[p] = decimal.NewFromInt(b[i])
	}
	for _, tr := range ts {
		if !tr.Amount.IsPositive() || tr.From == tr.To {
			t.Fatalf("balances %v: bad transfer %+v", b, tr)
		}
		left[tr.From] = left[tr.From].Add(tr.Amount)
		left[tr.To] = left[tr.To].Sub(tr.Amount)
	}
	for p, v := range left {
		if !v.IsZero() {
			t.Fatalf("balances %v: %s is left at %s after %+v", b, p, v, ts)
		}
	}
}

// Transfers zero every balance and are as few as possible, for every table
// of 2 to 6 players tried.
func TestSettleFewestTransfers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 2; n <= 6; n++ {
		players := []string{"Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"}[:n]
		for range 3000 {
			b := randomBalances(rng, n)
			bal := make([]decimal.Decimal, n)
			for i, v := range b {
				bal[i] = decimal.NewFromInt(v)
			}
			ts := Settle(players, bal)
			check(t, players, b, ts)
			if want := minTransfers(b); len(ts) != want {
				t.Fatalf("balances %v: %d transfers %+v, the fewest is %d", b, len(ts), ts, want)
			}
			if again := Settle(players, bal); !reflect.DeepEqual(again, ts) {
				t.Fatalf("balances %v: a second settlement differs", b)
			}
		}
	}
}

func TestSettleExamples(t *testing.T) {
	d := func(xs ...int64) []decimal.Decimal {
		out := make([]decimal.Decimal, len(xs))
		for i, x := range xs {
			out[i] = decimal.NewFromInt(x)
		}
		return out
	}
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	cases := []struct {
		bal  []decimal.Decimal
		want string
	}{
		{d(0, 0, 0, 0), "[]"},
		{d(5, -5, 3, -3), "[Ben→Anna 5 Dan→Cleo 3]"},   // two pairs: 2 transfers, not 3
		{d(10, -4, -6, 0), "[Cleo→Anna 6 Ben→Anna 4]"}, // largest debtor first
		{d(-1, -1, -1, 3), "[Anna→Dan 1 Ben→Dan 1 Cleo→Dan 1]"},
	}
	for _, c := range cases {
		var got []string
		for _, tr := range Settle(players, c.bal) {
			got = append(got, fmt.Sprintf("%s→%s %s", tr.From, tr.To, tr.Amount))
		}
		if s := fmt.Sprint(got); s != c.want && !(c.want == "[]" && len(got) == 0) {
			t.Errorf("%v: %s, want %s", c.bal, s, c.want)
		}
	}
}

// A group's tab has more people than a table (api.md "Groups": transfers
// settle it "with the fewest payments, exactly"): balances made of k planted
// groups that each sum to zero settle in at most n−k payments, for up to
// exactLimit people.
func TestSettleFewestForAGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	var players []string
	for i := range exactLimit {
		players = append(players, fmt.Sprintf("P%02d", i))
	}
	for round := range 300 {
		n := 8 + rng.IntN(exactLimit-7)
		var b []int64
		groups := 0
		for len(b) < n {
			size := min(2+rng.IntN(4), n-len(b))
			if size < 2 { // a lone balance cannot be a group: widen the last
				b[len(b)-1] += 5
				b = append(b, -5)
				continue
			}
			var sum int64
			for range size - 1 {
				v := int64(rng.IntN(60) + 1)
				if rng.IntN(2) == 0 {
					v = -v
				}
				b = append(b, v)
				sum += v
			}
			if sum == 0 { // the group's last balance must not be zero
				b[len(b)-1] += 7
				sum = 7
			}
			b = append(b, -sum)
			groups++
		}
		rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		bal := make([]decimal.Decimal, len(b))
		for i, v := range b {
			bal[i] = decimal.NewFromInt(v).Div(decimal.NewFromInt(4)) // quarters: the sums are exact in units of the smallest place
		}
		ts := Settle(players[:n], bal)
		left := map[string]decimal.Decimal{}
		for i, p := range players[:n] {
			left[p] = bal[i]
		}
		for _, tr := range ts {
			left[tr.From] = left[tr.From].Add(tr.Amount)
			left[tr.To] = left[tr.To].Sub(tr.Amount)
		}
		for p, v := range left {
			if !v.IsZero() {
				t.Fatalf("round %d: %s is left at %s", round, p, v)
			}
		}
		if len(ts) > n-groups {
			t.Fatalf("round %d, balances %v: %d transfers, but %d groups summing to zero settle in %d", round, b, len(ts), groups, n-groups)
		}
	}
	// The audit's case: 11 people owing or owed, four groups summing to
	// zero, seven payments (the greedy settlement took eight).
	owed := []int64{-39, 14, -31, -1, 12, 14, -14, 0, 25, 16, 3, 1}
	bal := make([]decimal.Decimal, len(owed))
	for i, v := range owed {
		bal[i] = decimal.NewFromInt(v)
	}
	if ts := Settle(players[:len(owed)], bal); len(ts) != 7 {
		t.Fatalf("%v: %d transfers %+v, want 7", owed, len(ts), ts)
	}
}

// BenchmarkSettleAtTheLimit is the exact search at its limit.
func BenchmarkSettleAtTheLimit(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	var players []string
	for i := range exactLimit {
		players = append(players, fmt.Sprintf("P%02d", i))
	}
	raw := randomBalances(rng, exactLimit)
	bal := make([]decimal.Decimal, len(raw))
	for i, v := range raw {
		if v == 0 {
			v = 1
			raw[len(raw)-1]--
		}
		bal[i] = decimal.NewFromInt(v)
	}
	bal[len(bal)-1] = decimal.NewFromInt(raw[len(raw)-1])
	for b.Loop() {
		Settle(players, bal)
	}
}

// Above the exact limit the greedy settlement still zeroes every balance in
// at most n−1 transfers.
func TestSettleManyPlayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var players []string
	for i := range exactLimit + 4 {
		players = append(players, fmt.Sprintf("P%02d", i))
	}
	for range 200 {
		b := randomBalances(rng, len(players))
		bal := make([]decimal.Decimal, len(b))
		for i, v := range b {
			bal[i] = decimal.NewFromInt(v)
		}
		ts := Settle(players, bal)
		check(t, players, b, ts)
		if len(ts) > len(players)-1 {
			t.Fatalf("%d transfers for %d players", len(ts), len(players))
		}
	}
}

func TestMoney(t *testing.T) {
	cases := []struct {
		unit, currency string
		units          int64
		want           string
	}{
		{"0.50", "CHF", 14, "7.00"},
		{"0.5", "CHF", -3, "-1.50"},
		{"1", "", 14, "14"},
		{"0.05", "", 3, "0.15"},
		{"100", "JPY", 2, "200"},
		{"0.125", "EUR", 1, "0.125"},
		{"1", "KWD", 1, "1.000"},
	}
	for _, c := range cases {
		g := &State{Unit: decimal.RequireFromString(c.unit), UnitText: c.unit, Currency: c.currency}
		if got := g.MoneyText(decimal.NewFromInt(c.units)); got != c.want {
			t.Errorf("%d units at %s %s = %q, want %q", c.units, c.unit, c.currency, got, c.want)
		}
	}
	for _, bad := range []string{"CH", "C1F", "EURO"} {
		if _, err := CheckCurrency(bad); err == nil {
			t.Errorf("currency %q accepted", bad)
		}
	}
	if c, err := CheckCurrency("sek"); err != nil || c != "SEK" {
		t.Errorf("sek → %q, %v", c, err)
	}
}

// A stored close whose payments do not settle the standings is refused when
// it is read (verify, import, a restart), whatever wrote it: who pays whom
// can never disagree with the balances (rules.md: "who pays whom how much
// at the end").
func TestFoldRefusesAClosingThatDoesNotSettle(t *testing.T) {
	st := oldTapp(t).state // Anna -7, Ben -7, Cleo 14, pot 0
	noSplit := map[string]decimal.Decimal{"Anna": decimal.Zero, "Ben": decimal.Zero, "Cleo": decimal.Zero}
	pay := func(from, to string, n int64) Transfer {
		return Transfer{From: from, To: to, Amount: decimal.New(n, 0)}
	}
	good := []Transfer{pay("Anna", "Cleo", 7), pay("Ben", "Cleo", 7)}
	if _, err := Evolve(st, Event{Version: st.Version + 1, At: at, Data: GameClosed{Split: noSplit, Transfers: good}}); err != nil {
		t.Fatalf("a close that settles exactly is refused: %v", err)
	}
	for name, ts := range map[string][]Transfer{
		"too much":         {pay("Cleo", "Anna", 1000)},
		"one payment left": {pay("Anna", "Cleo", 7)},
		"a stranger":       {pay("Anna", "Cleo", 7), pay("Eve", "Cleo", 7)},
		"to themselves":    {pay("Anna", "Cleo", 7), pay("Ben", "Cleo", 7), pay("Ben", "Ben", 3)},
		"nothing paid":     {pay("Anna", "Cleo", 7), pay("Ben", "Cleo", 7), pay("Ben", "Anna", 0)},
		"a negative":       {pay("Anna", "Cleo", 14), pay("Anna", "Ben", -7)},
	} {
		if _, err := Evolve(st, Event{Version: st.Version + 1, At: at, Data: GameClosed{Split: noSplit, Transfers: ts}}); err == nil {
			t.Errorf("%s: a close paying %v on balances %v was folded", name, ts, st.Balances())
		}
	}
}
