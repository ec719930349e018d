package i18n

import (
	"regexp"
	"strings"
	"testing"

	"tappbook/internal/payout"
)

// Swedish participles agree with their noun: "ett färgspel … vunnet", "en
// bettel … vunnen". The contracts are of both genders (and some have none a
// card player would agree on), so the Swedish explanation says how a deal
// ended with a verb that does not agree: "Färgspel vanns av Ben".
func TestSwedishOutcomeDoesNotAgreeWithTheContract(t *testing.T) {
	b := load(t)
	sv := b.For("sv")
	participle := regexp.MustCompile(`(?i)\b(vunnen|vunnet|vunna|förlorad|förlorat|förlorade|oavgjord|jämn|jämnt|spelad|spelat)\b`)
	verbs := map[payout.Outcome]string{
		payout.Won:  "vanns av Ben med 70 ögon",
		payout.Lost: "förlorades av Ben med 70 ögon",
		payout.Draw: "spelades oavgjort av Ben med 70 ögon",
		payout.Even: "varken vanns eller förlorades av Ben med 70 ögon",
	}
	pts := 70
	contracts := 0
	for _, key := range b.Keys("sv") {
		c, ok := strings.CutPrefix(key, "contract.")
		if !ok || c == "pass" || c == "ramsch" {
			continue
		}
		contracts++
		for outcome, verb := range verbs {
			e := payout.Explanation{Contract: c, Declarer: "Ben", Outcome: outcome, Points: &pts}
			got := e.Render(sv)
			if m := participle.FindString(got); m != "" {
				t.Errorf("%s %s: %q says %q, which agrees with the contract's gender", c, outcome, got, m)
			}
			if !strings.Contains(got, verb) {
				t.Errorf("%s %s: %q, want %q", c, outcome, got, verb)
			}
		}
	}
	if contracts < 15 {
		t.Fatalf("only %d contracts", contracts)
	}
	w := payout.Setup{Variant: payout.Wuerttemberg, Players: []string{"Anna", "Ben", "Cleo"}, Rules: payout.DefaultRules(payout.Wuerttemberg)}
	res, err := payout.Score(w, payout.Table{}, payout.Record{Contract: "suit", Declarer: "Ben", Trump: payout.Clubs, Points: &pts})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Explanation.Render(sv), "Färgspel (klöver) vanns av Ben med 70 ögon: 5 från varje motspelare."; got != want {
		t.Errorf("Swedish suit game: %q, want %q", got, want)
	}
}

// German puts the participle last ("Solo von Anna mit 100 Augen gewonnen"),
// not before what it was won with ("gewonnen mit 100 Augen"); exactly 60 in
// a coeurfrage is neither won nor lost, said so.
func TestGermanParticipleComesLast(t *testing.T) {
	b := load(t)
	de := b.For("de")
	pts, tricks := 100, 6
	for outcome, want := range map[payout.Outcome]string{
		payout.Won:  "Solo von Anna mit 100 Augen in 6 Stichen gewonnen: ",
		payout.Lost: "Solo von Anna mit 100 Augen in 6 Stichen verloren: ",
		payout.Draw: "Solo von Anna mit 100 Augen in 6 Stichen unentschieden: ",
		payout.Even: "Solo von Anna mit 100 Augen in 6 Stichen weder gewonnen noch verloren: ",
	} {
		e := payout.Explanation{Contract: "solo", Declarer: "Anna", Outcome: outcome, Points: &pts, Tricks: &tricks}
		if got := e.Render(de); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to start %q", outcome, got, want)
		}
	}
}

