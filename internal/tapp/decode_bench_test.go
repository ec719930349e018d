package tapp

import "testing"

// BenchmarkDecodeForFold reads a stored zuger deal as a replay's fold
// does: most of a rebuild's events are these.
func BenchmarkDecodeForFold(b *testing.B) {
	data := []byte(`{"hand":2,"dealer":"Ben","record":{"contract":"super","declarer":"Cleo","points":54,"tricks":5},"pot_after":"0","deltas":{"Anna":"4","Ben":"4","Cleo":"-12","Dan":"4"},"pot_delta":"0","explanation":{"contract":"super","declarer":"Cleo","outcome":"lost","points":54,"tricks":5,"steps":[{"kind":"base","n":"4","value":"4"}],"value":"4"},"text":"Super by Cleo lost with 54 points in 5 tricks: 4 to each opponent.","ruleset":"2026-11-23.1"}`)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	for b.Loop() {
		if _, err := DecodeForFold(TypeHandRecorded, data, players); err != nil {
			b.Fatal(err)
		}
	}
}
