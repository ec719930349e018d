package payout

import (
	"errors"
	"fmt"
)

// InputError is a refused record or setup: which field is wrong and why, in
// words a player can act on. Code and Args let a UI say the same in another
// language; Error() is the English sentence.
type InputError struct {
	Field     string // the api.md field name, e.g. "points" or "ramsch.Anna.tricks"
	Code      string // a stable message key, see English
	Args      []any
	Malformed bool // the wrong JSON type rather than a value against the rules
}

func (e *InputError) Error() string { return fmt.Sprintf(English(e.Code), e.Args...) }

// AsInputError unwraps err to an *InputError, if it is one.
func AsInputError(err error) (*InputError, bool) {
	var ie *InputError
	ok := errors.As(err, &ie)
	return ie, ok
}

func inputErr(field, code string, args ...any) *InputError {
	return &InputError{Field: field, Code: code, Args: args}
}

// English gives the English text of a message code; args fill its verbs.
// Every code the package uses is here (a test checks it).
func English(code string) string {
	switch code {
	case "variant.unknown":
		return "variant %q is not one tappbook knows; choose zuger, old-tapp, matzlfangen or wuerttemberg"
	case "players.count":
		return "players: %s is played by %s players, not %d"
	case "players.empty":
		return "players: player %d has no name"
	case "players.space":
		return "players: %q starts or ends with a space"
	case "players.text":
		return "players: player %d's name is not valid text"
	case "players.long":
		return "players: %q is longer than %d characters"
	case "players.twice":
		return "players: %q is named twice; give every player a different name"
	case "rules.none":
		return "rules.%[1]s: %[2]s has no house rules, so %[1]q is not one"
	case "rules.unknown":
		return "rules.%[1]s: %[1]q is not a house rule of %[2]s; it takes %[3]s"
	case "rules.type":
		return "rules.%s must be %s"
	case "rules.tapp_threshold":
		return "rules.tapp_threshold is 61 (draw at 60) or 65 (no draw), not %d"
	case "rules.stake":
		return "rules.stake must be a whole number of units, 0 or more, not %s"
	case "rules.remainder":
		return `rules.remainder is "biggest-loser" or "cut", not %q`
	case "rules.cards":
		return "rules.cards is 36 or 32, not %d"
	case "rules.values.unknown":
		return "rules.values.%[1]s: %[1]q is not a Württemberg contract; the values are %[2]s"
	case "rules.values.range":
		return "rules.values.%s must be a whole number of units above 0, not %s"
	case "contract.missing":
		return "contract: say which contract was played (%s)"
	case "contract.unknown":
		return "contract: %q is not a %s contract; choose one of %s"
	case "contract.suit-tapp-off":
		return "contract: suit-tapp is not played in this game (turn on the suit_tapp house rule when starting it)"
	case "field.not-taken":
		return "%[1]s: %[2]s takes no %[1]s; leave it out"
	case "declarer.missing":
		return "declarer: say who played the contract"
	case "partner.missing":
		return "partner: say who held the called card"
	case "trump.missing":
		return "trump: say which suit was trump"
	case "points.missing":
		return "points: enter the card points of the declarer's side"
	case "tricks.missing":
		return "tricks: enter how many tricks the declarer's side took"
	case "ramsch.missing":
		return "ramsch: enter every player's points and tricks"
	case "player.unknown":
		return "%s: %q is not a player in this game (%s)"
	case "declarer.not-forehand":
		return "declarer: in rufen the declarer is forehand, %q, not %q"
	case "partner.is-declarer":
		return "partner: %q is the declarer and cannot also be the partner"
	case "trump.unknown":
		return "trump: %q is not a suit; choose clubs, spades, hearts or diamonds"
	case "trump.not-allowed":
		return "trump: %s is not played with %s trump; it allows %s"
	case "trump.none":
		return "trump: %s is played without trump; leave trump out"
	case "points.range":
		return "points: %d is outside 0–%d, the card points in the pack"
	case "points.one":
		return "points: no set of cards is worth exactly 1 point"
	case "points.total-minus-one":
		return "points: %d would leave the other side exactly 1 point, and no set of cards is worth 1"
	case "tricks.range":
		return "tricks: %d is outside 0–%d, the tricks in a deal"
	case "points.all-tricks":
		return "points: a side that took all %d tricks has all %d points, not %d"
	case "points.no-trick":
		return "points: a side that took no trick has no points, not %d"
	case "points.no-trick-talon":
		return "points: a declarer who took no trick holds only the talon, at most %d points, not %d"
	case "points.too-many":
		return "points: with %d tricks the declarer's side holds %d cards, worth at most %d points, not %d"
	case "points.too-few":
		return "points: with %d tricks the other side holds %d cards, worth at most %d points, so the declarer's side has at least %d, not %d"
	case "kontra.range":
		return "kontra: %d is outside 0 (none) to 10 (Drauffi)"
	case "matzl.unknown":
		return `matzl: %q is not a side; choose "none", "declarer" or "defenders"`
	case "matzl.no-trump":
		return "matzl: %s has no trump, so there is no matzl to catch"
	case "ramsch.player-missing":
		return "ramsch: enter points and tricks for %q"
	case "ramsch.unknown":
		return "ramsch: %q is not a player in this game (%s)"
	case "ramsch.points-missing":
		return "ramsch.%s.points: enter %s's card points"
	case "ramsch.tricks-missing":
		return "ramsch.%s.tricks: enter how many tricks %s took"
	case "ramsch.points-range":
		return "ramsch.%s.points: %d is outside 0–120"
	case "ramsch.points-one":
		return "ramsch.%s.points: no set of cards is worth exactly 1 point"
	case "ramsch.tricks-range":
		return "ramsch.%s.tricks: %d is outside 0–%d"
	case "ramsch.points-no-trick":
		return "ramsch.%s.points: %s took no trick, so %s has no points, not %d"
	case "ramsch.points-too-many":
		return "ramsch.%s.points: with %d tricks %s holds at most %d points, not %d"
	case "ramsch.points-sum":
		return "ramsch: the points add up to %d, but the pack holds 120"
	case "ramsch.tricks-sum":
		return "ramsch: the tricks add up to %d, but a deal has %d"
	case "field.unknown":
		return "%[1]s: %[1]q is not a field of this request; see docs/api.md"
	case "kontra.missing":
		return "level: give the kontra level, 0 (none) to 10 (Drauffi)"
	case "step.later":
		return "%s: is entered later in the deal, not with the contract"
	case "unit":
		return "unit: %q is not an amount above 0; give the money one unit is worth, such as 0.50"
	case "currency":
		return "currency: %q is not a three-letter ISO 4217 code such as CHF, EUR or SEK"
	case "void.reason":
		return "reason: say why this deal is voided, for the history"
	case "split.remainder-needed":
		return "remainder_to: the pot leaves %d unit(s) over; say who won the cut for them (one of %s)"
	case "split.remainder-count":
		return "remainder_to: name one player, or one per leftover unit (%d), not %d"
	case "split.remainder-player":
		return "remainder_to: %q is not a player in this game (%s)"
	case "split.remainder-not-tied":
		return "remainder_to: %q is not among the players tied for the lowest balance (%s)"
	}
	return "unknown problem (" + code + ")"
}
