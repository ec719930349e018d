package tapp

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// The deal events write themselves byte for byte as encoding/json writes
// them: random recorded deals of every variant, as recorded, corrected and
// re-scored, with names and reasons that need escaping, amounts with
// places, and explanations encoding/json would compact.
func TestEventsEncodeAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	odd := []string{"", `A"n<n>a & B\o`, "line\nbreak\u2028", "Björn", "\xff"}
	check := func(p interface {
		Payload
		AppendJSON([]byte) ([]byte, error)
	}) {
		t.Helper()
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.AppendJSON([]byte("prefix"))
		if err != nil || string(got) != "prefix"+string(want) {
			t.Fatalf("%T:\n%s\nwant\nprefix%s (%v)", p, got, want, err)
		}
	}
	for i, data := range randomRecorded(t, 3000) {
		var p HandRecorded
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		if i%7 == 0 {
			name := odd[rng.IntN(len(odd))]
			p.Dealer, p.Record.Declarer, p.Text = name, name, name
			p.Deltas[name] = decimal.New(-3, -1)
		}
		switch i % 11 {
		case 0:
			p.Explanation = json.RawMessage(`{"contract": "solo", "steps": [ ]}`)
		case 1:
			p.Explanation = json.RawMessage(`{"contract":"a<b"}`)
		case 2:
			p.Explanation, p.Deltas = nil, nil
		}
		check(p)
		reason := odd[rng.IntN(len(odd))]
		check(HandCorrected{Hand: p.Hand, Record: p.Record, Reason: reason, PotAfter: p.PotAfter, Scored: p.Scored})
		check(HandRescored{Hand: p.Hand, Cause: rng.IntN(p.Hand + 1), PotAfter: p.PotAfter, Scored: p.Scored})
	}
}
