package payout

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Outcome is how a deal ended for the declarer's side.
type Outcome string

const (
	Won       Outcome = "won"
	Lost      Outcome = "lost"
	Draw      Outcome = "draw"      // zuger tapp at exactly 60
	Even      Outcome = "even"      // old-tapp coeurfrage at exactly 60: neither won nor lost
	Passed    Outcome = "passed"    // nobody played
	Cancelled Outcome = "cancelled" // matzlfangen: matzl caught by the losing side
	Ramsch    Outcome = "ramsch"    // wuerttemberg: everyone for themselves
)

// Explanation says why a deal's numbers are what they are, as data, so that
// any language can render it. Steps run in the order the rules apply them;
// Value is what each opponent pays or receives in the end.
type Explanation struct {
	Contract string          `json:"contract"`
	Trump    string          `json:"trump,omitempty"`
	Tout     bool            `json:"tout,omitempty"`
	Declarer string          `json:"declarer,omitempty"`
	Partner  string          `json:"partner,omitempty"`
	Outcome  Outcome         `json:"outcome"`
	Points   *int            `json:"points,omitempty"`
	Tricks   *int            `json:"tricks,omitempty"`
	Steps    []Step          `json:"steps"`
	Value    decimal.Decimal `json:"value"`
}

// Step kinds. N is the step's own number (a base, a factor, a kontra level,
// an amount); Value is the running value after it.
const (
	StepStake          = "stake"           // Player puts N into the pot (old-tapp)
	StepBase           = "base"            // the contract's base N; Name: "", "no-water", "no-trick"
	StepTimes          = "times"           // × N; Name: "under-21", "no-trick"
	StepKontra         = "kontra"          // + N kontra levels; Name: the last level's name
	StepMatzl          = "matzl"           // + 1; Name: the side that caught it
	StepMatzlCancelled = "matzl-cancelled" // Name caught it and lost: every payment cancelled
	StepExcess         = "excess"          // points − 60 = N
	StepShortfall      = "shortfall"       // 60 − points = N
	StepPer            = "per"             // ÷ N = Exact, rounded up to Value
	StepTout           = "tout"            // tout: N from or to each opponent
	StepPotTake        = "pot-take"        // Player takes the pot of N
	StepPotDouble      = "pot-double"      // Player pays N into the pot, doubling it
	StepPotPay         = "pot-pay"         // Player also pays N into the pot
	StepRamschPays     = "ramsch-pays"     // Player has the most points (N) and pays
	StepJungfer        = "jungfer"         // Player took no trick: is paid N
	StepRamschTie      = "ramsch-tie"      // everyone tied: nobody pays
)

// Step is one rule applied to the deal.
type Step struct {
	Kind   string           `json:"kind"`
	Player string           `json:"player,omitempty"`
	Name   string           `json:"name,omitempty"`
	N      decimal.Decimal  `json:"n"`
	Exact  *decimal.Decimal `json:"exact,omitempty"`
	Value  decimal.Decimal  `json:"value"`
}

// KontraName gives the Matzlfangen name of a kontra level (1 Schuß … 10
// Drauffi); level 0 has none.
func KontraName(level int) string {
	names := []string{"", "Schuß", "Re", "Sub", "Dut", "Hirsch", "Gams", "Jager", "Gweih", "Auffi", "Drauffi"}
	if level < 0 || level >= len(names) {
		return ""
	}
	return names[level]
}

func (e *Explanation) add(s Step) { e.Steps = append(e.Steps, s) }

// Phrases gives the words of an explanation in one language: Phrase fills a
// phrase key (see EnglishPhrases) with its arguments. Amounts come as
// decimal.Decimal, for the language to format.
type Phrases interface {
	Phrase(key string, args ...any) string
}

// Text renders the explanation as one English line, the api.md
// "explanation".
func (e Explanation) Text() string { return e.Render(english) }

// english is built once: every recorded deal renders its line, and building
// the phrasebook each time cost more than the rendering. Never written after.
var english = newEnglishPhrases(EnglishPhrases())

// Render assembles the explanation's sentence from a language's phrases.
func (e Explanation) Render(p Phrases) string {
	e = e.asRead()
	t := e.sentences(p)
	return strings.Join(append([]string{e.line(p, t)}, t.pot...), "; ") + "."
}

