package payout

import "testing"

// BenchmarkExplanationText renders a Zuger deal's English line, as the
// API's answer to every deal recorded says it ("explanation").
func BenchmarkExplanationText(b *testing.B) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	res, err := ScoreNew(s, Table{}, Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if res.Explanation.Text() == "" {
			b.Fatal("no line")
		}
	}
}

// BenchmarkScoreNew scores a Zuger solo as a deal recorded is scored,
// every check and the zero-sum included.
func BenchmarkScoreNew(b *testing.B) {
	s := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	rec := Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScoreNew(s, Table{}, rec); err != nil {
			b.Fatal(err)
		}
	}
}
