package group

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// An evening played in memory through internal/tapp's own commands, as the
// service plays it: started, its deals recorded, closed if asked.
type evening struct {
	t testing.TB
	g *tapp.State
}

func play(t testing.TB, id, variant string, players []string, unit, currency string) *evening {
	t.Helper()
	e := &evening{t: t, g: tapp.New(id)}
	return e.run(tapp.Start{ID: id, ReadID: "r" + id, Variant: variant, Players: players, Unit: unit, Currency: currency, Group: "grp1"})
}

func (e *evening) run(c tapp.Command) *evening {
	e.t.Helper()
	ps, err := tapp.Decide(e.g, c)
	if err != nil {
		e.t.Fatalf("%T %+v: %v", c, c, err)
	}
	evs := make([]tapp.Event, len(ps))
	for i, p := range ps {
		evs[i] = tapp.Event{Version: e.g.Version + int64(i) + 1, At: at, Data: p}
	}
	if e.g, err = tapp.Evolve(e.g, evs...); err != nil {
		e.t.Fatal(err)
	}
	return e
}

func (e *evening) deal(r payout.Record) *evening { return e.run(tapp.RecordHand{Record: r}) }
func (e *evening) close() *tapp.State            { return e.run(tapp.Close{}).g }

func ip(n int) *int { return &n }

func tappWon(who string, points, tricks int) payout.Record {
	return payout.Record{Contract: "tapp", Declarer: who, Points: ip(points), Tricks: ip(tricks)}
}

func soloLost(who string, points, tricks int) payout.Record {
	return payout.Record{Contract: "solo", Declarer: who, Points: ip(points), Tricks: ip(tricks)}
}

var four = []string{"Anna", "Ben", "Cleo", "Dan"}

// joined lists the games as evenings of the group and gives the games
// aligned with its evenings.
func joined(t testing.TB, sc *scenario, games ...*tapp.State) []*tapp.State {
	t.Helper()
	for _, g := range games {
		sc.and(JoinEvening{Game: g.ID, ReadID: g.ReadID, Players: g.Setup.Players, Unit: g.UnitText, Currency: g.Currency})
	}
	return games
}

func TestTabOfClosedEveningsLessPayments(t *testing.T) {
	sc := thursday(t)
	// Evening 1: Anna wins a tapp (1 unit from each), Ben loses a solo
	// (2 units to each): Anna +3+2 = 5, Ben −1−6 = −7, Cleo −1+2 = 1, Dan 1.
	e1 := play(t, "game1", "zuger", four, "0.50", "CHF").deal(tappWon("Anna", 70, 5)).deal(soloLost("Ben", 50, 3)).close()
	// Evening 2 is still being played: it does not count yet.
	e2 := play(t, "game2", "zuger", four, "0.50", "CHF").deal(tappWon("Dan", 80, 6))
	games := joined(t, sc, e1, e2.g)
	sc.and(RecordPayment{From: "Ben", To: "Anna", Amount: "1.50"}, RecordPayment{From: "Ben", To: "Cleo", Amount: "9"},
		RecordPayment{From: "Cleo", To: "Dan", Amount: "2"}, VoidPayment{Payment: 3, Reason: "never paid"})
	tab := sc.state.Tab(games)
	want := map[string]string{"Anna": "1", "Ben": "7", "Cleo": "-8.5", "Dan": "0.5"}
	if tab.Evenings != 1 || len(tab.Names) != 4 {
		t.Fatalf("tab %+v", tab)
	}
	for i, name := range tab.Names {
		if !tab.Owed[i].Equal(d(want[name])) {
			t.Errorf("%s is owed %s, want %s", name, tab.Owed[i], want[name])
		}
	}
	settles(t, tab)
	if len(tab.Transfers) != 3 {
		t.Fatalf("%d transfers, want 3: %+v", len(tab.Transfers), tab.Transfers)
	}
}

// settles checks that the transfers bring every member's tab to zero.
func settles(t *testing.T, tab Tab) {
	t.Helper()
	left := map[string]string{}
	owed := map[string]decimal.Decimal{}
	for i, n := range tab.Names {
		owed[n] = tab.Owed[i]
	}
	for _, tr := range tab.Transfers {
		if !tr.Amount.IsPositive() {
			t.Fatalf("transfer %+v", tr)
		}
		owed[tr.From] = owed[tr.From].Add(tr.Amount)
		owed[tr.To] = owed[tr.To].Sub(tr.Amount)
	}
	for n, v := range owed {
		if !v.IsZero() {
			left[n] = v.String()
		}
	}
	if len(left) > 0 {
		t.Fatalf("after the transfers %v is still owed: %+v", left, tab.Transfers)
	}
}

