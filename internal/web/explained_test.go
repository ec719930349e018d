package web

import (
	"fmt"
	"testing"

	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// A deal's explanation said through the kept sentences is the sentence
// said afresh, in each language; a deal explained otherwise is said as
// itself, and no more than two generations of sentences are kept.
func TestExplanationsAreSaidOnceEachLanguage(t *testing.T) {
	bundle := loadBundle(t)
	pts := func(n int) *int { return &n }
	cmds := []tapp.Command{tapp.Start{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}}
	for i := range 200 {
		cmds = append(cmds, tapp.RecordHand{Record: payout.Record{Contract: "solo", Declarer: []string{"Anna", "Ben", "Cleo", "Dan"}[i%4],
			Points: pts(40 + i%50), Tricks: pts(2 + i%5)}})
	}
	g := foldEvening(t, cmds...)
	x := newExplained()
	for _, lang := range []string{"en", "de", "sv", "en"} {
		loc := bundle.For(lang)
		for _, h := range g.Hands() {
			if got, want := x.say(loc, h.Result()), h.Result().Explanation().Render(loc); got != want {
				t.Fatalf("%s, deal %d: said %q, afresh %q", lang, h.Number, got, want)
			}
		}
	}
	// Sentences beyond a generation's: the older generation goes.
	s := x.langs["en"]
	for i := range 3 * explainedKept {
		s.keep(fmt.Sprint(i), "said")
	}
	if n := len(s.now) + len(s.old); n > 2*explainedKept {
		t.Errorf("%d sentences kept, at most %d", n, 2*explainedKept)
	}
	if en, de := x.say(bundle.For("en"), g.Hands()[0].Result()), x.say(bundle.For("de"), g.Hands()[0].Result()); en == de {
		t.Errorf("deal 1 is said alike in English and German: %s", en)
	}
}
