package payout

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/problem"
)

// Every bullet of rules.md "Input checks every variant gets" is refused
// with its own message, naming the field.
func TestInputChecks(t *testing.T) {
	z := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	o := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	m := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	w := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	cases := []struct {
		check string
		s     Setup
		rec   Record
		field string
		code  string
	}{
		{"a player not in the game", z, Record{Contract: "solo", Declarer: "Zoe", Points: ip(70), Tricks: ip(5)}, "declarer", "player.unknown"},
		{"a partner not in the game", m, Record{Contract: "rufen", Partner: "Zoe", Points: ip(70), Tricks: ip(5)}, "partner", "player.unknown"},
		{"a declarer who is also partner", m, Record{Contract: "rufen", Partner: "Ben", Points: ip(70), Tricks: ip(5)}, "partner", "partner.is-declarer"},
		{"an unknown contract", z, Record{Contract: "grand", Declarer: "Anna"}, "contract", "contract.unknown"},
		{"no contract", z, Record{}, "contract", "contract.missing"},
		{"a trump the contract does not allow", o, Record{Contract: "solo", Declarer: "Ben", Trump: Hearts, Points: ip(70)}, "trump", "trump.not-allowed"},
		{"a trump in a contract without trump", w, Record{Contract: "open-bettel", Declarer: "Ben", Trump: Hearts, Tricks: ip(0)}, "trump", "trump.none"},
		{"card points above 120", z, Record{Contract: "solo", Declarer: "Anna", Points: ip(121), Tricks: ip(5)}, "points", "points.range"},
		{"card points below 0", o, Record{Contract: "solo", Declarer: "Ben", Points: ip(-1)}, "points", "points.range"},
		{"card points exactly 1", z, Record{Contract: "solo", Declarer: "Anna", Points: ip(1), Tricks: ip(1)}, "points", "points.one"},
		{"card points total−1", w, Record{Contract: "suit", Declarer: "Ben", Trump: Clubs, Points: ip(119)}, "points", "points.total-minus-one"},
		{"tricks outside 0–tricks per deal", z, Record{Contract: "solo", Declarer: "Anna", Points: ip(70), Tricks: ip(9)}, "tricks", "tricks.range"},
		{"negative tricks", o, Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(-1)}, "tricks", "tricks.range"},
		{"all tricks but not all points", o, Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(119 - 9), Tricks: ip(11)}, "points", "points.all-tricks"},
		{"no trick but points", m, Record{Contract: "neid", Declarer: "Ben", Points: ip(20), Tricks: ip(0)}, "points", "points.no-trick"},
		{"no trick, more than the talon", z, Record{Contract: "tapp", Declarer: "Anna", Points: ip(50), Tricks: ip(0)}, "points", "points.no-trick-talon"},
		{"more points than the tricks hold", m, Record{Contract: "neid", Declarer: "Ben", Points: ip(60), Tricks: ip(1)}, "points", "points.too-many"},
		{"fewer points than the other side leaves", m, Record{Contract: "neid", Declarer: "Ben", Points: ip(70), Tricks: ip(7)}, "points", "points.too-few"},
		{"kontra outside 0–10", m, Record{Contract: "neid", Declarer: "Ben", Points: ip(70), Tricks: ip(5), Kontra: ip(-1)}, "kontra", "kontra.range"},
		{"matzl in a contract without trump", m, Record{Contract: "durch", Declarer: "Ben", Tricks: ip(8), Matzl: MatzlDefenders}, "matzl", "matzl.no-trump"},
		{"ramsch points that do not add up", w, ramsch(map[string][2]int{"Anna": {50, 5}, "Ben": {40, 4}, "Cleo": {29, 2}}), "ramsch", "ramsch.points-sum"},
		{"a ramsch player with points and no tricks", w, ramsch(map[string][2]int{"Anna": {50, 6}, "Ben": {40, 5}, "Cleo": {30, 0}}), "ramsch.Cleo.points", "ramsch.points-no-trick"},
		{"a field the contract does not take", z, Record{Contract: "solo", Declarer: "Anna", Points: ip(70), Tricks: ip(5), Kontra: ip(1)}, "kontra", "field.not-taken"},
		{"tout outside a solo", o, Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(70), Tout: bp(true)}, "tout", "field.not-taken"},
		{"a declarer in a passed deal", z, Record{Contract: "pass", Declarer: "Anna"}, "declarer", "field.not-taken"},
		{"points missing", z, Record{Contract: "solo", Declarer: "Anna", Tricks: ip(5)}, "points", "points.missing"},
		{"tricks missing where they decide", o, Record{Contract: "solo", Declarer: "Ben", Tout: bp(true)}, "tricks", "tricks.missing"},
		{"declarer missing", w, Record{Contract: "bettel", Tricks: ip(0)}, "declarer", "declarer.missing"},
	}
	seen := map[string]string{}
	for _, c := range cases {
		t.Run(c.check, func(t *testing.T) {
			refuse(t, c.s, Table{}, c.rec, c.field, c.code)
			_, err := Score(c.s, Table{}, c.rec)
			msg := err.Error()
			if strings.HasPrefix(msg, "unknown problem") || strings.Contains(msg, "%!") {
				t.Fatalf("message for %s is broken: %q", c.code, msg)
			}
			if !strings.HasPrefix(msg, c.field) && !strings.HasPrefix(c.field, "ramsch") {
				t.Fatalf("message %q does not start with its field %q", msg, c.field)
			}
			if prev, ok := seen[msg]; ok && prev != c.check {
				t.Fatalf("%q and %q give the same message %q", prev, c.check, msg)
			}
			seen[msg] = c.check
		})
	}
	// The variant is named as a noun, so no article has to agree with it
	// ("a old-tapp contract").
	if _, err := Score(o, Table{}, Record{Contract: "tapp", Declarer: "Anna"}); err == nil || !strings.HasPrefix(err.Error(), `contract: "tapp" is not a contract of old-tapp; choose one of `) {
		t.Errorf("tapp in old-tapp: %v", err)
	}
}

