package payout

import (
	"fmt"
	"testing"
)

// api.md "Recording a deal": tricks are asked only where they can change
// the money for the points given; a contract tricks alone decide may say
// won or lost instead.
func TestTricksLeftOut(t *testing.T) {
	z := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	pays := func(s Setup, r Record) string {
		t.Helper()
		res, err := ScoreNew(s, Table{}, r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if res.Explanation.Tricks != nil {
			t.Errorf("%+v: the explanation names tricks nobody gave", r)
		}
		return fmt.Sprint(res.Deltas, res.PotDelta)
	}
	counted := func(s Setup, r Record, tricks int) string {
		r.Tricks = ip(tricks)
		res, err := ScoreNew(s, Table{}, r)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res.Deltas, res.PotDelta)
	}
	// A Zuger solo won with 70: the losers' 50 points pay ×1 whatever the tricks.
	if got, want := pays(z, Record{Contract: "solo", Declarer: "Ben", Points: ip(70)}), counted(z, Record{Contract: "solo", Declarer: "Ben", Points: ip(70)}, 5); got != want {
		t.Errorf("solo won with 70: %s, want %s", got, want)
	}
	// Won with 105: the losers' 15 points are in a trick (the talon is the
	// declarer's), so ×2 whatever the count.
	if got, want := pays(z, Record{Contract: "solo", Declarer: "Ben", Points: ip(105)}), counted(z, Record{Contract: "solo", Declarer: "Ben", Points: ip(105)}, 6); got != want {
		t.Errorf("solo won with 105: %s, want %s", got, want)
	}
	// Where the count changes the money it is asked for: the losers' 0
	// points (no trick ×3, a trick of blanks ×2), a lost tapp of 30 that
	// may be the talon alone (no trick ×3).
	refuse(t, z, Table{}, Record{Contract: "solo", Declarer: "Ben", Points: ip(120)}, "tricks", "tricks.money")
	refuse(t, z, Table{}, Record{Contract: "tapp", Declarer: "Ben", Points: ip(30)}, "tricks", "tricks.money")
	// Points no count allows are refused for what they are.
	refuse(t, z, Table{}, Record{Contract: "solo", Declarer: "Ben", Points: ip(121)}, "points", "points.range")
	// A mistake in a field of its own is named, not what one of the counts
	// tried makes of the points.
	m := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	refuse(t, m, Table{}, Record{Contract: "treiben", Declarer: "Ben", Trump: Hearts, Points: ip(80), Kontra: ip(11)}, "kontra", "kontra.range")
	refuse(t, m, Table{}, Record{Contract: "treiben", Declarer: "Ben", Trump: Hearts, Points: ip(5), Matzl: MatzlDeclarer}, "matzl", "matzl.declarer-few-points")

	w := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	if got, want := pays(w, Record{Contract: "bettel", Declarer: "Ben", Won: bp(true)}), counted(w, Record{Contract: "bettel", Declarer: "Ben"}, 0); got != want {
		t.Errorf("bettel won: %s, want %s", got, want)
	}
	if got, want := pays(w, Record{Contract: "durch", Declarer: "Ben", Trump: Clubs, Won: bp(false)}), counted(w, Record{Contract: "durch", Declarer: "Ben", Trump: Clubs}, 7); got != want {
		t.Errorf("durch lost: %s, want %s", got, want)
	}
	// Given with the count, they must agree.
	refuse(t, w, Table{}, Record{Contract: "bettel", Declarer: "Ben", Won: bp(true), Tricks: ip(2)}, "won", "won.tricks")
	if _, err := ScoreNew(w, Table{}, Record{Contract: "bettel", Declarer: "Ben", Won: bp(false), Tricks: ip(2)}); err != nil {
		t.Errorf("bettel lost with 2 tricks: %v", err)
	}
	// A loss says no count: the fields given are checked against every
	// count that loses, and pay as any of them would.
	o := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	toutLost := Record{Contract: "solo", Declarer: "Ben", Tout: bp(true), Won: bp(false), Points: ip(50)}
	if got, want := pays(o, toutLost), counted(o, Record{Contract: "solo", Declarer: "Ben", Tout: bp(true), Points: ip(50)}, 5); got != want {
		t.Errorf("tout lost with 50: %s, want %s", got, want)
	}
	caught := Record{Contract: "trumpf-durch", Declarer: "Ben", Trump: Clubs, Won: bp(false), Matzl: MatzlDeclarer}
	if got, want := pays(m, caught), counted(m, Record{Contract: "trumpf-durch", Declarer: "Ben", Trump: Clubs, Matzl: MatzlDeclarer}, 5); got != want {
		t.Errorf("trumpf-durch lost by the side that caught the matzl: %s, want %s", got, want)
	}
	if got, want := pays(w, Record{Contract: "bettel", Declarer: "Ben", Won: bp(false), Points: ip(50)}), counted(w, Record{Contract: "bettel", Declarer: "Ben", Points: ip(50)}, 4); got != want {
		t.Errorf("bettel lost with 50: %s, want %s", got, want)
	}
	// Only where tricks alone decide.
	refuse(t, z, Table{}, Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Won: bp(true)}, "won", "field.not-taken")
	refuse(t, z, Table{}, Record{Contract: "grand", Won: bp(true)}, "contract", "contract.unknown")
}
