package i18n

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// Counts take the word's form in every language: "1 trick", "2 tricks";
// "1 Stich", "2 Stiche"; "1 stick", "2 stick" (in explanations, errors and
// the pages' messages).
func TestPlurals(t *testing.T) {
	b := load(t)
	z := payout.Setup{Variant: payout.Zuger, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Zuger)}
	explain := func(points, tricks int) payout.Explanation {
		res, err := payout.Score(z, payout.Table{}, payout.Record{Contract: "tapp", Declarer: "Anna", Points: &points, Tricks: &tricks})
		if err != nil {
			t.Fatal(err)
		}
		return res.Explanation
	}
	one, two := explain(14, 1), explain(20, 2)
	for _, c := range []struct {
		lang, one, two string
	}{
		{"en", "with 14 points in 1 trick", "with 20 points in 2 tricks"},
		{"de", "mit 14 Augen in 1 Stich", "mit 20 Augen in 2 Stichen"},
		{"sv", "med 14 ögon på 1 stick", "med 20 ögon på 2 stick"},
	} {
		if got := one.Render(b.For(c.lang)); !strings.Contains(got, c.one) {
			t.Errorf("%s, one trick: %q, want %q", c.lang, got, c.one)
		}
		if got := two.Render(b.For(c.lang)); !strings.Contains(got, c.two) {
			t.Errorf("%s, two tricks: %q, want %q", c.lang, got, c.two)
		}
	}
	tricks := 1
	points := 90
	_, err := payout.Score(z, payout.Table{}, payout.Record{Contract: "tapp", Declarer: "Anna", Points: &points, Tricks: &tricks})
	for lang, want := range map[string]string{"en": "With 1 trick the declarer's side holds 8 cards", "de": "Mit 1 Stich hat die Spielerpartei 8 Karten", "sv": "Med 1 stick har spelförarsidan 8 kort"} {
		if got := b.For(lang).Error(err); !strings.Contains(got, want) {
			t.Errorf("%s error: %q, want %q", lang, got, want)
		}
	}
	o := payout.Setup{Variant: payout.OldTapp, Players: []string{"Anna", "Ben", "Cleo"}, Rules: payout.DefaultRules(payout.OldTapp)}
	bal := []decimal.Decimal{decimal.Zero, decimal.Zero, decimal.Zero}
	_, err1 := payout.SplitPot(o, bal, decimal.NewFromInt(4), nil)
	_, err2 := payout.SplitPot(o, bal, decimal.NewFromInt(5), nil)
	for lang, want := range map[string][2]string{
		"en": {"the pot leaves 1 unit over", "the pot leaves 2 units over"},
		"de": {"Im Pott bleibt 1 Einheit übrig", "Im Pott bleiben 2 Einheiten übrig"},
		"sv": {"Potten lämnar 1 enhet över", "Potten lämnar 2 enheter över"},
	} {
		if got := b.For(lang).Error(err1); !strings.Contains(strings.ToLower(got), strings.ToLower(want[0])) {
			t.Errorf("%s, one unit: %q, want %q", lang, got, want[0])
		}
		if got := b.For(lang).Error(err2); !strings.Contains(strings.ToLower(got), strings.ToLower(want[1])) {
			t.Errorf("%s, two units: %q, want %q", lang, got, want[1])
		}
	}
	for lang, want := range map[string][2]string{
		"en": {"1 event,", "2 events,"}, "de": {"1 Ereignis,", "2 Ereignisse,"}, "sv": {"1 händelse,", "2 händelser,"},
	} {
		if got := b.For(lang).T("audit.count", 1); !strings.HasPrefix(got, want[0]) {
			t.Errorf("%s audit.count 1: %q", lang, got)
		}
		if got := b.For(lang).T("audit.count", 2); !strings.HasPrefix(got, want[1]) {
			t.Errorf("%s audit.count 2: %q", lang, got)
		}
	}
	for lang, want := range map[string][2]string{
		"en": {"1 unit left over", "2 units left over"}, "de": {"1 Einheit bleibt übrig", "2 Einheiten bleiben übrig"}, "sv": {"1 enhet blir över", "2 enheter blir över"},
	} {
		if got := b.For(lang).T("close.pot", "4", 1); !strings.Contains(got, want[0]) {
			t.Errorf("%s close.pot 1: %q", lang, got)
		}
		if got := b.For(lang).T("close.pot", "5", 2); !strings.Contains(got, want[1]) {
			t.Errorf("%s close.pot 2: %q", lang, got)
		}
	}
}