func TestCashRounding(t *testing.T) {
	step, ok := CashStep("CHF")
	if !ok || !step.Equal(d("0.05")) {
		t.Fatalf("CHF step %s %v", step, ok)
	}
	// Anna is owed 3.565; Ben owes 3.52, Cleo 0.02, Dan 0.025.
	names := []string{"Anna", "Ben", "Cleo", "Dan"}
	got := CashTransfers(names, []decimal.Decimal{d("3.565"), d("-3.52"), d("-0.02"), d("-0.025")}, step)
	if fmt.Sprint(got) != fmt.Sprint([]tapp.Transfer{{From: "Ben", To: "Anna", Amount: d("3.50")}, {From: "Dan", To: "Anna", Amount: d("0.05")}}) {
		t.Fatalf("rounded %+v", got)
	}
	// Sara is owed 12 crowns by Nils (8.50) and Erik (3.50): she gets 12,
	// not 9 + 4 (each payment rounded on its own).
	sek, _ := CashStep("SEK")
	got = CashTransfers([]string{"Nils", "Erik", "Sara"}, []decimal.Decimal{d("-8.50"), d("-3.50"), d("12.00")}, sek)
	paid := decimal.Zero
	for _, tr := range got {
		if tr.To != "Sara" {
			t.Fatalf("%+v: only Sara is owed", got)
		}
		paid = paid.Add(tr.Amount)
	}
	if !paid.Equal(d("12")) || len(got) != 2 {
		t.Fatalf("Sara is paid %s in %+v, want 12 in two payments", paid, got)
	}
	if _, ok := CashStep("EUR"); ok {
		t.Fatal("EUR has a cash step")
	}
}

// Property: for any tab, the cash payments move everyone to a multiple of
// the step within less than one step of the exact balance, and settle
// those rounded balances exactly (what is paid in adds up to what is paid
// out, per member and in all).
func TestCashRoundingProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, currency := range []string{"CHF", "SEK", "DKK", "HUF"} {
		step, _ := CashStep(currency)
		for range 500 {
			n := 2 + rng.IntN(20) // past 16 too, where the plan is greedy
			names := make([]string, n)
			owed := make([]decimal.Decimal, n)
			sum := decimal.Zero
			for i := range n - 1 {
				names[i] = fmt.Sprintf("p%d", i)
				owed[i] = decimal.New(rng.Int64N(2000001)-1000000, -int32(2+rng.IntN(3))) // 2 to 4 places
				sum = sum.Add(owed[i])
			}
			names[n-1], owed[n-1] = fmt.Sprintf("p%d", n-1), sum.Neg()
			kept := slices.Clone(owed)
			got := CashTransfers(names, owed, step)
			if fmt.Sprint(kept) != fmt.Sprint(owed) {
				t.Fatalf("%s: CashTransfers changed the balances it was given", currency)
			}
			moved := map[string]decimal.Decimal{}
			pays, gets := map[string]bool{}, map[string]bool{}
			for _, tr := range got {
				if !tr.Amount.IsPositive() || !tr.Amount.Mod(step).IsZero() {
					t.Fatalf("%s %v: a payment of %s", currency, owed, tr.Amount)
				}
				moved[tr.From] = moved[tr.From].Sub(tr.Amount)
				moved[tr.To] = moved[tr.To].Add(tr.Amount)
				pays[tr.From], gets[tr.To] = true, true
			}
			for i, name := range names {
				// The rounded balance is what the payments move, within a
				// step of the exact, never on the other side of zero; and
				// nobody both pays and is paid.
				if diff := moved[name].Sub(owed[i]).Abs(); diff.GreaterThanOrEqual(step) || moved[name].Sign()*owed[i].Sign() < 0 || pays[name] && gets[name] {
					t.Fatalf("%s %v: %s is moved %s for an exact %s (%+v)", currency, owed, name, moved[name], owed[i], got)
				}
			}
		}
	}
}

