package payout

import "encoding/json"

// Descriptor is everything tappbook knows of one variant, kept in the
// variant's own file beside its scoring: how many sit at the table, its
// contracts and what each asks of a record, the pack and the deal, its house
// rules with their defaults and checks, and what the end of an evening asks.
// The rest of tappbook asks the descriptor rather than naming variants: a
// fifth variant is one more file.
type Descriptor struct {
	Variant    Variant
	MinPlayers int
	MaxPlayers int
	// Contracts in the order rules.md gives them.
	Contracts []string
	// DefaultContract is played when nobody bids (Matzlfangen's rufen);
	// "" when a contract must be chosen.
	DefaultContract string
	// UsualContract is the contract most deals are, which a new deal's
	// form shows chosen where none is played by default (Württemberg's
	// suit): its trump is a tap of its own, the contract none.
	UsualContract string
	// HasPot: the dealer pays a stake into a pot that carries over and is
	// shared out at the end (old-tapp).
	HasPot bool
	// EndsWithHerzAs: the evening ends by "Herz-As", a last regular deal and
	// one ForcedContract deal per player (Württemberg's Zwangsramsch).
	EndsWithHerzAs bool
	ForcedContract string
	// Rules are the house rules, in the order a form shows them.
	Rules []HouseRule
	// UnitName is what one unit of the variant's scores is: "" a plain
	// unit, "cent" where the values are in cents (Württemberg), so that a
	// new evening says its unit is the money of one cent. DefaultUnit is
	// the unit's money a new evening's form starts with ("" for 1).
	UnitName    string
	DefaultUnit string

	defaults func() Rules // rules.md's defaults
	// stored are the defaults of the games already stored, where a default
	// has changed since (old-tapp's remainder).
	stored   func() Rules
	spec     func(contract string, tout bool) (spec, bool)
	geometry func(s Setup, contract string) geometry
	score    func(d *deal, r Record) error
	// offered reports whether a contract may be chosen under these rules
	// (suit-tapp only when the house rule allows it).
	offered func(r Rules, contract string) bool
	// declarerIsForehand: in this contract the declarer is forehand.
	declarerIsForehand func(contract string) bool
	// potMatters: a deal of this contract may score differently with
	// another pot before it. nil: no contract's result depends on the pot.
	potMatters func(contract string) bool
}

// HouseRule is one house rule of a variant: its api.md key, how a form
// asks for it, and how its JSON value is read, shown and checked.
type HouseRule struct {
	Key  string
	Form RuleForm
	// Choices of a RuleChoice, as api.md writes them.
	Choices []string
	// Keys of a RuleValues: one whole number of units each.
	Keys []string
	// Numeric: a choice's JSON value is a number, not a string.
	Numeric bool
	// takes says in English what the rule's value is ("36 or 32"), for a
	// refusal of the wrong kind; a UI says it by key "rule-takes."+Key.
	takes string

	set   func(r *Rules, raw json.RawMessage) error
	show  func(r Rules) any
	check func(r Rules) error
}

// RuleForm is how a form asks for a house rule.
type RuleForm string

const (
	RuleChoice RuleForm = "choice" // one of Choices
	RuleUnits  RuleForm = "units"  // a whole number of units
	RuleToggle RuleForm = "toggle" // true or false
	RuleValues RuleForm = "values" // one whole number of units per key
)

// descriptors lists every variant in the order rules.md presents them. It is
// made once and never written to.
var descriptors = []*Descriptor{zugerDescriptor(), oldTappDescriptor(), matzlfangenDescriptor(), wuerttembergDescriptor()}

// Describe gives a variant's descriptor; nil for a variant tappbook does
// not know.
func Describe(v Variant) *Descriptor {
	for _, d := range descriptors {
		if d.Variant == v {
			return d
		}
	}
	return nil
}

// Variants lists every variant in the order rules.md presents them.
func Variants() []Variant {
	out := make([]Variant, len(descriptors))
	for i, d := range descriptors {
		out[i] = d.Variant
	}
	return out
}

// ParseVariant refuses anything but the variant ids.
func ParseVariant(s string) (Variant, error) {
	if d := Describe(Variant(s)); d != nil {
		return d.Variant, nil
	}
	return "", inputErr("variant", "variant.unknown", s)
}

// Defaults gives the house rules rules.md sets when a game says nothing.
func (d *Descriptor) Defaults() Rules {
	if d.defaults == nil {
		return Rules{}
	}
	return d.defaults()
}

// Offered lists the contracts a game with these rules may record.
func (d *Descriptor) Offered(r Rules) []string {
	var out []string
	for _, c := range d.Contracts {
		if d.offered == nil || d.offered(r, c) {
			out = append(out, c)
		}
	}
	return out
}

// Fields tells a form which fields a contract takes (tout: with tout
// announced); false for a contract the variant does not have.
func (d *Descriptor) Fields(contract string, tout bool) (Fields, bool) {
	sp, ok := d.spec(contract, tout)
	name := func(n need) string { return [...]string{"", "optional", "required"}[n] }
	return Fields{
		Declarer: name(sp.declarer), Partner: name(sp.partner), Trump: name(sp.trump),
		Points: name(sp.points), Tricks: name(sp.tricks), Tout: name(sp.tout),
		Kontra: name(sp.kontra), Matzl: name(sp.matzl), Ramsch: name(sp.ramsch),
		Trumps:             sp.trumps,
		DeclarerIsForehand: d.declarerIsForehand != nil && d.declarerIsForehand(contract),
		WonBy:              sp.wonBy,
	}, ok
}

// PotMatters reports whether a deal of this contract may score differently
// with another pot before it (old-tapp's solos take or double the pot). A
// deal for which it is false scores the same at any pot, so a change
// earlier in the evening never re-scores it.
func (d *Descriptor) PotMatters(contract string) bool {
	return d.potMatters != nil && d.potMatters(contract)
}

// TotalPoints is what the two sides' card points add up to.
func (d *Descriptor) TotalPoints() int {
	return d.geometry(Setup{Variant: d.Variant, Players: make([]string, d.MaxPlayers), Rules: d.Defaults()}, "").total
}

// Tricks is how many tricks a deal of the game has.
func (d *Descriptor) Tricks(s Setup) int { return d.geometry(s, "").tricks }

// describe is the descriptor of a setup's variant; Setup.Check has made
// sure there is one.
func (s Setup) describe() *Descriptor { return Describe(s.Variant) }