// rules.md old-tapp: a coeurfrage at exactly 60 is even, shown as even,
// not lost, in every language; the Württemberg Ramsch tie says who pays
// whom as the Decision does.
func TestEvenAndRamschTieInEveryLanguage(t *testing.T) {
	b := load(t)
	o := payout.Setup{Variant: payout.OldTapp, Players: []string{"Anna", "Ben", "Cleo"}, Rules: payout.DefaultRules(payout.OldTapp)}
	p := 60
	res, err := payout.Score(o, payout.Table{}, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: &p})
	if err != nil {
		t.Fatal(err)
	}
	// A deal stored before the outcome existed (lost, nothing to pay)
	// reads as even too.
	old := res.Explanation
	old.Outcome = payout.Lost
	for _, c := range []struct{ lang, even, lost string }{
		{"en", "Coeurfrage by Ben even with 60 points: nobody pays", "lost"},
		{"de", "Coeurfrage von Ben mit 60 Augen weder gewonnen noch verloren: niemand zahlt", "Augen verloren"},
		{"sv", "Coeurfrage varken vanns eller förlorades av Ben med 60 ögon: ingen betalar", "Coeurfrage förlorades"},
	} {
		for _, e := range []payout.Explanation{res.Explanation, old} {
			got := e.Render(b.For(c.lang))
			if !strings.Contains(got, c.even) || strings.Contains(got, c.lost) {
				t.Errorf("%s, coeurfrage at 60: %q, want %q and not %q", c.lang, got, c.even, c.lost)
			}
		}
	}

	w := payout.Setup{Variant: payout.Wuerttemberg, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Wuerttemberg)}
	score := func(pts, tricks int) payout.RamschScore { return payout.RamschScore{Points: &pts, Tricks: &tricks} }
	res, err = payout.Score(w, payout.Table{}, payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": score(45, 3), "Ben": score(45, 3), "Cleo": score(30, 2), "Dan": score(0, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string][]string{
		"en": {"Anna and Ben tie for the most points (45), and each pays 5 to every player not in the tie", "Dan took no trick (Jungfer) and is paid 10 by each of them instead"},
		"de": {"Anna und Ben haben mit je 45 die meisten Augen, und jeder von ihnen zahlt jedem übrigen Spieler 5", "Dan hat keinen Stich gemacht (Jungfer) und bekommt stattdessen von jedem von ihnen 10"},
		"sv": {"Anna och Ben har lika många ögon, flest (45), och var och en av dem betalar 5 till varje övrig spelare", "Dan tog inget stick (jungfer) och får i stället 10 av var och en av dem"},
	} {
		got := res.Explanation.Render(b.For(lang))
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s Ramsch tie: %q, want %q", lang, got, w)
			}
		}
	}
}

