package payout

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Outcome is how a deal ended for the declarer's side.
type Outcome string

const (
	Won       Outcome = "won"
	Lost      Outcome = "lost"
	Draw      Outcome = "draw"      // zuger tapp at exactly 60
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

// Text renders the explanation as one English line, the api.md
// "explanation".
func (e Explanation) Text() string {
	var head strings.Builder
	head.WriteString(contractTitle(e.Contract))
	if e.Trump != "" {
		fmt.Fprintf(&head, " (%s)", e.Trump)
	}
	if e.Tout {
		head.WriteString(" tout")
	}
	if e.Declarer != "" {
		fmt.Fprintf(&head, " by %s", e.Declarer)
		if e.Partner != "" {
			fmt.Fprintf(&head, " and %s", e.Partner)
		}
	}
	switch e.Outcome {
	case Won, Lost, Draw, Cancelled:
		verb := map[Outcome]string{Won: "won", Lost: "lost", Draw: "drawn", Cancelled: "played"}[e.Outcome]
		head.WriteString(" " + verb)
		switch {
		case e.Points != nil && e.Tricks != nil:
			fmt.Fprintf(&head, " with %d points in %d tricks", *e.Points, *e.Tricks)
		case e.Points != nil:
			fmt.Fprintf(&head, " with %d points", *e.Points)
		case e.Tricks != nil:
			fmt.Fprintf(&head, " with %d tricks", *e.Tricks)
		}
	}

	var value, pot, ramsch []string
	cancelled, plainBase := "", false
	for _, s := range e.Steps {
		switch s.Kind {
		case StepStake:
			pot = append(pot, fmt.Sprintf("%s put the stake of %s into the pot", s.Player, s.N))
		case StepBase:
			switch s.Name {
			case "no-water":
				value = append(value, fmt.Sprintf("%s (losers under 30, no water)", s.N))
			case "no-trick":
				value = append(value, fmt.Sprintf("%s (losers took no trick)", s.N))
			default:
				plainBase = true
				value = append(value, fmt.Sprintf("base %s", s.N))
			}
		case StepTimes:
			reason := map[string]string{"under-21": "losers under 21", "no-trick": "losers took no trick"}[s.Name]
			value = append(value, fmt.Sprintf("× %s (%s)", s.N, reason))
		case StepKontra:
			value = append(value, fmt.Sprintf("+ %s kontra (%s)", s.N, s.Name))
		case StepMatzl:
			value = append(value, fmt.Sprintf("+ 1 matzl caught by the %s", sideName(s.Name)))
		case StepMatzlCancelled:
			cancelled = fmt.Sprintf("the %s caught the matzl but lost, so every payment is cancelled", sideName(s.Name))
		case StepExcess:
			value = append(value, fmt.Sprintf("excess %s", s.N))
		case StepShortfall:
			value = append(value, fmt.Sprintf("shortfall %s", s.N))
		case StepPer:
			if s.Exact != nil && !s.Exact.Equal(s.Value) {
				value = append(value, fmt.Sprintf("÷ %s = %s, rounded up to %s", s.N, s.Exact, s.Value))
			} else {
				value = append(value, fmt.Sprintf("÷ %s", s.N))
			}
		case StepTout:
			value = append(value, fmt.Sprintf("tout %s", s.N))
		case StepPotTake:
			pot = append(pot, fmt.Sprintf("%s takes the pot of %s", s.Player, s.N))
		case StepPotDouble:
			pot = append(pot, fmt.Sprintf("%s doubles the pot, paying %s into it", s.Player, s.N))
		case StepPotPay:
			pot = append(pot, fmt.Sprintf("%s also pays %s into the pot", s.Player, s.N))
		case StepRamschPays:
			ramsch = append(ramsch, fmt.Sprintf("%s has the most points (%s) and pays %s to each other player", s.Player, s.N, s.Value))
		case StepJungfer:
			ramsch = append(ramsch, fmt.Sprintf("%s took no trick (Jungfer) and is paid %s", s.Player, s.N))
		case StepRamschTie:
			ramsch = append(ramsch, "everyone has the same points, so nobody pays")
		}
	}

	var out []string
	switch e.Outcome {
	case Passed:
		out = append(out, "All passed: no game, nobody pays")
	case Draw:
		out = append(out, head.String()+" at exactly 60: nobody pays")
	case Ramsch:
		out = append(out, "Ramsch: "+strings.Join(ramsch, "; "))
	case Cancelled:
		out = append(out, head.String()+": "+strings.Join(value, " ")+", but "+cancelled)
	default:
		dir := "from"
		if e.Outcome == Lost {
			dir = "to"
		}
		line := head.String() + ": "
		if len(value) == 1 && plainBase {
			line += e.Value.String()
		} else {
			line += strings.Join(value, " ") + " = " + e.Value.String()
		}
		if e.Contract == "rufen" {
			line += fmt.Sprintf(" %s each opponent, one to each of the two", dir)
		} else {
			line += fmt.Sprintf(" %s each opponent", dir)
		}
		out = append(out, line)
	}
	out = append(out, pot...)
	return strings.Join(out, "; ") + "."
}

func sideName(side string) string {
	if side == MatzlDeclarer {
		return "declarer's side"
	}
	return "defenders"
}

func contractTitle(c string) string {
	titles := map[string]string{
		"tapp": "Tapp", "solo": "Solo", "super": "Super", "vice": "Vice",
		"coeurfrage": "Coeurfrage", "coeursolo": "Coeursolo",
		"rufen": "Rufen", "treiben": "Treiben", "neid": "Neid", "durch": "Durch", "trumpf-durch": "Trumpf-durch",
		"suit": "Suit", "suit-tapp": "Suit-tapp", "bettel": "Bettel", "rufer": "Rufer", "open-bettel": "Open bettel",
	}
	if t, ok := titles[c]; ok {
		return t
	}
	return c
}