// sentences are an explanation's steps in words, by the part of the
// explanation each goes in.
type sentences struct {
	value, pot, ramsch []string
	cancelled          string // why a caught matzl cancelled the deal
	plainBase          bool   // the base is the plain one, unnamed
}

func (e Explanation) sentences(p Phrases) sentences {
	var payers, jungfers []string
	for _, s := range e.Steps {
		switch s.Kind {
		case StepRamschPays:
			payers = append(payers, s.Player)
		case StepJungfer:
			jungfers = append(jungfers, s.Player)
		}
	}
	var t sentences
	for _, s := range e.Steps {
		switch s.Kind {
		case StepStake:
			t.pot = append(t.pot, p.Phrase("ex.stake", s.Player, s.N))
		case StepBase:
			if s.Name == "" {
				t.plainBase = true
				t.value = append(t.value, p.Phrase("ex.base", s.N))
			} else {
				t.value = append(t.value, p.Phrase("ex.base."+s.Name, s.N))
			}
		case StepTimes:
			t.value = append(t.value, p.Phrase("ex.times."+s.Name, s.N))
		case StepKontra:
			t.value = append(t.value, p.Phrase("ex.kontra", s.N, s.Name))
		case StepMatzl:
			t.value = append(t.value, p.Phrase("ex.matzl."+s.Name))
		case StepMatzlCancelled:
			t.cancelled = p.Phrase("ex.cancelled." + s.Name)
		case StepExcess:
			t.value = append(t.value, p.Phrase("ex.excess", s.N))
		case StepShortfall:
			t.value = append(t.value, p.Phrase("ex.shortfall", s.N))
		case StepPer:
			if s.Exact != nil && !s.Exact.Equal(s.Value) {
				t.value = append(t.value, p.Phrase("ex.per-rounded", s.N, *s.Exact, s.Value))
			} else {
				t.value = append(t.value, p.Phrase("ex.per", s.N))
			}
		case StepTout:
			t.value = append(t.value, p.Phrase("ex.tout", s.N))
		case StepPotTake:
			t.pot = append(t.pot, p.Phrase("ex.pot-take", s.Player, s.N))
		case StepPotDouble:
			t.pot = append(t.pot, p.Phrase("ex.pot-double", s.Player, s.N))
		case StepPotPay:
			t.pot = append(t.pot, p.Phrase("ex.pot-pay", s.Player, s.N))
		case StepRamschPays, StepJungfer, StepRamschTie:
			if r := ramschSentence(p, s, payers, jungfers); r != "" {
				t.ramsch = append(t.ramsch, r)
			}
		}
	}
	return t
}

// ramschSentence is a Ramsch step in words, "" where an earlier step's
// sentence already says it: players tied for most each pay every player
// not in the tie (rules.md, Decision), one sentence for the tie; several
// players without a trick are named in one sentence.
func ramschSentence(p Phrases, s Step, payers, jungfers []string) string {
	switch s.Kind {
	case StepRamschPays:
		switch {
		case len(payers) == 1:
			return p.Phrase("ex.ramsch-pays", s.Player, s.N, s.Value)
		case s.Player == payers[0]:
			return p.Phrase("ex.ramsch-tie-pays", ListOf(p, payers), s.N, s.Value)
		}
	case StepJungfer:
		key := "ex.jungfer"
		switch {
		case s.Player != jungfers[0]:
			return ""
		case len(jungfers) > 1 && len(payers) > 1:
			key = "ex.jungfer-tie-many"
		case len(jungfers) > 1:
			key = "ex.jungfer-many"
		case len(payers) > 1:
			key = "ex.jungfer-tie"
		}
		return p.Phrase(key, ListOf(p, jungfers), s.N)
	case StepRamschTie:
		return p.Phrase("ex.ramsch-tie")
	}
	return ""
}

// line is the explanation's first sentence: the contract and its outcome,
// how its value came about, and who pays whom.
func (e Explanation) line(p Phrases, t sentences) string {
	head := e.head(p)
	switch e.Outcome {
	case Passed:
		return p.Phrase("ex.passed")
	case Draw:
		return p.Phrase("ex.draw", head)
	case Even:
		return p.Phrase("ex.even", head)
	case Ramsch:
		return p.Phrase("ex.ramsch", strings.Join(t.ramsch, "; "))
	case Cancelled:
		return p.Phrase("ex.cancelled", head, strings.Join(t.value, " "), t.cancelled)
	}
	steps := ""
	if !(len(t.value) == 1 && t.plainBase) {
		steps = strings.Join(t.value, " ")
	}
	dir := "ex.from-each"
	if e.Outcome == Lost {
		dir = "ex.to-each"
	}
	if e.Contract == "rufen" {
		dir += "-rufen"
	}
	if steps == "" {
		return p.Phrase("ex.line-plain", head, p.Phrase(dir, e.Value))
	}
	return p.Phrase("ex.line", head, steps, p.Phrase(dir, e.Value))
}