// rules.md, Matzlfangen: a matzl caught by the side that lost cancels every
// payment, but the deal was still won or lost at the table; the sentence
// says which, not "played", and does not say "lost" twice.
func TestMatzlCancelledSaysWonOrLost(t *testing.T) {
	b := load(t)
	m := payout.Setup{Variant: payout.Matzlfangen, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Matzlfangen)}
	score := func(pts, tricks int, matzl string) payout.Explanation {
		t.Helper()
		k := 1
		res, err := payout.Score(m, payout.Table{Dealer: 2}, payout.Record{Contract: "rufen", Partner: "Anna", Trump: payout.Clubs, Points: &pts, Tricks: &tricks, Kontra: &k, Matzl: matzl})
		if err != nil {
			t.Fatal(err)
		}
		return res.Explanation
	}
	lost, won := score(50, 3, payout.MatzlDeclarer), score(80, 6, payout.MatzlDefenders)
	for _, c := range []struct {
		lang       string
		e          payout.Explanation
		want, nots []string
	}{
		{"de", lost, []string{"Rufen (Kreuz) von Dan und Anna mit 50 Augen in 3 Stichen verloren", "aber die Spielerpartei hat den Matzl gefangen, also entfallen alle Zahlungen"}, []string{"gespielt", "verlor,"}},
		{"de", won, []string{"Rufen (Kreuz) von Dan und Anna mit 80 Augen in 6 Stichen gewonnen", "aber die Gegenspieler haben den Matzl gefangen"}, []string{"gespielt", "verloren"}},
		{"sv", lost, []string{"Rufen (klöver) förlorades av Dan och Anna med 50 ögon på 3 stick", "spelförarsidan fångade matzl, så alla betalningar annulleras"}, []string{"spelades", "men förlorade"}},
		{"en", won, []string{"won with 80 points", "but the defenders caught the matzl, so every payment is cancelled"}, []string{"played", "but lost"}},
	} {
		got := c.e.Render(b.For(c.lang))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q, want %q", c.lang, got, w)
			}
		}
		for _, n := range c.nots {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q says %q", c.lang, got, n)
			}
		}
	}
}

// A declarer who took no trick is said to have taken none ("ohne Stich"),
// not "in 0 Stichen": a Württemberg suit game lost with the tapp's points
// only, and a Bettel won.
func TestNoTrickIsSaidAsSuch(t *testing.T) {
	b := load(t)
	w := payout.Setup{Variant: payout.Wuerttemberg, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Wuerttemberg)}
	pts, none := 10, 0
	suit, err := payout.Score(w, payout.Table{}, payout.Record{Contract: "suit", Declarer: "Ben", Trump: payout.Clubs, Points: &pts, Tricks: &none})
	if err != nil {
		t.Fatal(err)
	}
	bettel, err := payout.Score(w, payout.Table{}, payout.Record{Contract: "bettel", Declarer: "Ben", Tricks: &none})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang, suit, bettel, not string
	}{
		{"de", "von Ben mit 10 Augen ohne Stich verloren:", "Bettel von Ben ohne Stich gewonnen:", "0 Stichen"},
		{"sv", "förlorades av Ben med 10 ögon utan stick:", "Bettel vanns av Ben utan stick:", "0 stick"},
		{"en", "by Ben lost with 10 points and no trick:", "Bettel by Ben won with no trick:", "0 tricks"},
	} {
		for _, x := range []struct {
			e    payout.Explanation
			want string
		}{{suit.Explanation, c.suit}, {bettel.Explanation, c.bettel}} {
			if got := x.e.Render(b.For(c.lang)); !strings.Contains(got, x.want) || strings.Contains(got, c.not) {
				t.Errorf("%s: %q, want %q", c.lang, got, x.want)
			}
		}
	}
}

// Several players without a trick in one Ramsch are named in one sentence,
// not one sentence each (Zwangsramsch: one player took every trick).
func TestJungfersInOneSentence(t *testing.T) {
	b := load(t)
	w := payout.Setup{Variant: payout.Wuerttemberg, Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Rules: payout.DefaultRules(payout.Wuerttemberg)}
	score := func(pts, tricks int) payout.RamschScore { return payout.RamschScore{Points: &pts, Tricks: &tricks} }
	res, err := payout.Score(w, payout.Table{}, payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{
		"Anna": score(0, 0), "Ben": score(0, 0), "Cleo": score(120, 8), "Dan": score(0, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{
		"en": "Anna, Ben and Dan took no trick (Jungfer) and are each paid 10 instead.",
		"de": "Anna, Ben und Dan haben keinen Stich gemacht (Jungfer) und bekommen stattdessen je 10.",
		"sv": "Anna, Ben och Dan tog inget stick (jungfer) och får i stället 10 var.",
	} {
		if got := res.Explanation.Render(b.For(lang)); !strings.HasSuffix(got, want) || strings.Count(got, ";") != 1 {
			t.Errorf("%s: %q, want it to end %q", lang, got, want)
		}
	}
}