// Every message code used in the package has English text with arguments
// that fill it.
func TestEveryCodeHasEnglish(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`inputErr\([^,]+, "([^"]+)"`)
	codes := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			codes[m[1]] = true
		}
	}
	for _, f := range fieldOrder() {
		if f != "tout" && f != "kontra" && f != "matzl" {
			codes[f+".missing"] = true
		}
	}
	if len(codes) < 40 {
		t.Fatalf("found only %d codes; the scan is broken", len(codes))
	}
	for c := range codes {
		if strings.HasPrefix(catalogue.English(c), "unknown problem") {
			t.Errorf("code %q has no English text", c)
		}
	}
}

func TestDecodeRules(t *testing.T) {
	raw := func(s string) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	good := []struct {
		v     Variant
		rules string
		check func(Rules) bool
	}{
		{Zuger, `{}`, func(r Rules) bool { return r.TappThreshold == 61 }},
		{Zuger, `{"tapp_threshold": 65}`, func(r Rules) bool { return r.TappThreshold == 65 }},
		// rules.md old-tapp "End of the session": cut is the default.
		{OldTapp, `{}`, func(r Rules) bool { return r.Stake.Equal(d(2)) && r.Remainder == RemainderCut }},
		{OldTapp, `{"stake": 0, "remainder": "biggest-loser"}`, func(r Rules) bool { return r.Stake.IsZero() && r.Remainder == RemainderBiggestLoser }},
		{OldTapp, `{"stake": "5"}`, func(r Rules) bool { return r.Stake.Equal(d(5)) }},
		{Wuerttemberg, `{"cards": 32, "suit_tapp": true}`, func(r Rules) bool { return r.Cards == 32 && r.SuitTapp && r.Values["durch-hearts"].Equal(d(60)) }},
		{Matzlfangen, `{}`, func(r Rules) bool { return true }},
	}
	for _, g := range good {
		r, err := DecodeRules(g.v, raw(g.rules))
		if err != nil || !g.check(r) {
			t.Errorf("%s %s: %+v, %v", g.v, g.rules, r, err)
		}
		s := Setup{Variant: g.v, Players: []string{"A", "B", "C", "D"}[:map[Variant]int{OldTapp: 3}[g.v]+4*btoi(g.v != OldTapp)], Rules: r}
		if err := s.Check(); err != nil {
			t.Errorf("%s %s: decoded rules fail the setup check: %v", g.v, g.rules, err)
		}
	}
	bad := []struct {
		v         Variant
		rules     string
		code      string
		malformed bool
	}{
		{Zuger, `{"tapp_threshold": 60}`, "rules.tapp_threshold", false},
		{Zuger, `{"tapp_threshold": "61"}`, "rules.type", true},
		{Zuger, `{"stake": 2}`, "rules.unknown", false},
		{Matzlfangen, `{"stake": 2}`, "rules.none", false},
		{OldTapp, `{"stake": -1}`, "rules.stake", false},
		{OldTapp, `{"stake": 1.5}`, "rules.stake", false},
		{OldTapp, `{"stake": true}`, "rules.type", true},
		{OldTapp, `{"remainder": "highest"}`, "rules.remainder", false},
		{OldTapp, `{"remainder": 1}`, "rules.type", true},
		{Wuerttemberg, `{"cards": 52}`, "rules.cards", false},
		{Wuerttemberg, `{"cards": null}`, "rules.type", true},
		{Wuerttemberg, `{"suit_tapp": "yes"}`, "rules.type", true},
		{Wuerttemberg, `{"values": {"grand": 5}}`, "rules.values.unknown", false},
		{Wuerttemberg, `{"values": {"suit": 0}}`, "rules.values.range", false},
		{Wuerttemberg, `{"values": {"suit": "x"}}`, "rules.values.type", true},
		{Wuerttemberg, `{"values": []}`, "rules.type", true},
	}
	for _, b := range bad {
		_, err := DecodeRules(b.v, raw(b.rules))
		ie, ok := problem.As(err)
		if !ok || ie.Code != b.code || ie.Malformed != b.malformed {
			t.Errorf("%s %s: want %s (malformed %v), got %v", b.v, b.rules, b.code, b.malformed, err)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSetupChecks(t *testing.T) {
	cases := []struct {
		s    Setup
		code string
	}{
		{Setup{Variant: "skat", Players: []string{"A", "B", "C"}}, "variant.unknown"},
		{setupOf(Zuger, "A", "B", "C"), "players.count"},
		{setupOf(Wuerttemberg, "A", "B", "C", "D", "E"), "players.count"},
		{setupOf(OldTapp, "A", "", "C"), "players.empty"},
		{setupOf(OldTapp, "A", " B", "C"), "players.space"},
		{setupOf(OldTapp, "A", "B", "\xff"), "players.text"},
		{setupOf(OldTapp, "A", strings.Repeat("x", 41), "C"), "players.long"},
		{setupOf(OldTapp, "A", "B", "A"), "players.twice"},
		{Setup{Variant: Zuger, Players: []string{"A", "B", "C", "D"}}, "rules.tapp_threshold"},
		{Setup{Variant: OldTapp, Players: []string{"A", "B", "C"}, Rules: Rules{Stake: d(-1), Remainder: RemainderCut}}, "rules.stake"},
		{Setup{Variant: OldTapp, Players: []string{"A", "B", "C"}, Rules: Rules{Stake: d(1)}}, "rules.remainder"},
		{Setup{Variant: Wuerttemberg, Players: []string{"A", "B", "C"}, Rules: Rules{Cards: 40}}, "rules.cards"},
		{Setup{Variant: Wuerttemberg, Players: []string{"A", "B", "C"}, Rules: Rules{Cards: 36}}, "rules.values.range"},
	}
	for _, c := range cases {
		_, err := Score(c.s, Table{}, Record{Contract: "pass"})
		ie, ok := problem.As(err)
		if !ok || ie.Code != c.code {
			t.Errorf("%+v: want %s, got %v", c.s, c.code, err)
		}
	}
	if err := CheckPlayers(Wuerttemberg, []string{"Anna", "Ben", "Cleo", "Dan"}); err != nil {
		t.Errorf("4 players for wuerttemberg: %v", err)
	}
	if _, err := Score(setupOf(Zuger, "A", "B", "C", "D"), Table{Dealer: 4}, Record{Contract: "pass"}); err == nil {
		t.Error("a dealer outside the table was accepted")
	}
}

// The explanation a player reads, for one deal of each kind of step.
func TestExplanationText(t *testing.T) {
	z := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	o := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	m := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	w := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	cases := []struct {
		s    Setup
		tb   Table
		rec  Record
		want string
	}{
		{z, Table{}, zugerRec("solo", 73, 5), "Solo by Anna won with 73 points in 5 tricks: 2 from each opponent."},
		{z, Table{}, zugerRec("solo", 102, 7), "Solo by Anna won with 102 points in 7 tricks: base 2 × 2 (losers under 21) = 4 from each opponent."},
		{z, Table{}, zugerRec("tapp", 25, 0), "Tapp by Anna lost with 25 points and no trick: base 1 × 3 (losers took no trick) = 3 to each opponent."},
		{z, Table{}, zugerRec("tapp", 60, 4), "Tapp by Anna drawn with 60 points in 4 tricks: nobody pays."},
		{z, Table{}, Record{Contract: "pass"}, "All passed: no game, nobody pays."},
		{o, Table{Pot: d(4)}, oldRec("coeurfrage", 73), "Coeurfrage by Ben won with 73 points: excess 13 ÷ 4 = 3.25, rounded up to 4 = 4 from each opponent; Anna put the stake of 2 into the pot."},
		{o, Table{Pot: d(4)}, oldRec("coeurfrage", 52), "Coeurfrage by Ben lost with 52 points: shortfall 8 ÷ 4 = 2 to each opponent; Anna put the stake of 2 into the pot; Ben also pays 2 into the pot."},
		{o, Table{Pot: d(4)}, oldRec("solo", 61), "Solo (clubs) by Ben won with 61 points: excess 1 ÷ 2 = 0.5, rounded up to 1 = 1 from each opponent; Anna put the stake of 2 into the pot; Ben takes the pot of 6."},
		{o, Table{Pot: d(4)}, oldRec("coeursolo", 50), "Coeursolo by Ben lost with 50 points: shortfall 10 = 10 to each opponent; Anna put the stake of 2 into the pot; Ben doubles the pot, paying 6 into it."},
		{o, Table{}, toutRec("solo", 11), "Solo (clubs) tout by Ben won with 11 tricks: tout 60 = 60 from each opponent; Anna put the stake of 2 into the pot; Ben takes the pot of 2."},
		{m, Table{Dealer: 3}, Record{Contract: "rufen", Partner: "Cleo", Points: ip(70), Tricks: ip(5), Kontra: ip(5)}, "Rufen by Anna and Cleo won with 70 points in 5 tricks: base 1 + 5 kontra (Hirsch) = 6 from each opponent, one to each of the two."},
		{m, Table{Dealer: 3}, Record{Contract: "rufen", Partner: "Cleo", Points: ip(101), Tricks: ip(7), Matzl: MatzlDeclarer}, "Rufen by Anna and Cleo won with 101 points in 7 tricks: base 2 (losers under 30, no water) + 1 matzl caught by the declarer's side = 3 from each opponent, one to each of the two."},
		// rules.md, Matzlfangen "Payment": rufen lost → the reverse: each of the two pays one opponent.
		{m, Table{Dealer: 3}, Record{Contract: "rufen", Partner: "Cleo", Points: ip(50), Tricks: ip(3)}, "Rufen by Anna and Cleo lost with 50 points in 3 tricks: 1 to each opponent, one from each of the two."},
		{m, Table{Dealer: 3}, Record{Contract: "neid", Declarer: "Ben", Trump: Hearts, Points: ip(0), Tricks: ip(0), Matzl: MatzlDefenders}, "Neid (hearts) by Ben lost with 0 points and no trick: base 3 (losers took no trick) + 1 matzl caught by the defenders = 4 to each opponent."},
		{m, Table{Dealer: 3}, Record{Contract: "neid", Declarer: "Ben", Points: ip(70), Tricks: ip(5), Matzl: MatzlDefenders}, "Neid by Ben won with 70 points in 5 tricks: base 1, but the defenders caught the matzl, so every payment is cancelled."},
		{w, Table{}, ramsch(map[string][2]int{"Anna": {70, 7}, "Ben": {50, 4}, "Cleo": {0, 0}}), "Ramsch: Anna has the most points (70) and pays 5 to each other player; Cleo took no trick (Jungfer) and is paid 10 instead."},
		{w, Table{}, ramsch(map[string][2]int{"Anna": {40, 4}, "Ben": {40, 4}, "Cleo": {40, 3}}), "Ramsch: everyone has the same points, so nobody pays."},
		{w, Table{}, wRec("durch", Hearts, nil, ip(11)), "Durch (hearts) by Ben won with 11 tricks: 60 from each opponent."},
		// rules.md old-tapp: at exactly 60 a coeurfrage is even, shown as even, not lost.
		{o, Table{Pot: d(4)}, oldRec("coeurfrage", 60), "Coeurfrage by Ben even with 60 points: nobody pays; Anna put the stake of 2 into the pot."},
		// rules.md wuerttemberg Ramsch Decision: players tied for most each
		// pay every player not in the tie.
		{w, Table{}, ramsch(map[string][2]int{"Anna": {50, 5}, "Ben": {50, 4}, "Cleo": {20, 2}}), "Ramsch: Anna and Ben tie for the most points (50), and each pays 5 to every player not in the tie."},
		{setupOf(Wuerttemberg, "Anna", "Ben", "Cleo", "Dan"), Table{}, ramsch(map[string][2]int{"Anna": {45, 3}, "Ben": {45, 3}, "Cleo": {30, 2}, "Dan": {0, 0}}),
			"Ramsch: Anna and Ben tie for the most points (45), and each pays 5 to every player not in the tie; Dan took no trick (Jungfer) and is paid 10 by each of them instead."},
		// Plurals: 1 trick, 2 tricks.
		{z, Table{}, zugerRec("tapp", 14, 1), "Tapp by Anna lost with 14 points in 1 trick: base 1 × 2 (losers under 21) = 2 to each opponent."},
		{w, Table{}, wRec("bettel", "", nil, ip(1)), "Bettel by Ben lost with 1 trick: 15 to each opponent."},
	}
	for _, c := range cases {
		res, err := Score(c.s, c.tb, c.rec)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Explanation.Text(); got != c.want {
			t.Errorf("explanation\n got %q\nwant %q", got, c.want)
		}
		// The head alone (the printed report's deal list) is the sentence
		// up to its reckoning.
		head, _, _ := strings.Cut(c.want, ":")
		if c.rec.Contract == "pass" {
			head = "Pass" // "All passed" is the whole sentence's
		}
		if res.Explanation.Head(english) != head {
			t.Errorf("head\n got %q\nwant %q", res.Explanation.Head(english), head)
		}
	}
	if KontraName(10) != "Drauffi" || KontraName(1) != "Schuß" || KontraName(11) != "" {
		t.Error("kontra names do not follow rules.md: 1 Schuß … 10 Drauffi")
	}
}

// CheckAnnouncement makes every check on what is known before the count and
// asks for no counts.
func TestCheckAnnouncement(t *testing.T) {
	z := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	o := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	m := setupOf(Matzlfangen, "Anna", "Ben", "Cleo", "Dan")
	w := setupOf(Wuerttemberg, "Anna", "Ben", "Cleo")
	for _, ok := range []struct {
		s Setup
		r Record
	}{
		{z, Record{Contract: "solo", Declarer: "Ben"}},
		{o, Record{Contract: "solo", Declarer: "Ben", Tout: bp(true), Trump: Clubs}},
		{m, Record{Contract: "rufen", Partner: "Cleo", Kontra: ip(3), Matzl: MatzlDefenders}},
		{w, Record{Contract: "ramsch"}},
		{w, Record{Contract: "rufer", Declarer: "Ben", Trump: Hearts}},
	} {
		if err := CheckAnnouncement(ok.s, Table{}, ok.r, true); err != nil {
			t.Errorf("%s %+v: %v", ok.s.Variant, ok.r, err)
		}
	}
	for _, bad := range []struct {
		s    Setup
		r    Record
		code string
	}{
		{z, Record{Contract: "solo"}, "declarer.missing"},
		{o, Record{Contract: "solo", Declarer: "Ben", Trump: Hearts}, "trump.not-allowed"},
		{m, Record{Contract: "durch", Declarer: "Ben", Matzl: MatzlDeclarer}, "matzl.no-trump"},
		{m, Record{Contract: "rufen", Partner: "Ben"}, "partner.is-declarer"},
		{w, Record{Contract: "suit", Declarer: "Ben", Trump: "rosen"}, "trump.unknown"},
		{w, Record{Contract: "suit", Declarer: "Ben"}, "trump.missing"},
	} {
		ie, ok := problem.As(CheckAnnouncement(bad.s, Table{}, bad.r, true))
		if !ok || ie.Code != bad.code {
			t.Errorf("%s %+v: want %s, got %v", bad.s.Variant, bad.r, bad.code, ie)
		}
	}
	// Stored with its trump left out while only hearts or not was asked.
	if err := CheckAnnouncement(w, Table{}, Record{Contract: "rufer", Declarer: "Ben"}, false); err != nil {
		t.Errorf("a stored Württemberg rufer without its trump: %v", err)
	}
}

// A new game's names are checked by internal/names, each problem with its
// own code; names equal after case folding are one name.
func TestCheckPlayersNamesThatLie(t *testing.T) {
	cases := []struct {
		players []string
		code    string
	}{
		{[]string{"Anna", "Anna\u200b", "Ben"}, "players.invisible"},
		{[]string{"Anna", "\u202e3+", "Ben"}, "players.bidi"},
		{[]string{"Anna", "A\x00", "Ben"}, "players.control"},
		{[]string{"Anna", "B\nC", "Ben"}, "players.control"},
		{[]string{"Anna", "\u200b", "Ben"}, "players.invisible"},
		{[]string{"Anna", "anna", "Ben"}, "players.same"},
		{[]string{"Anna", "Anna", "Ben"}, "players.twice"},
		{[]string{"Anna", strings.Repeat("ß", 41), "Ben"}, "players.long"},
		{[]string{"Anna", "\u0301", "Ben"}, "players.empty"},
	}
	for _, c := range cases {
		ie, ok := problem.As(CheckPlayers(OldTapp, c.players))
		if !ok || ie.Code != c.code || ie.Field != "players" {
			t.Errorf("%q: want %s, got %v", c.players, c.code, ie)
		}
	}
	if got := NormalizePlayers([]string{"Anna  Lena", "ＢＥＮ", "Zoe\u0308"}); got[0] != "Anna Lena" || got[1] != "BEN" || got[2] != "Zoë" {
		t.Errorf("normalized: %q", got)
	}
}

// A game started before the names were checked this strictly keeps
// scoring: the seating checked at every deal is the one it was started
// with.
func TestOldGamesKeepTheirNames(t *testing.T) {
	s := setupOf(OldTapp, "Anna", "Anna\u200b", "anna")
	if _, err := Score(s, Table{}, Record{Contract: "pass"}); err != nil {
		t.Fatalf("a stored game's seating no longer scores: %v", err)
	}
}

// Counts in messages take the word's form: 1 trick, 2 tricks.
func TestMessagesCount(t *testing.T) {
	z := setupOf(Zuger, "Anna", "Ben", "Cleo", "Dan")
	_, err := Score(z, Table{}, zugerRec("tapp", 90, 1))
	if err == nil || err.Error() != "points: with 1 trick the declarer's side holds 8 cards, worth at most 84 points, not 90" {
		t.Errorf("one trick: %v", err)
	}
	o := setupOf(OldTapp, "Anna", "Ben", "Cleo")
	if _, err := SplitPot(o, []decimal.Decimal{d(0), d(0), d(0)}, d(4), nil); err == nil || !strings.Contains(err.Error(), "the pot leaves 1 unit over") {
		t.Errorf("one unit: %v", err)
	}
	if _, err := SplitPot(o, []decimal.Decimal{d(0), d(0), d(0)}, d(5), nil); err == nil || !strings.Contains(err.Error(), "the pot leaves 2 units over") {
		t.Errorf("two units: %v", err)
	}
}

// Missing names every field a contract needs that a record leaves out, in
// the order Score checks them, each as the refusal Score gives when it is
// the only one missing (api.md: "points is required where the outcome or
// multiplier depends on it, tricks where tricks decide").
func TestMissingNamesEveryBlank(t *testing.T) {
	pts, tricks := 70, 5
	for _, c := range []struct {
		v    Variant
		r    Record
		want string
	}{
		{Zuger, Record{Contract: "solo"}, "declarer points tricks"},
		{Zuger, Record{Contract: "solo", Declarer: "Ben", Tricks: &tricks}, "points"},
		{Zuger, Record{Contract: "pass"}, ""},
		{Matzlfangen, Record{Contract: "rufen"}, "partner points tricks"}, // the declarer is forehand
		{Wuerttemberg, Record{Contract: "bettel"}, "declarer tricks"},
		{Wuerttemberg, Record{Contract: "suit", Declarer: "Ben", Trump: "clubs", Points: &pts}, ""},
		{Zuger, Record{Contract: "no-such"}, ""},
	} {
		var got []string
		for _, err := range Missing(c.v, c.r) {
			pe, ok := problem.As(err)
			if !ok || pe.Code != pe.Field+".missing" {
				t.Fatalf("%s %s: %v is not a missing field's refusal", c.v, c.r.Contract, err)
			}
			got = append(got, pe.Field)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s %+v: missing %q, want %q", c.v, c.r, strings.Join(got, " "), c.want)
		}
	}
}
