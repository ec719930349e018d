package receipt

import (
	"strings"
	"testing"
	"time"
)

// Names with spaces, a leading quote, or the word "pay" are quoted, so that
// each line splits into exactly its fields and reads back as written.
func TestTextReadsBackAsWritten(t *testing.T) {
	r := Receipt{Game: "g1", Events: 12, Head: strings.Repeat("ab", 32), Closed: time.Date(2026, 11, 28, 21, 5, 0, 0, time.UTC), Currency: "CHF",
		Money: []Line{{"Anna Maria", "-3.50"}, {"pay", "1.00"}, {`"Q" Ben`, "0.00"}, {"Cleo", "2.50"}},
		Pay:   []Pay{{"Anna Maria", "Cleo", "2.50"}, {"Anna Maria", "pay", "1.00"}}}
	text := r.Text()
	want := "tappbook receipt v1\ngame g1\nevents 12\nhead " + r.Head + "\nclosed 2026-11-28T21:05:00Z\ncurrency CHF\n" +
		"\"Anna Maria\" -3.50\n\"pay\" 1.00\n\"\\\"Q\\\" Ben\" 0.00\nCleo 2.50\npay \"Anna Maria\" Cleo 2.50\npay \"Anna Maria\" \"pay\" 1.00\n"
	if text != want {
		t.Fatalf("text:\n%s\nwant:\n%s", text, want)
	}
	back, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if back.Text() != text {
		t.Fatalf("read back as:\n%s", back.Text())
	}
}

// An evening without a currency writes "currency" alone.
func TestNoCurrency(t *testing.T) {
	r := Receipt{Game: "g1", Events: 3, Head: "h", Closed: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Money: []Line{{"Anna", "0"}}}
	if !strings.Contains(r.Text(), "\ncurrency\nAnna 0\n") {
		t.Fatalf("text: %q", r.Text())
	}
	if back, err := Parse(r.Text()); err != nil || back.Currency != "" {
		t.Fatalf("read back: %+v %v", back, err)
	}
}

func TestParseRefuses(t *testing.T) {
	good := "tappbook receipt v1\ngame g1\nevents 3\nhead h\nclosed 2026-01-02T03:04:05Z\ncurrency EUR\nAnna 1.00\nBen -1.00\npay Ben Anna 1.00\n"
	if _, err := Parse(good); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"another header":           strings.Replace(good, "v1", "v2", 1),
		"no count":                 strings.Replace(good, "events 3", "events x", 1),
		"a line out of order":      strings.Replace(good, "game g1\nevents 3", "events 3\ngame g1", 1),
		"money after a payment":    good + "Cleo 0\n",
		"a name quoted, not ended": strings.Replace(good, "Anna 1.00", `"Anna 1.00`, 1),
		"two spaces":               strings.Replace(good, "Anna 1.00", "Anna  1.00", 1),
	} {
		if _, err := Parse(text); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}