// gap stands for a part of a phrase that is left out: names and words never
// hold a NUL (names are checked for control characters).
const gap = "\x00"

// fill renders a phrase whose arguments are parts of a sentence, any of them
// possibly empty: an empty part is left out with the space next to it.
func fill(p Phrases, key string, parts ...string) string {
	args := make([]any, len(parts))
	for i, s := range parts {
		if s == "" {
			s = gap
		}
		args[i] = s
	}
	s := p.Phrase(key, args...)
	s = strings.ReplaceAll(s, " "+gap, "")
	s = strings.ReplaceAll(s, gap+" ", "")
	return strings.ReplaceAll(s, gap, "")
}

// Head is the explanation's first clause alone: the game, who played it,
// how it ended and with what ("Solo by Anna, won with 75 points"), for a
// list of deals with no room for the reckoning (the printed report).
func (e Explanation) Head(p Phrases) string { return e.asRead().head(p) }

// asRead is the explanation as its sentence reads it: a coeurfrage at
// exactly 60 is even (rules.md); deals stored before the outcome existed
// say lost, with nothing to pay, and read as even.
func (e Explanation) asRead() Explanation {
	if e.Contract == "coeurfrage" && e.Outcome == Lost && e.Points != nil && *e.Points == 60 {
		e.Outcome = Even
	}
	return e
}

// head names the game, who played it, how it ended and with what, in the
// order the language says them ("ex.head"): a language whose participle
// would agree with the contract's gender can use another shape there
// (Swedish "Färgspel vanns av Ben", not "vunnen").
func (e Explanation) head(p Phrases) string {
	game := p.Phrase("contract." + e.Contract)
	if e.Trump != "" {
		game += " " + p.Phrase("ex.trump", p.Phrase("suit."+e.Trump))
	}
	if e.Tout {
		game += " " + p.Phrase("ex.tout-announced")
	}
	by := ""
	if e.Declarer != "" {
		if e.Partner != "" {
			by = p.Phrase("ex.by-two", e.Declarer, e.Partner)
		} else {
			by = p.Phrase("ex.by", e.Declarer)
		}
	}
	switch e.Outcome {
	case Won, Lost, Draw, Even, Cancelled:
		// No trick is said as such ("ohne Stich"), not as "in 0 tricks".
		with := ""
		switch {
		case e.Points != nil && e.Tricks != nil && *e.Tricks == 0:
			with = p.Phrase("ex.with-points-no-trick", *e.Points)
		case e.Points != nil && e.Tricks != nil:
			with = p.Phrase("ex.with-points-tricks", *e.Points, *e.Tricks)
		case e.Points != nil:
			with = p.Phrase("ex.with-points", *e.Points)
		case e.Tricks != nil && *e.Tricks == 0:
			with = p.Phrase("ex.with-no-trick")
		case e.Tricks != nil:
			with = p.Phrase("ex.with-tricks", *e.Tricks)
		}
		return fill(p, "ex.head", game, by, p.Phrase("ex.outcome."+string(outcomeWord(e))), with)
	}
	return fill(p, "ex.head", game, by, "", "")
}

// AtTheTable is how the deal ended at the table: its outcome, except that
// a deal whose payments a caught matzl cancelled was still won or lost
// there, by the side that did not catch it (rules.md, Matzlfangen).
func (e Explanation) AtTheTable() Outcome { return outcomeWord(e) }

// outcomeWord is the outcome a sentence names: AtTheTable.
func outcomeWord(e Explanation) Outcome {
	if e.Outcome != Cancelled {
		return e.Outcome
	}
	for _, s := range e.Steps {
		if s.Kind == StepMatzlCancelled {
			if s.Name == MatzlDeclarer {
				return Lost
			}
			return Won
		}
	}
	return e.Outcome
}

