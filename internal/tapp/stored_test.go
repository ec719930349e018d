package tapp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// A deal keeps of its stored payload only what it reads its record and
// explanation from, and reads the same from it as from the whole.
func TestADealKeepsWhatItReads(t *testing.T) {
	pts, tricks := 70, 5
	full, err := encodePayload(HandRecorded{Hand: 12, Dealer: "Anna", PotAfter: decimal.NewFromInt(4),
		Record: payout.Record{Contract: "solo", Declarer: "Ben", Points: &pts, Tricks: &tricks},
		Scored: Scored{Deltas: map[string]decimal.Decimal{"Anna": decimal.NewFromInt(-2), "Ben": decimal.NewFromInt(6), "Cleo": decimal.NewFromInt(-2), "Dan": decimal.NewFromInt(-2)},
			Explanation: json.RawMessage(`{"contract":"solo","declarer":"Ben","outcome":"won","points":70,"tricks":5,"steps":[{"kind":"base","n":"2","value":"2"}],"value":"2"}`),
			Text:        "Solo by Ben won with 70 points in 5 tricks: 2 from each opponent.", Ruleset: payout.RulesetVersion}})
	if err != nil {
		t.Fatal(err)
	}
	var f Folder
	kept := f.keep(bytes.Clone(full))
	whole := stored(full)
	if got, want := kept.record(), whole.record(); !recordsEqual(got, want) {
		t.Errorf("record %+v, want %+v", got, want)
	}
	if got, want := kept.text(), whole.text(); got != want || got == "" {
		t.Errorf("text %q, want %q", got, want)
	}
	if got, want := kept.explanation(), whole.explanation(); !bytes.Equal(got, want) || len(got) == 0 {
		t.Errorf("explanation %s, want %s", got, want)
	}
	if got := kept.ruleset(); got != payout.RulesetVersion {
		t.Errorf("ruleset %q, want %q", got, payout.RulesetVersion)
	}
	for _, gone := range []string{"hand", "dealer", "deltas", "pot_after", "pot_delta"} {
		if _, ok := kept.member(gone); ok {
			t.Errorf("%s kept: %s", gone, kept)
		}
	}
	if len(kept) > len(full)*3/4 {
		t.Errorf("kept %d of %d bytes: %s", len(kept), len(full), kept)
	}
	if !json.Valid(kept) {
		t.Errorf("kept bytes are not JSON: %s", kept)
	}
}

// What a deal keeps is a copy: the bytes it came from may be used again.
func TestADealKeepsACopy(t *testing.T) {
	src := []byte(`{"hand":1,"record":{"contract":"tapp"},"text":"t"}`)
	var f Folder
	kept := f.keep(src)
	clear(src)
	if got := kept.text(); got != "t" {
		t.Fatalf("text %q after the source was cleared", got)
	}
	if _, ok := f.keep([]byte(`{"text":"u"}`)).member("text"); !ok {
		t.Fatal("a second deal's bytes lost their text")
	}
	if got := kept.text(); got != "t" {
		t.Fatalf("text %q after a second deal was kept beside it", got)
	}
}

// A payload the scanner does not read (an escaped member name) is kept
// whole, and encoding/json reads it.
func TestAnOddPayloadIsKeptWhole(t *testing.T) {
	src := []byte(`{"hand":1,"te\u0078t":"escaped name"}`)
	var f Folder
	kept := f.keep(src)
	if !bytes.Equal(kept, src) {
		t.Fatalf("kept %s, want it whole", kept)
	}
	if got := kept.text(); got != "escaped name" {
		t.Fatalf("text %q", got)
	}
}

func recordsEqual(a, b payout.Record) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
