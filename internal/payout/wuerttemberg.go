package payout

import (
	"github.com/shopspring/decimal"
)

// Württemberg Tapp (rules.md "wuerttemberg"): 3 or 4 players, 36 cards (32
// as a house rule). The declarer plays alone against all others; no
// multipliers. Ramsch, when nobody plays, is everyone for themselves.

func wuerttembergDescriptor() *Descriptor {
	return &Descriptor{
		Variant: Wuerttemberg, MinPlayers: 3, MaxPlayers: 4, Contracts: wuerttembergContracts(),
		UsualContract:  "suit",
		EndsWithHerzAs: true, ForcedContract: "ramsch",
		// rules.md: the values are in cents; the unit is the money of one
		// cent, 0.01 of the currency.
		UnitName: "cent", DefaultUnit: "0.01",
		Rules: []HouseRule{
			intChoice("cards", "rules.cards", "36 or 32", []int{36, 32}, func(r *Rules) *int { return &r.Cards }),
			toggle("suit_tapp", func(r *Rules) *bool { return &r.SuitTapp }),
			unitValues("values", WuerttembergValueKeys(), func(r *Rules) map[string]decimal.Decimal { return r.Values }),
		},
		defaults: func() Rules { return Rules{Cards: 36, Values: defaultWuerttembergValues()} },
		spec:     func(contract string, _ bool) (spec, bool) { return wuerttembergSpec(contract) },
		geometry: func(s Setup, contract string) geometry {
			return wuerttembergGeometry(len(s.Players), s.Rules.Cards, contract == "suit" || contract == "suit-tapp")
		},
		score:   scoreWuerttemberg,
		offered: func(r Rules, contract string) bool { return contract != "suit-tapp" || r.SuitTapp },
	}
}

// WuerttembergValueKeys lists the Württemberg contract values (api.md's keys).
func WuerttembergValueKeys() []string {
	return []string{
		"suit", "suit-hearts", "suit-tapp", "bettel", "rufer", "rufer-hearts",
		"open-bettel", "durch", "durch-hearts", "ramsch", "jungfer",
	}
}

func defaultWuerttembergValues() map[string]decimal.Decimal {
	v := map[string]int{
		"suit": 5, "suit-hearts": 10, "suit-tapp": 5, "bettel": 15, "rufer": 15,
		"rufer-hearts": 30, "open-bettel": 30, "durch": 30, "durch-hearts": 60,
		"ramsch": 5, "jungfer": 10,
	}
	out := make(map[string]decimal.Decimal, len(v))
	for k, n := range v {
		out[k] = units(n)
	}
	return out
}

func wuerttembergContracts() []string {
	return []string{"suit", "suit-tapp", "bettel", "rufer", "open-bettel", "durch", "ramsch"}
}

// wuerttembergGeometry: 3 players get 11 cards and a tapp of 3 (36 cards) or
// 10 and 2 (32); 4 players 8 and 4 (36) or 7 and 4 (32). The tapp counts for
// the declarer in suit games and is nobody's trick otherwise.
func wuerttembergGeometry(players, cards int, suitGame bool) geometry {
	tapp := 4
	if players == 3 {
		tapp = 3
		if cards == 32 {
			tapp = 2
		}
	}
	return geometry{total: 120, tricks: (cards - tapp) / players, perTrick: players, talon: tapp, tapp: true,
		talonDeclarer: func(int) bool { return suitGame }}
}

func wuerttembergSpec(contract string) (spec, bool) {
	switch contract {
	case "suit":
		return spec{declarer: required, trump: required, trumps: allSuits(), points: required, tricks: optional}, true
	case "suit-tapp":
		// Hearts are always trump: no trump is given (api.md names trump
		// for suit, rufer and durch), as for old-tapp's coeursolo.
		return spec{declarer: required, points: required, tricks: optional}, true
	case "bettel", "open-bettel":
		return spec{declarer: required, tricks: required, points: optional, noTrump: true, wonBy: WonByNoTrick}, true
	case "rufer", "durch":
		return spec{declarer: required, trump: required, trumps: allSuits(), tricks: required, points: optional, wonBy: WonByAllTricks}, true
	case "ramsch":
		return spec{ramsch: required, noTrump: true}, true
	}
	return spec{}, false
}

// wuerttembergValueKey gives the house-rule key of a contract's value.
func wuerttembergValueKey(contract, trump string) string {
	switch contract {
	case "suit", "rufer", "durch":
		if trump == Hearts {
			return contract + "-hearts"
		}
	}
	return contract
}

func scoreWuerttemberg(d *deal, r Record) error {
	sp, ok := wuerttembergSpec(r.Contract)
	if !ok {
		return contractErr(Wuerttemberg, r.Contract, wuerttembergContracts())
	}
	if r.Contract == "suit-tapp" && !d.setup.Rules.SuitTapp {
		return inputErr("contract", "contract.suit-tapp-off")
	}
	if d.stored && r.Contract == "suit-tapp" && r.Trump == Hearts {
		// Recorded with its hearts named until no trump was taken.
		sp.trump, sp.trumps = optional, []string{Hearts}
	}
	if d.stored && r.Trump == "" && sp.trump == required {
		// Stored with its trump left out while only hearts or not was
		// asked: clubs, spades or diamonds, which pay alike.
		sp.trump = optional
	}
	suitGame := r.Contract == "suit" || r.Contract == "suit-tapp"
	g := wuerttembergGeometry(d.players(), d.setup.Rules.Cards, suitGame)
	declarer, _, err := d.checkRecord(r, sp, g)
	if err != nil || d.partial {
		return err
	}
	if r.Contract == "ramsch" {
		return scoreRamsch(d, r, g)
	}
	e := &d.ex
	e.Contract, e.Trump, e.Declarer = r.Contract, r.Trump, r.Declarer
	e.Points, e.Tricks = r.Points, r.Tricks

	// Suit games are won with 61 points; bettel with no trick; rufer and
	// durch with every trick.
	var won bool
	switch r.Contract {
	case "suit", "suit-tapp":
		won = *r.Points >= 61
	case "bettel", "open-bettel":
		won = *r.Tricks == 0
	default:
		won = *r.Tricks == g.tricks
	}
	e.Outcome = Lost
	if won {
		e.Outcome = Won
	}
	v := d.setup.Rules.Values[wuerttembergValueKey(r.Contract, r.Trump)]
	e.add(Step{Kind: StepBase, N: v, Value: v})
	e.Value = v
	d.alone(declarer, won, v)
	return nil
}

// WuerttembergEnd applies rules.md's end of the evening: after "Herz-As",
// the player dealt ♥A (seat holder, in deal holderHand) deals the last
// regular round, which ends with the first deal after that one they deal;
// then each player deals one Zwangsramsch. For the deal numbered next it
// gives the last regular deal and, past it, which Zwangsramsch (1…players)
// next is, or done once every one is played. Deals are dealt in turn from
// seat 0.
func WuerttembergEnd(players, holder, holderHand, next int) (lastRegular, forced int, done bool) {
	lastRegular = holderHand + 1
	for (lastRegular-1)%players != holder {
		lastRegular++
	}
	switch {
	case next <= lastRegular:
		return lastRegular, 0, false
	case next <= lastRegular+players:
		return lastRegular, next - lastRegular, false
	}
	return lastRegular, 0, true
}
