package payout

import "tappbook/internal/problem"

// The payout engine refuses a record or setup with a *problem.Error of kind
// Input naming the field and why, in words a player can act on.

func inputErr(field, code string, args ...any) *problem.Error {
	return catalogue.Input(field, code, args...)
}

// Messages is the engine's catalogue of refusals, for translators.
func Messages() problem.Catalogue { return catalogue }

// catalogue lists every message code the engine uses, with its English
// printf format (a counted word as {N:one|other}, see internal/plurals).
// Translations follow the same codes and verbs.
var catalogue = problem.NewCatalogue(map[string]string{
	"variant.unknown":            "variant %q is not one tappbook knows; choose zuger, old-tapp, matzlfangen or wuerttemberg",
	"players.count":              "players: %s is played by %s players, not %d",
	"players.empty":              "players: player %d has no name",
	"players.space":              "players: %q starts or ends with a space",
	"players.text":               "players: player %d's name is not valid text",
	"players.long":               "players: %q is %d characters long; a name may have at most %d characters",
	"players.twice":              "players: %q is named twice; give every player a different name",
	"players.same":               "players: %q and %q are the same name written differently (letter case or width); give every player a different name",
	"players.control":            "players: player %d's name %q holds a control character (%U), such as a line break or a tab; a name is one line of visible text",
	"players.bidi":               "players: player %d's name %q holds %U, which changes the direction text is shown in (it can show +3 as 3+); remove it",
	"players.invisible":          "players: player %d's name %q holds an invisible character (%U), which makes it look like another name; remove it",
	"players.disallowed":         "players: player %d's name %q holds %U, which a name may not use",
	"players.mixed":              "players: player %d's name %q mixes letters of the Latin, Greek or Cyrillic alphabets in one word (%U is one of another), which makes it look like another name; write each word in one alphabet",
	"amount.exponent":            "%s: %q is written with an exponent; write it as a plain number, such as 0.50 or 5",
	"amount.syntax":              "%s: %q is not a number; write it as a plain number, such as 0.50 or 5",
	"amount.thousands":           "%s: %q could be a thousand or a number with decimals; write it without a thousands separator, such as 1000 or 1.5",
	"amount.digits":              "%s: %q has more than %d digits before the decimal point",
	"amount.places":              "%s: %q has more than %d decimal places",
	"split.no-pot":               "remainder_to: %s has no pot to share out, so there is no cut; leave remainder_to out",
	"split.pot-empty":            "remainder_to: the pot is empty, so there is no cut; leave remainder_to out",
	"split.no-leftover":          "remainder_to: the pot of %s shares out equally among %d players, so there is no cut; leave remainder_to out",
	"split.biggest-loser":        "remainder_to: the leftover units go to the biggest loser, %s, without a cut; leave remainder_to out",
	"text.empty":                 "%s: write something visible",
	"text.invalid":               "%s: this is not valid text (UTF-8)",
	"text.long":                  "%s: %d characters is more than the %d allowed; say it shorter",
	"text.control":               "%s: the text holds a control character (%U), such as a line break or a tab; write one line of visible text",
	"text.bidi":                  "%s: the text holds %U, which changes the direction text is shown in (it can show +3 as 3+); remove it",
	"text.invisible":             "%s: the text holds an invisible character (%U); remove it",
	"text.disallowed":            "%s: the text holds %U, which is not allowed here",
	"rules.none":                 "rules.%[1]s: %[2]s has no house rules, so %[1]q is not one",
	"rules.unknown":              "rules.%[1]s: %[1]q is not a house rule of %[2]s; it takes %[3]s",
	"rules.type":                 "rules.%[1]s: must be %[2]s",
	"rules.tapp_threshold":       "rules.tapp_threshold: a tapp is won at 61 (draw at 60) or 65 (no draw), not %d",
	"rules.stake":                "rules.stake: the stake must be a whole number of units, 0 or more, not %s",
	"rules.remainder":            `rules.remainder: leftover pot units go to the "biggest-loser" or by a "cut", not %q`,
	"rules.cards":                "rules.cards: the pack has 36 or 32 cards, not %d",
	"rules.values.unknown":       "rules.values.%[1]s: %[1]q is not a Württemberg contract; the values are %[2]s",
	"rules.values.range":         "rules.values.%[1]s: the value of %[1]q must be a whole number above 0, not %[2]s",
	"rules.values.type":          "rules.values.%[1]s: the value of %[1]q must be a whole number above 0, such as 5",
	"contract.missing":           "contract: say which contract was played (%s)",
	"contract.unknown":           "contract: %q is not a contract of %s; choose one of %s",
	"contract.suit-tapp-off":     "contract: suit-tapp is not played in this game (turn on the suit_tapp house rule when starting it)",
	"field.not-taken":            "%[1]s: %[2]s takes no %[1]s; leave it out",
	"declarer.missing":           "declarer: say who played the contract",
	"partner.missing":            "partner: say who held the called card",
	"trump.missing":              "trump: say which suit was trump",
	"points.missing":             "points: enter the card points of the declarer's side",
	"tricks.money":               "tricks: with these points the number of tricks changes the payment (a side that took no trick pays or wins more); enter how many tricks the declarer's side took",
	"won.tricks":                 "won: %d {1:trick|tricks} does not agree with won or lost as given; give one of them, or both alike",
	"tricks.missing":             "tricks: enter how many tricks the declarer's side took",
	"ramsch.missing":             "ramsch: enter every player's points and tricks",
	"player.unknown":             "%s: %q is not a player in this game (%s)",
	"declarer.not-forehand":      "declarer: in rufen the declarer is forehand, %q, not %q",
	"partner.is-declarer":        "partner: %q is the declarer and cannot also be the partner",
	"trump.unknown":              "trump: %q is not a suit; choose clubs, spades, hearts or diamonds",
	"trump.not-allowed":          "trump: %s is not played with %s trump; it allows %s",
	"trump.none":                 "trump: %s is played without trump; leave trump out",
	"points.range":               "points: %d is outside 0–%d, the card points in the pack",
	"points.one":                 "points: no set of cards is worth exactly 1 point",
	"points.total-minus-one":     "points: %d would leave the other side exactly 1 point, and no set of cards is worth 1",
	"tricks.range":               "tricks: %d is outside 0–%d, the tricks in a deal",
	"points.all-tricks":          "points: a side that took all %d tricks has all %d points, not %d",
	"points.no-trick":            "points: a side that took no trick has no points, not %d",
	"points.no-trick-talon":      "points: a declarer who took no trick holds only the %[3]s, at most %[1]d {1:point|points}, not %[2]d",
	"points.too-many":            "points: with %d {1:trick|tricks} the declarer's side holds %d {2:card|cards}, worth at most %d {3:point|points}, not %d",
	"points.too-few":             "points: with %d {1:trick|tricks} the other side holds %d {2:card|cards}, worth at most %d {3:point|points}, so the declarer's side has at least %d, not %d",
	"points.no-cards":            "points: with %d {1:trick|tricks} the declarer's side holds %d {2:card|cards}, and no %[2]d cards of the pack are worth exactly %d {3:point|points}; check the count",
	"kontra.range":               "kontra: %d is outside 0 (none) to 10 (Drauffi)",
	"matzl.unknown":              `matzl: %q is not a side; choose "none", "declarer" or "defenders"`,
	"matzl.no-trump":             "matzl: %s has no trump, so there is no matzl to catch",
	"matzl.declarer-no-trick":    "matzl: the declarer's side took no trick, so it cannot have caught the matzl (it is caught in a trick); check the tricks or who caught it",
	"matzl.defenders-no-trick":   "matzl: the declarer's side took all %d tricks, so the defenders cannot have caught the matzl (it is caught in a trick); check the tricks or who caught it",
	"matzl.declarer-few-points":  "matzl: the declarer's side has %d {1:point|points}, but the matzl (the trump ten) alone is worth 10; check the points or who caught it",
	"matzl.defenders-few-points": "matzl: the defenders have %d {1:point|points}, but the matzl (the trump ten) alone is worth 10; check the points or who caught it",
	"ramsch.impossible":          "ramsch: no deal of the pack gives these points and tricks together: each player's tricks must hold the points given (and what the others cannot hold), and only one player took the last trick and the tapp with it; check each player's count",
	"ramsch.player-missing":      "ramsch: enter points and tricks for %q",
	"ramsch.unknown":             "ramsch: %q is not a player in this game (%s)",
	"ramsch.points-missing":      "ramsch.%s.points: enter %s's card points",
	"ramsch.tricks-missing":      "ramsch.%s.tricks: enter how many tricks %s took",
	"ramsch.points-range":        "ramsch.%s.points: %d is outside 0–120",
	"ramsch.points-one":          "ramsch.%s.points: no set of cards is worth exactly 1 point",
	"ramsch.tricks-range":        "ramsch.%s.tricks: %d is outside 0–%d",
	"ramsch.points-no-trick":     "ramsch.%s.points: %s took no trick, so %s has no points, not %d",
	"ramsch.points-too-many":     "ramsch.%s.points: with %d {2:trick|tricks} %s holds at most %d {4:point|points}, not %d",
	"ramsch.points-sum":          "ramsch: the points add up to %d, but the pack holds 120",
	"ramsch.tricks-sum":          "ramsch: the tricks add up to %d, but a deal has %d",
	"ramsch.tricks-none-left":    "ramsch.%[1]s.tricks: the tricks given add up to %[2]d of %[3]d, too many for every player whose tricks are left out to have taken one: enter %[1]s's tricks (0: no trick, a Jungfer)",
	"field.unknown":              "%[1]s: %[1]q is not a field of this request; see docs/api.md",
	"split.remainder-needed":     "remainder_to: the pot leaves %d {1:unit|units} over; say who won the cut for {1:it|them} (one of %s)",
	"split.remainder-count":      "remainder_to: name one player, or one per leftover unit (%d), not %d",
	"split.remainder-player":     "remainder_to: %q is not a player in this game (%s)",
	"split.remainder-not-tied":   "remainder_to: %q is not among the players tied for the lowest balance (%s)",
})

// UnknownField refuses a field a request does not take.
func UnknownField(name string) *problem.Error {
	return inputErr(name, "field.unknown", name)
}
