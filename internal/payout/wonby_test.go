package payout

import "testing"

// Where the descriptor says tricks alone decide a contract (Fields.WonBy),
// they do: the declarer wins with no trick (bettel) or every trick (durch,
// rufer, tout) and loses with any other count. A form that asks "won or
// lost" and fills in the count for "won" records what the rules score.
func TestWonByAgreesWithTheScoring(t *testing.T) {
	setups := map[Variant]Setup{
		Zuger:        setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan"),
		OldTapp:      setupOf(OldTapp, "Anna", "Ben", "Cleo"),
		Matzlfangen:  setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan"),
		Wuerttemberg: setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan"),
	}
	seen := map[string]bool{}
	for _, v := range Variants() {
		s := setups[v]
		for _, c := range Contracts(v) {
			for _, tout := range []bool{false, true} {
				f, _ := ContractFields(v, c, tout)
				if f.WonBy == "" {
					continue
				}
				seen[string(v)+" "+c] = true
				all := TricksPerDeal(s)
				for n := 0; n <= all; n++ {
					r := Record{Contract: c, Declarer: "Ben", Tricks: ip(n)}
					if f.Trump == "required" {
						r.Trump = f.Trumps[0]
					}
					if f.Tout != "" && tout {
						r.Tout = bp(true)
					}
					res, err := Score(s, Table{}, r)
					if err != nil {
						t.Fatalf("%s %s (tout %v) with %d tricks: %v", v, c, tout, n, err)
					}
					want := Lost
					if f.WonBy == WonByNoTrick && n == 0 || f.WonBy == WonByAllTricks && n == all {
						want = Won
					}
					if res.Explanation.Outcome != want {
						t.Errorf("%s %s (tout %v) with %d of %d tricks: %s, but WonBy %q says %s", v, c, tout, n, all, res.Explanation.Outcome, f.WonBy, want)
					}
				}
			}
		}
	}
	if len(seen) != 8 {
		t.Fatalf("tricks alone decide %v; want 8 contracts: Württemberg bettel, open bettel, rufer, durch; Matzlfangen durch, trumpf-durch; old-tapp solo and coeursolo with tout", seen)
	}
}