func TestStats(t *testing.T) {
	sc := thursday(t)
	e1 := play(t, "game1", "zuger", four, "0.50", "CHF").deal(tappWon("Anna", 70, 5)).deal(soloLost("Ben", 50, 3)).close()
	// Evening 2: three of them play Württemberg; Dan sits out.
	e2 := play(t, "game2", "wuerttemberg", []string{"Cleo", "Anna", "Ben"}, "0.50", "CHF").
		deal(payout.Record{Contract: "suit", Declarer: "Cleo", Trump: "clubs", Points: ip(70), Tricks: ip(5)}).
		deal(payout.Record{Contract: "suit", Declarer: "Anna", Trump: "clubs", Points: ip(40), Tricks: ip(3)}).
		run(tapp.VoidHand{Hand: 2, Reason: "misdeal"}).
		deal(payout.Record{Contract: "suit", Declarer: "Anna", Trump: "hearts", Points: ip(80), Tricks: ip(6)}).close()
	open := play(t, "game3", "zuger", four, "0.50", "CHF").deal(tappWon("Dan", 80, 6))
	// Two evenings started by mistake and closed with nothing played (one
	// had its only deal taken back) are in no one's statistics.
	empty := play(t, "game4", "zuger", four, "0.50", "CHF").close()
	undone := play(t, "game5", "old-tapp", []string{"Anna", "Ben", "Cleo"}, "0.50", "CHF").
		deal(payout.Record{Contract: "pass"}).run(tapp.RetractHand{Hand: 1, Reason: "started by mistake"}).close()
	games := joined(t, sc, e1, empty, e2, open.g, undone)
	if tab := sc.state.Tab(games); tab.Evenings != 2 {
		t.Fatalf("the tab counts %d evenings, the statistics 2", tab.Evenings)
	}
	st := sc.state.Stats(games)
	if len(st.Evenings) != 2 || st.Evenings[0].Game != "game1" || st.Evenings[1].Variant != payout.Wuerttemberg {
		t.Fatalf("evenings %+v", st.Evenings)
	}
	by := map[string]PlayerStats{}
	for _, p := range st.Players {
		by[p.Name] = p
	}
	// Anna: evening 1 +2.50 (5 units), evening 2: Cleo's suit won 5 from
	// each (−5), Anna's hearts suit won 10 from each (+20): +15 units = 7.50.
	anna := by["Anna"]
	if anna.Evenings != 2 || anna.Deals != 4 || anna.Declared != 2 || anna.DeclaredWon != 2 {
		t.Fatalf("Anna %+v", anna.Line)
	}
	if !anna.Won.Equal(d("10")) || !anna.Lost.IsZero() || !anna.Net().Equal(d("10")) {
		t.Fatalf("Anna won %s lost %s", anna.Won, anna.Lost)
	}
	if anna.Best.Game != "game2" || !anna.Best.Money.Equal(d("7.5")) || anna.Worst.Game != "game1" {
		t.Fatalf("Anna best %+v worst %+v", anna.Best, anna.Worst)
	}
	if len(anna.Running) != 2 || !anna.Running[0].Equal(d("2.5")) || !anna.Running[1].Equal(d("10")) {
		t.Fatalf("Anna running %v", anna.Running)
	}
	if pct, ok := anna.WonPercent(); !ok || !pct.Equal(d("100")) {
		t.Fatalf("Anna won %% %s %v", pct, ok)
	}
	// Ben: −3.50 in evening 1, −7.50 in evening 2 (5 to Cleo, 10 to Anna).
	ben := by["Ben"]
	if ben.Declared != 1 || ben.DeclaredWon != 0 || !ben.Lost.Equal(d("11")) {
		t.Fatalf("Ben %+v", ben.Line)
	}
	if pct, _ := ben.WonPercent(); !pct.IsZero() {
		t.Fatalf("Ben won %s%%", pct)
	}
	dan := by["Dan"]
	if dan.Evenings != 1 || dan.Deals != 2 || len(dan.Variants) != 1 || dan.Variants[0].Variant != payout.Zuger {
		t.Fatalf("Dan %+v", dan)
	}
	if _, ok := dan.WonPercent(); ok {
		t.Fatal("Dan declared nothing but has a won %")
	}
	// Dan's running total stays where it was over the evening he sat out.
	if !dan.Running[0].Equal(dan.Running[1]) {
		t.Fatalf("Dan running %v", dan.Running)
	}
	// Per variant: Anna's Württemberg line holds that evening alone.
	if len(anna.Variants) != 2 || anna.Variants[0].Variant != payout.Zuger || anna.Variants[1].Evenings != 1 ||
		!anna.Variants[1].Won.Equal(d("7.5")) || anna.Variants[1].Deals != 2 {
		t.Fatalf("Anna by variant %+v", anna.Variants)
	}
	// Every evening's money sums to zero over the players, so the running
	// totals do too.
	for k := range st.Evenings {
		sum := d("0")
		for _, p := range st.Players {
			sum = sum.Add(p.Running[k])
		}
		if !sum.IsZero() {
			t.Fatalf("running totals after evening %d sum to %s", k+1, sum)
		}
	}
}

// A deal whose payments a caught matzl cancelled was still won or lost at
// the table (rules.md, Matzlfangen: the side that caught it lost): the
// statistics count it so, though nobody paid.
func TestStatsCountADealTheMatzlCancelled(t *testing.T) {
	sc := thursday(t)
	e := play(t, "game1", "matzlfangen", four, "0.50", "CHF").
		// Dan wins his Treiben; the defenders caught the matzl.
		deal(payout.Record{Contract: "treiben", Declarer: "Dan", Trump: "hearts", Points: ip(70), Tricks: ip(5), Matzl: "defenders"}).
		// Ben loses his Neid, having caught the matzl himself.
		deal(payout.Record{Contract: "neid", Declarer: "Ben", Points: ip(50), Tricks: ip(3), Matzl: "declarer"}).close()
	st := sc.state.Stats(joined(t, sc, e))
	by := map[string]PlayerStats{}
	for _, p := range st.Players {
		by[p.Name] = p
	}
	if dan := by["Dan"]; dan.Declared != 1 || dan.DeclaredWon != 1 {
		t.Fatalf("Dan won his Treiben, its payments cancelled: %+v", dan.Line)
	}
	if ben := by["Ben"]; ben.Declared != 1 || ben.DeclaredWon != 0 {
		t.Fatalf("Ben lost his Neid, its payments cancelled: %+v", ben.Line)
	}
}