// ListOf names players as a language lists them: "Anna and Ben", "Anna,
// Ben and Cleo".
func ListOf(p Phrases, names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return p.Phrase("ex.list", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// EnglishPhrases lists the phrase keys an explanation uses and their English
// text, printf formats filled in order.
func EnglishPhrases() map[string]string {
	m := map[string]string{
		"ex.trump": "(%s)", "ex.tout-announced": "tout", "ex.by": "by %s", "ex.by-two": "by %s and %s",
		"ex.head":        "%[1]s %[2]s %[3]s %[4]s", // game, by whom, how it ended, with what
		"ex.outcome.won": "won", "ex.outcome.lost": "lost", "ex.outcome.draw": "drawn", "ex.outcome.even": "even", "ex.outcome.cancelled": "played",
		"ex.with-points-tricks": "with %d {1:point|points} in %d {2:trick|tricks}", "ex.with-points": "with %d {1:point|points}", "ex.with-tricks": "with %d {1:trick|tricks}",
		"ex.with-points-no-trick": "with %d {1:point|points} and no trick", "ex.with-no-trick": "with no trick",
		"ex.stake": "%s put the stake of %s into the pot",
		"ex.base":  "base %s", "ex.base.no-water": "base %s (losers under 30, no water)", "ex.base.no-trick": "base %s (losers took no trick)",
		"ex.times.under-21": "× %s (losers under 21)", "ex.times.no-trick": "× %s (losers took no trick)",
		"ex.kontra":         "+ %s kontra (%s)",
		"ex.matzl.declarer": "+ 1 matzl caught by the declarer's side", "ex.matzl.defenders": "+ 1 matzl caught by the defenders",
		"ex.cancelled.declarer":  "the declarer's side caught the matzl, so every payment is cancelled",
		"ex.cancelled.defenders": "the defenders caught the matzl, so every payment is cancelled",
		"ex.excess":              "excess %s", "ex.shortfall": "shortfall %s",
		"ex.per": "÷ %s", "ex.per-rounded": "÷ %s = %s, rounded up to %s", "ex.tout": "tout %s",
		"ex.pot-take": "%s takes the pot of %s", "ex.pot-double": "%s doubles the pot, paying %s into it", "ex.pot-pay": "%s also pays %s into the pot",
		"ex.ramsch-pays": "%s has the most points (%s) and pays %s to each other player",
		"ex.jungfer":     "%s took no trick (Jungfer) and is paid %s instead", "ex.ramsch-tie": "everyone has the same points, so nobody pays",
		"ex.ramsch-tie-pays": "%s tie for the most points (%s), and each pays %s to every player not in the tie",
		"ex.jungfer-tie":     "%s took no trick (Jungfer) and is paid %s by each of them instead",
		"ex.jungfer-many":    "%s took no trick (Jungfer) and are each paid %s instead", "ex.jungfer-tie-many": "%s took no trick (Jungfer) and are each paid %s by each of them instead",
		"ex.list":   "%s and %s",
		"ex.passed": "All passed: no game, nobody pays", "ex.draw": "%s: nobody pays", "ex.even": "%s: nobody pays", "ex.ramsch": "Ramsch: %s",
		"ex.cancelled": "%s: %s, but %s", "ex.line-plain": "%s: %s", "ex.line": "%s: %s = %s",
		"ex.from-each": "%s from each opponent", "ex.to-each": "%s to each opponent",
		"ex.from-each-rufen": "%s from each opponent, one to each of the two", "ex.to-each-rufen": "%s to each opponent, one from each of the two",
		"suit.clubs": "clubs", "suit.spades": "spades", "suit.hearts": "hearts", "suit.diamonds": "diamonds",
	}
	titles := map[string]string{
		"tapp": "Tapp", "solo": "Solo", "super": "Super", "vice": "Vice", "pass": "Pass",
		"coeurfrage": "Coeurfrage", "coeursolo": "Coeursolo",
		"rufen": "Rufen", "treiben": "Treiben", "neid": "Neid", "durch": "Durch", "trumpf-durch": "Trumpf-durch",
		"suit": "Suit", "suit-tapp": "Suit-tapp", "bettel": "Bettel", "rufer": "Rufer", "open-bettel": "Open bettel", "ramsch": "Ramsch",
	}
	for k, v := range titles {
		m["contract."+k] = v
	}
	// The words refusals name (problem.Words), as their English says them.
	m["talon.talon"], m["talon.tapp"] = "talon", "tapp"
	for _, v := range Variants() {
		for _, h := range Describe(v).Rules {
			m["rule-takes."+h.Key] = h.takes
		}
	}
	return m
}
