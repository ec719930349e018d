package payout

import (
	"slices"
	"strings"

	"tappbook/internal/problem"
)

// need says whether a contract takes a field of the record.
type need int

const (
	never    need = iota // giving it is refused
	optional             // checked when given
	required             // refused when missing
)

// Suits a trump can be.
const (
	Clubs    = "clubs"
	Spades   = "spades"
	Hearts   = "hearts"
	Diamonds = "diamonds"
)

func allSuits() []string       { return []string{Clubs, Spades, Hearts, Diamonds} }
func suitsButHearts() []string { return []string{Clubs, Spades, Diamonds} }

// spec is what one contract asks of a record; each variant's file lists its
// contracts' specs next to its rules.
type spec struct {
	declarer, partner, trump, points, tricks, tout, kontra, matzl, ramsch need
	trumps                                                                []string // the suits trump may be, when trump is taken
	noTrump                                                               bool     // played without trump: no trump field, no matzl
	// wonBy: the declarer wins by taking no trick (WonByNoTrick: bettel)
	// or every trick (WonByAllTricks: durch, rufer, tout), and by nothing
	// else; "" where points decide.
	wonBy string
}

// What decides a contract that tricks alone decide (Fields.WonBy).
const (
	WonByNoTrick   = "none"
	WonByAllTricks = "all"
)

// geometry is what the pack and the deal look like: it turns tricks into
// cards held, for the points-versus-tricks check.
type geometry struct {
	total     int // card points in play (120, Matzlfangen 130)
	tricks    int // tricks in a deal
	perTrick  int // cards in a trick (the number of players)
	lastTrick int // points for the last trick (Matzlfangen 10)
	// talon: cards besides the tricks, and to which side they count given
	// the declarer's tricks.
	talon         int
	talonDeclarer func(tricks int) bool
	// tapp: the talon is called the tapp (Württemberg's seeds do).
	tapp bool
}

// maxPoints is what the n best cards of a pack are worth: four each of
// A (11), 10, K (4), Q (3), J (2); every other card is worth 0.
func maxPoints(n int) int {
	sum := 0
	for _, v := range []int{11, 10, 4, 3, 2} {
		take := max(0, min(n, 4))
		sum += take * v
		n -= take
	}
	return sum
}

// sideCards gives how many cards each side holds at the end, and the most
// they can be worth, when the declarer's side took t tricks.
func (g geometry) sideMax(t int) (declCards, declMax, oppCards, oppMax int) {
	declCards, oppCards = t*g.perTrick, (g.tricks-t)*g.perTrick
	if g.talon > 0 {
		if g.talonDeclarer(t) {
			declCards += g.talon
		} else {
			oppCards += g.talon
		}
	}
	declMax, oppMax = maxPoints(declCards), maxPoints(oppCards)
	if t > 0 {
		declMax += g.lastTrick
	}
	if t < g.tricks {
		oppMax += g.lastTrick
	}
	return
}

// recordField is one field a record may give, by api.md name: whether the
// record gives it and what the contract asks of it.
type recordField struct {
	name  string
	given bool
	need  need
}

// recordFields lists a record's fields in the order they are checked in
// (fieldOrder), so the same record always gets the same first error. An
// array, not a map: every deal is checked.
func recordFields(r Record, sp spec) [9]recordField {
	return [9]recordField{
		{"declarer", r.Declarer != "", sp.declarer}, {"partner", r.Partner != "", sp.partner},
		{"trump", r.Trump != "", sp.trump}, {"points", r.Points != nil, sp.points},
		{"tricks", r.Tricks != nil, sp.tricks}, {"tout", r.Tout != nil, sp.tout},
		{"kontra", r.Kontra != nil, sp.kontra}, {"matzl", r.Matzl != "", sp.matzl},
		{"ramsch", r.Ramsch != nil, sp.ramsch},
	}
}

