package problem

import "strings"

// Term is one of the API's identifiers named in a message: a contract, a
// suit, a variant or a field. In English it is written as api.md spells it
// ("open-bettel", "points"), which a script can match; a UI in another
// language says it in its own words (the message key Set+"."+ID).
type Term struct {
	Set string // "contract", "suit", "variant" or "field"
	ID  string
}

func (t Term) String() string { return t.ID }

// Contract, Suit, Variant and Field name an identifier of that set.
func Contract(id string) Term { return Term{Set: "contract", ID: id} }
func Suit(id string) Term     { return Term{Set: "suit", ID: id} }
func Variant(id string) Term  { return Term{Set: "variant", ID: id} }
func Field(id string) Term    { return Term{Set: "field", ID: id} }

// Choice is a list of alternatives named in a message ("clubs, spades,
// diamonds"; "3 or 4"). English joins them with Sep, as the API has always
// written them; another language says its own "or" before the last.
type Choice struct {
	Terms []Term
	Sep   string // the English separator: ", " or " or "
}

func (c Choice) String() string {
	ids := make([]string, len(c.Terms))
	for i, t := range c.Terms {
		ids[i] = t.ID
	}
	return strings.Join(ids, c.Sep)
}

// Choices makes a Choice of identifiers of one set, joined by ", " in
// English.
func Choices(set string, ids []string) Choice {
	c := Choice{Terms: make([]Term, len(ids)), Sep: ", "}
	for i, id := range ids {
		c.Terms[i] = Term{Set: set, ID: id}
	}
	return c
}

// Number is a plain decimal named in a message ("0.50"): English writes it
// so, a UI with the language's decimal separator ("0,50"), places kept.
type Number string

// Words is a phrase of a message that a UI says in its own words: the
// message key Set+"."+ID, where English is Text.
type Words struct {
	Set, ID string
	Text    string // the English
}

func (w Words) String() string { return w.Text }
