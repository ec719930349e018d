package payout

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// Württemberg Tapp (rules.md "wuerttemberg"): 3 or 4 players, 36 cards (32
// as a house rule). The declarer plays alone against all others; no
// multipliers. Ramsch, when nobody plays, is everyone for themselves.

func wuerttembergDescriptor() *Descriptor {
	return &Descriptor{
		Variant: Wuerttemberg, MinPlayers: 3, MaxPlayers: 4, Contracts: wuerttembergContracts(),
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
		// Only hearts or not changes the value: a trump left out is
		// clubs, spades or diamonds (api.md "Recording a deal").
		return spec{declarer: required, trump: optional, trumps: allSuits(), trumpPays: []string{Hearts}, points: required, tricks: optional}, true
	case "suit-tapp":
		// Hearts are always trump: no trump is given (api.md names trump
		// for suit, rufer and durch), as for old-tapp's coeursolo.
		return spec{declarer: required, points: required, tricks: optional}, true
	case "bettel", "open-bettel":
		return spec{declarer: required, tricks: required, points: optional, noTrump: true, wonBy: WonByNoTrick}, true
	case "rufer", "durch":
		return spec{declarer: required, trump: optional, trumps: allSuits(), trumpPays: []string{Hearts}, tricks: required, points: optional, wonBy: WonByAllTricks}, true
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

// checkRamsch applies rules.md's Ramsch checks: every player's points and
// tricks, points that add up to the pack and tricks to the deal, and no
// points without a trick.
func checkRamsch(d *deal, r Record, g geometry) error {
	for name := range r.Ramsch {
		if d.setup.IndexOf(name) < 0 {
			return inputErr("ramsch", "ramsch.unknown", name, strings.Join(d.setup.Players, ", "))
		}
	}
	sumPoints, sumTricks := 0, 0
	for _, name := range d.setup.Players {
		s, ok := r.Ramsch[name]
		switch {
		case !ok:
			return inputErr("ramsch."+name, "ramsch.player-missing", name)
		case s.Points == nil:
			return inputErr("ramsch."+name+".points", "ramsch.points-missing", name, name)
		case s.Tricks == nil:
			return inputErr("ramsch."+name+".tricks", "ramsch.tricks-missing", name, name)
		}
		p, t := *s.Points, *s.Tricks
		switch {
		case p < 0 || p > g.total:
			return inputErr("ramsch."+name+".points", "ramsch.points-range", name, p)
		case p == 1:
			return inputErr("ramsch."+name+".points", "ramsch.points-one", name)
		case t < 0 || t > g.tricks:
			return inputErr("ramsch."+name+".tricks", "ramsch.tricks-range", name, t, g.tricks)
		case t == 0 && p > 0:
			return inputErr("ramsch."+name+".points", "ramsch.points-no-trick", name, name, name, p)
		}
		// The tapp goes to whoever takes the last trick, so a player with a
		// trick may hold it too.
		if most := maxPoints(t*g.perTrick + g.talon); t > 0 && p > most {
			return inputErr("ramsch."+name+".points", "ramsch.points-too-many", name, t, name, most, p)
		}
		sumPoints += p
		sumTricks += t
	}
	if sumPoints != g.total {
		return inputErr("ramsch", "ramsch.points-sum", sumPoints)
	}
	if sumTricks != g.tricks {
		return inputErr("ramsch", "ramsch.tricks-sum", sumTricks, g.tricks)
	}
	// Possible player by player, the record must be possible together.
	points, tricks := make([]int, len(d.setup.Players)), make([]int, len(d.setup.Players))
	for seat, name := range d.setup.Players {
		points[seat], tricks[seat] = *r.Ramsch[name].Points, *r.Ramsch[name].Tricks
	}
	if !ramschDealt(points, tricks, g) {
		return inputErr("ramsch", "ramsch.impossible")
	}
	return nil
}

// scoreRamsch: the player with the most card points pays 5 to each other
// player, 10 to each who took no trick (Jungfer). Decision: players tied for
// most each pay every player not in the tie; if everyone ties, nobody pays.
func scoreRamsch(d *deal, r Record, g geometry) error {
	if err := checkRamsch(d, r, g); err != nil {
		return err
	}
	e := &d.ex
	e.Contract, e.Outcome = "ramsch", Ramsch
	most := 0
	for _, s := range r.Ramsch {
		most = max(most, *s.Points)
	}
	var losers []int
	for seat, name := range d.setup.Players {
		if *r.Ramsch[name].Points == most {
			losers = append(losers, seat)
		}
	}
	if len(losers) == d.players() {
		e.add(Step{Kind: StepRamschTie, N: units(most)})
		return nil
	}
	simple, jungfer := d.setup.Rules.Values["ramsch"], d.setup.Rules.Values["jungfer"]
	for _, seat := range losers {
		e.add(Step{Kind: StepRamschPays, Player: d.setup.Players[seat], N: units(most), Value: simple})
	}
	var maidens []string
	for seat, name := range d.setup.Players {
		if slices.Contains(losers, seat) {
			continue
		}
		v := simple
		if *r.Ramsch[name].Tricks == 0 {
			v = jungfer
			maidens = append(maidens, name)
		}
		for _, loser := range losers {
			d.pay(loser, seat, v)
		}
	}
	for _, name := range maidens {
		e.add(Step{Kind: StepJungfer, Player: name, N: jungfer, Value: jungfer})
	}
	e.Value = simple
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
