package group

import (
	"slices"
	"testing"

	"tappbook/internal/tapp"
)

// What was paid on an evening's transfer is a payment the tab counts, also
// while the evening is reopened: Ben, who lost 7 units (3.50) in evening 1,
// paid Anna her 2.50 there, so the tab has him owe 1.00 more, and so it
// stays once the evening is reopened (its money then out of the tab).
func TestTabCountsWhatWasPaidOnAnEvening(t *testing.T) {
	sc := thursday(t)
	e := play(t, "game1", "zuger", four, "0.50", "CHF").deal(tappWon("Anna", 70, 5)).deal(soloLost("Ben", 50, 3))
	e.close()
	i := slices.IndexFunc(e.g.Closed.All(), func(tr tapp.Transfer) bool { return tr.From == "Ben" && tr.To == "Anna" })
	if i < 0 || e.g.MoneyText(e.g.Closed.All()[i].Amount) != "2.50" {
		t.Fatalf("the close lists %+v: no 2.50 from Ben to Anna", e.g.Closed.All())
	}
	e.run(tapp.MarkPaid{Transfer: i, By: "Ben"})
	games := joined(t, sc, e.g)
	owes := func(want map[string]string) {
		t.Helper()
		tab := sc.state.Tab(games)
		for k, name := range tab.Names {
			if !tab.Owed[k].Equal(d(want[name])) {
				t.Errorf("%s is owed %s, want %s", name, tab.Owed[k], want[name])
			}
		}
	}
	owes(map[string]string{"Anna": "0", "Ben": "-1", "Cleo": "0.5", "Dan": "0.5"})
	if r := sc.state.Tab(games).Reopened; len(r) != 0 {
		t.Errorf("closed, the tab names evenings %v reopened", r)
	}
	games[0] = e.run(tapp.Reopen{Reason: "check"}).g
	owes(map[string]string{"Anna": "-2.5", "Ben": "2.5", "Cleo": "0", "Dan": "0"})
	// The transfers now pay Ben's 2.50 back: the tab says which evening
	// is why, for the pages to tell before anyone pays it.
	if r := sc.state.Tab(games).Reopened; !slices.Equal(r, []int{1}) {
		t.Errorf("reopened, the tab names evenings %v, want [1]", r)
	}
	games[0] = e.close()
	if r := sc.state.Tab(games).Reopened; len(r) != 0 {
		t.Errorf("closed again, the tab names evenings %v reopened", r)
	}
}
