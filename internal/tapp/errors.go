package tapp

import "tappbook/internal/problem"

// Messages is the game's catalogue of refusals, for translators.
func Messages() problem.Catalogue { return catalogue }

// catalogue holds what the game refuses and why, in English printf
// formats; the UI translates the same codes.
var catalogue = problem.NewCatalogue(map[string]string{
	"notfound.game":                 "there is no game with this id; check the link",
	"notfound.hand":                 "there is no hand %v in this game",
	"notfound.hand-number":          "there is no hand %q in this game; hands are numbered from 1",
	"notfound.deal":                 "no deal is being recorded step by step",
	"notfound.variant":              "there is no variant %q; tappbook knows zuger, old-tapp, matzlfangen and wuerttemberg",
	"kontra.missing":                "level: give the kontra level, 0 (none) to 10 (Drauffi)",
	"matzl.missing":                 "side: say which side caught the matzl: none, declarer or defenders",
	"conflict.damaged":              "this game's stored history is damaged at event %d (version %d: %s); it can be read up to there but nothing can be recorded; restore it from a backup",
	"conflict.closed":               "this evening is closed; nothing more can be recorded or changed unless it is reopened, with a reason",
	"conflict.not-closed":           "this evening is not closed, so there is nothing to reopen",
	"conflict.close-changed":        "the evening has changed since who pays whom was shown (something was recorded on another phone meanwhile); check it as it stands now, then end the evening",
	"conflict.dealer":               "%[1]s is the dealer of deal %[2]d, not %[3]s; someone may have recorded a deal meanwhile",
	"conflict.dealer-unknown":       "%[3]q is not a player of this game; %[1]s is the dealer of deal %[2]d",
	"conflict.hand":                 "this is deal %d, not %d; someone may have recorded it already, so check the list before recording again",
	"conflict.entered":              "deal %d was changed by someone else since this correction was begun; it now reads: %s. Check it, then save again to replace it",
	"conflict.no-deal":              "no deal is being recorded step by step; announce the contract first",
	"conflict.voided":               "deal %d is already voided",
	"conflict.retract-not-last":     "only the last deal recorded can be taken back (undone), and deal %d is not: deal %d is; correct deal %[1]d or void it instead",
	"conflict.retract-herz-as":      "deal %d cannot be taken back: Herz-As was said after it; take back Herz-As first, or correct or void the deal",
	"conflict.over":                 "the evening is over: every Zwangsramsch is played; close it (corrections and voids still work)",
	"conflict.forced":               "deal %d is Zwangsramsch %d of %d: only ramsch can be played now",
	"conflict.holder-first":         "say who was dealt the ♥A in deal %d (or that it lay in the tapp) before recording deal %d: it may be a Zwangsramsch",
	"conflict.herz-as-variant":      "Herz-As ends a Württemberg evening; this game is %s",
	"conflict.herz-as-again":        "Herz-As was already announced",
	"conflict.herz-as-none":         "nobody has said Herz-As in this game",
	"conflict.herz-as-holder-known": "%s was already named as dealt the ♥A in deal %d",
	"conflict.herz-as-holder-late":  "%s can no longer be changed as dealt the ♥A: %[3]d deals are recorded, past deal %[2]d, which one answer makes the last regular deal and the other a Zwangsramsch; take back Herz-As instead",
	"conflict.herz-as-in-tapp":      "the ♥A of deal %d was already said to lie in the tapp, so the question is now who is dealt it in deal %d",
	"conflict.herz-as-holder-early": "the ♥A holder is asked about deal %d, which is not dealt yet",
	"conflict.herz-as-withdraw":     "Herz-As can no longer be taken back: a Zwangsramsch has been played",
	"herz-as.player-missing":        `player: say who was dealt the ♥A, or send {"in_tapp": true}`,
	"herz-as.both":                  "player: the ♥A was either dealt to a player or lay in the tapp, not both",
	"unit":                          "unit: %q is not an amount above 0; give the money one unit is worth, such as 0.50",
	"unit.places":                   "unit: %s has more decimal places than %s has (%d), so what it adds up to could not be paid exactly; give a unit such as %s",
	"currency":                      "currency: %q is not a three-letter ISO 4217 code such as CHF, EUR or SEK",
	"currency.symbol":               "currency: write %[2]s instead of %[1]q",
	"currency.symbols":              "currency: write one of %[2]s instead of %[1]q",
	"reopen.reason":                 "reason: say why the evening is reopened, for the history",
	"void.reason":                   "reason: say why this deal is voided, for the history",
	"notfound.player":               "%q is not a player of this evening",
	"notfound.transfer":             "there is no transfer %d: the close lists %d, numbered from 0",
	"conflict.transfer-open":        "who pays whom is fixed when the evening is ended; end it first, then mark what was paid",
	"conflict.paid-by":              "%[1]s pays %[2]s %[3]s, so only %[1]s can say it is sent, not %[4]s",
	"conflict.paid-twice":           "%[1]s already said the %[3]s to %[2]s is sent",
	"conflict.confirmed-by":         "%[2]s is paid %[3]s by %[1]s, so only %[2]s can say it arrived, not %[4]s",
	"conflict.confirmed-twice":      "%[2]s already said %[1]s's %[3]s arrived",
	"transfer.by-missing":           "by: say who you are (the payer says it is sent, the payee that it arrived)",
	"step.later":                    "%s: is entered later in the deal, not with the contract",
})