// fieldOrder is the order fields are checked in.
func fieldOrder() []string {
	fs := recordFields(Record{}, spec{})
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// Missing lists every field r's contract requires that r leaves out, each
// as the refusal a record missing only that field gets, in the order they
// are checked: a form marks them all at once where Score stops at the
// first. Nothing for a contract the variant does not have.
func Missing(v Variant, r Record) []error {
	sp, ok := Describe(v).spec(r.Contract, r.Tout != nil && *r.Tout)
	if !ok {
		return nil
	}
	return missing(r, sp, false)
}

// missing gives the refusals for the fields sp requires that r leaves
// out; partial (a deal announced before it is played): not yet its counts.
func missing(r Record, sp spec, partial bool) []error {
	var out []error
	for _, f := range recordFields(r, sp) {
		counted := f.name == "points" || f.name == "tricks" || f.name == "ramsch"
		if !f.given && f.need == required && !(partial && counted) {
			out = append(out, inputErr(f.name, f.name+".missing"))
		}
	}
	return out
}

// checkFields refuses fields the contract does not take and asks for the
// ones it needs.
func checkFields(r Record, sp spec, partial bool) error {
	fs := recordFields(r, sp)
	for _, f := range fs {
		if f.given && f.need == never {
			if f.name == "trump" && sp.noTrump {
				return inputErr("trump", "trump.none", problem.Contract(r.Contract))
			}
			return inputErr(f.name, "field.not-taken", problem.Field(f.name), problem.Contract(r.Contract))
		}
	}
	if m := missing(r, sp, partial); len(m) > 0 {
		return m[0]
	}
	return nil
}

// checkPlayer refuses a name that is not at the table.
func (d *deal) checkPlayer(field, name string) (int, error) { return d.setup.SeatOf(field, name) }

// SeatOf gives the seat of a player named in field, refusing a name that is
// not at the table.
func (s Setup) SeatOf(field, name string) (int, error) {
	seat := s.IndexOf(name)
	if seat < 0 {
		return -1, inputErr(field, "player.unknown", field, name, strings.Join(s.Players, ", "))
	}
	return seat, nil
}

// checkTrump refuses a trump that is no suit or not one the contract allows.
func checkTrump(r Record, sp spec) error {
	if r.Trump == "" {
		return nil
	}
	if !slices.Contains(allSuits(), r.Trump) {
		return inputErr("trump", "trump.unknown", r.Trump)
	}
	if !slices.Contains(sp.trumps, r.Trump) {
		return inputErr("trump", "trump.not-allowed", problem.Contract(r.Contract), problem.Suit(r.Trump), problem.Choices("suit", sp.trumps))
	}
	return nil
}

// checkPointsTricks applies rules.md's input checks on card points and
// tricks each alone: the ranges, and the impossible 1 and total−1.
func checkPointsTricks(r Record, g geometry) error {
	if r.Points != nil {
		p := *r.Points
		switch {
		case p < 0 || p > g.total:
			return inputErr("points", "points.range", p, g.total)
		case p == 1:
			return inputErr("points", "points.one")
		case p == g.total-1:
			return inputErr("points", "points.total-minus-one", p)
		}
	}
	if r.Tricks != nil {
		if t := *r.Tricks; t < 0 || t > g.tricks {
			return inputErr("tricks", "tricks.range", t, g.tricks)
		}
	}
	return nil
}

// checkPointsFit refuses points that the tricks make impossible.
func checkPointsFit(r Record, g geometry) error {
	if r.Points == nil || r.Tricks == nil {
		return nil
	}
	p, t := *r.Points, *r.Tricks
	declCards, declMax, oppCards, oppMax := g.sideMax(t)
	if p > declMax {
		switch {
		case t == 0 && declCards == 0:
			return inputErr("points", "points.no-trick", p)
		case t == 0:
			talon := "talon"
			if g.tapp {
				talon = "tapp"
			}
			return inputErr("points", "points.no-trick-talon", declMax, p, problem.Words{Set: "talon", ID: talon, Text: talon})
		}
		return inputErr("points", "points.too-many", t, declCards, declMax, p)
	}
	if g.total-p > oppMax {
		if t == g.tricks && oppCards == 0 {
			return inputErr("points", "points.all-tricks", g.tricks, g.total, p)
		}
		return inputErr("points", "points.too-few", t, oppCards, oppMax, g.total-oppMax, p)
	}
	if !g.sideCanHold(t, p) {
		// Within the most and the least, but no cards make it (a talon of
		// 4 holds 37 or 40, never 38 or 39).
		return inputErr("points", "points.no-cards", t, declCards, p)
	}
	return nil
}

// checkRecord runs the checks every variant shares, in a fixed order, and
// returns the declarer's and partner's seats (-1 where there is none).
func (d *deal) checkRecord(r Record, sp spec, g geometry) (declarer, partner int, err error) {
	declarer, partner = -1, -1
	if err = checkFields(r, sp, d.partial); err != nil {
		return
	}
	if r.Declarer != "" {
		if declarer, err = d.checkPlayer("declarer", r.Declarer); err != nil {
			return
		}
	}
	if r.Partner != "" {
		if partner, err = d.checkPlayer("partner", r.Partner); err != nil {
			return
		}
		if partner == declarer {
			err = inputErr("partner", "partner.is-declarer", r.Partner)
			return
		}
	}
	if err = checkTrump(r, sp); err != nil {
		return
	}
	if err = checkPointsTricks(r, g); err != nil {
		return
	}
	if r.Kontra != nil && (*r.Kontra < 0 || *r.Kontra > 10) {
		err = inputErr("kontra", "kontra.range", *r.Kontra)
		return
	}
	if r.Matzl != "" && !slices.Contains([]string{MatzlNone, MatzlDeclarer, MatzlDefenders}, r.Matzl) {
		err = inputErr("matzl", "matzl.unknown", r.Matzl)
		return
	}
	if sp.noTrump && r.Matzl != "" && r.Matzl != MatzlNone {
		err = inputErr("matzl", "matzl.no-trump", problem.Contract(r.Contract))
		return
	}
	// What the fields say together comes last: a record whose tricks are
	// left out is tried with every count (scoreUncounted), and a mistake in
	// a field of its own must be named whatever count is tried.
	if err = checkMatzlTricks(r, g); err != nil {
		return
	}
	err = checkPointsFit(r, g)
	return
}

// checkMatzlTricks refuses a matzl "caught" by a side that took no trick,
// or that has under 10 card points:
// it is caught in a trick (rules.md matzlfangen, value 3), so such a record
// is a mistake, not a cancelled deal. Before the count the tricks are not
// known and the count is checked instead.
func checkMatzlTricks(r Record, g geometry) error {
	if r.Tricks != nil {
		switch {
		case r.Matzl == MatzlDeclarer && *r.Tricks == 0:
			return inputErr("matzl", "matzl.declarer-no-trick")
		case r.Matzl == MatzlDefenders && *r.Tricks == g.tricks:
			return inputErr("matzl", "matzl.defenders-no-trick", g.tricks)
		}
	}
	if r.Points != nil {
		// The trump ten alone is worth 10, and the side that caught it
		// took it in a trick.
		switch {
		case r.Matzl == MatzlDeclarer && *r.Points < 10:
			return inputErr("matzl", "matzl.declarer-few-points", *r.Points)
		case r.Matzl == MatzlDefenders && g.total-*r.Points < 10:
			return inputErr("matzl", "matzl.defenders-few-points", g.total-*r.Points)
		}
	}
	return nil
}

// contractErr refuses a contract the variant does not have.
func contractErr(v Variant, contract string, names []string) error {
	if contract == "" {
		return inputErr("contract", "contract.missing", problem.Choices("contract", names))
	}
	return inputErr("contract", "contract.unknown", contract, problem.Variant(string(v)), problem.Choices("contract", names))
}

// Fields tells a form which fields a contract takes: "required",
// "optional" or "" (never), with the suits its trump may be.
type Fields struct {
	Declarer, Partner, Trump, Points, Tricks, Tout, Kontra, Matzl, Ramsch string
	Trumps                                                                []string
	// DeclarerIsForehand: rufen's declarer is always forehand.
	DeclarerIsForehand bool
	// WonBy: WonByNoTrick or WonByAllTricks where the declarer wins by
	// taking no trick or every trick and by nothing else, so that a form
	// may ask "won or lost" and the count of tricks only when lost; "" where
	// points decide.
	WonBy string
}

// Contracts lists a variant's contracts in the order rules.md gives them.
func Contracts(v Variant) []string { return Describe(v).Contracts }

// ContractFields gives what a contract asks for (tout: with tout announced).
func ContractFields(v Variant, contract string, tout bool) (Fields, bool) {
	return Describe(v).Fields(contract, tout)
}

// TotalPoints is what the two sides' card points add up to in a variant.
func TotalPoints(v Variant) int { return Describe(v).TotalPoints() }

// TricksPerDeal is how many tricks a deal of the game has.
func TricksPerDeal(s Setup) int { return s.describe().Tricks(s) }