// In rufen each opponent pays one of the two winners: Swedish says "till var
// sin av de två", not "en till var och en av de två", where "en" reads as
// the number one.
func TestSwedishRufenPaysOneEach(t *testing.T) {
	b := load(t)
	m := payout.Setup{Variant: payout.Matzlfangen, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Matzlfangen)}
	for pts, want := range map[int]string{
		70: "Rufen vanns av Anna och Cleo med 70 ögon på 5 stick: 1 från varje motspelare, till var sin av de två.",
		50: "Rufen förlorades av Anna och Cleo med 50 ögon på 3 stick: 1 till varje motspelare, från var sin av de två.",
	} {
		tricks := 5
		if pts < 66 {
			tricks = 3
		}
		res, err := payout.Score(m, payout.Table{Dealer: 3}, payout.Record{Contract: "rufen", Partner: "Cleo", Points: &pts, Tricks: &tricks})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Explanation.Render(b.For("sv")); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
}

// Swedish participles agree in number too: one deal "omräknad", several
// "omräknade"; several deals wait as "givar", not "giv".
func TestSwedishNumberAgreement(t *testing.T) {
	b := load(t)
	sv := b.For("sv")
	for _, c := range []struct{ got, want string }{
		{sv.T("table.rescored", 1, "4"), "Omräknad eftersom potten före den ändrades: giv 4."},
		{sv.T("table.rescored", 2, "4, 5"), "Omräknade eftersom potten före dem ändrades: givar 4, 5."},
		{sv.T("queue.many", "3"), "3 givar väntar på att skickas"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// German: rounded up "auf" a number; a pot shared "zu gleichen Teilen" (a
// pot "gleich geteilt" reads as shared in a moment).
func TestGermanRoundingAndSharing(t *testing.T) {
	b := load(t)
	de := b.For("de")
	o := payout.Setup{Variant: payout.OldTapp, Players: []string{"Anna", "Ben", "Cleo"}, Rules: payout.DefaultRules(payout.OldTapp)}
	pts := 73
	res, err := payout.Score(o, payout.Table{}, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: &pts})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Explanation.Render(de), "Überschuss 13 ÷ 4 = 3,25, aufgerundet auf 4 = 4 von jedem Gegenspieler"; !strings.Contains(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	if got := de.T("close.pot", "7", 1); !strings.Contains(got, "zu gleichen Teilen") {
		t.Errorf("close.pot: %q", got)
	}
}

// Bringing an undone deal back and withdrawing Herz-As are opposite
// actions: in Swedish "ta tillbaka" (take back) said both, so a button read
// "take deal 3 back" where it restores it. Each has its own verb.
func TestSwedishBringBackIsNotTakeBack(t *testing.T) {
	b := load(t)
	sv := b.For("sv")
	for key, args := range map[string][]any{"table.redo": {3}, "history.redone": {"21:05"}, "record.was-voided": nil,
		"table.undone": {3, "Anna", "Ben"}, "table.undone-last": {3, "Anna"}} {
		got := strings.ToLower(sv.T(key, args...))
		if strings.Contains(got, "%!") {
			t.Fatalf("sv %s with %v: %q", key, args, got)
		}
		if strings.Contains(got, "tillbaka") || !strings.Contains(got, "återställ") {
			t.Errorf("sv %s: %q; want it to say återställ, not tillbaka (which withdraws Herz-As)", key, got)
		}
	}
	if got := strings.ToLower(sv.T("herz.withdraw")); !strings.Contains(got, "tillbaka") {
		t.Errorf("sv herz.withdraw: %q; want it to take Herz-As back", got)
	}
}

// "Hur gick det för spelföraren?" is answered with what the declarer did
// ("Vann", "Förlorade"), not with a participle that would have to agree
// with a contract; and the matzl is "matzl" throughout, as the seed writes
// it ("fångat matzl"), never inflected one way here and another there.
func TestSwedishOutcomeButtonsAndMatzl(t *testing.T) {
	b := load(t)
	sv := b.For("sv")
	if won, lost := sv.T("record.won"), sv.T("record.lost"); won != "Vann" || lost != "Förlorade" {
		t.Errorf("sv outcome buttons %q / %q, want Vann / Förlorade", won, lost)
	}
	for _, key := range b.Keys("sv") {
		if text := strings.ToLower(sv.T(key)); strings.Contains(text, "matzln") || strings.Contains(text, "matzlen") {
			t.Errorf("sv %s inflects matzl: %q", key, text)
		}
	}
}
