package payout

import "github.com/shopspring/decimal"

// Matzlfangen (rules.md "matzlfangen"): 4 players, 32 cards, no talon, 8
// tricks; the last trick is worth 10, so the sides count to 130.

// Sides that can catch the matzl, the ten of trumps.
const (
	MatzlNone      = "none"
	MatzlDeclarer  = "declarer"
	MatzlDefenders = "defenders"
)

func matzlfangenDescriptor() *Descriptor {
	return &Descriptor{
		Variant: Matzlfangen, MinPlayers: 4, MaxPlayers: 4, Contracts: matzlfangenContracts(),
		// If everyone says "weiter", rufen is played.
		DefaultContract:    "rufen",
		spec:               func(contract string, _ bool) (spec, bool) { return matzlfangenSpec(contract) },
		geometry:           func(Setup, string) geometry { return matzlfangenGeometry() },
		score:              scoreMatzlfangen,
		declarerIsForehand: func(contract string) bool { return contract == "rufen" },
	}
}

func matzlfangenContracts() []string {
	return []string{"rufen", "treiben", "neid", "durch", "trumpf-durch"}
}

func matzlfangenGeometry() geometry {
	return geometry{total: 130, tricks: 8, perTrick: 4, lastTrick: 10}
}

func matzlfangenSpec(contract string) (spec, bool) {
	// Every contract takes kontra and matzl; trump is optional where there
	// is one (it is the turned-up suit, or the declarer's choice in treiben).
	sp := spec{kontra: optional, matzl: optional, trump: optional, trumps: allSuits()}
	switch contract {
	case "rufen":
		// The declarer is always forehand and may be left out; the partner
		// is whoever holds the called card.
		sp.declarer, sp.partner, sp.points, sp.tricks = optional, required, required, required
	case "treiben", "neid":
		sp.declarer, sp.points, sp.tricks = required, required, required
	case "trumpf-durch":
		sp.declarer, sp.points, sp.tricks, sp.wonBy = required, optional, required, WonByAllTricks
	case "durch":
		sp.declarer, sp.points, sp.tricks, sp.wonBy = required, optional, required, WonByAllTricks
		sp.trump, sp.trumps, sp.noTrump = never, nil, true
	default:
		return spec{}, false
	}
	return sp, true
}

func scoreMatzlfangen(d *deal, r Record) error {
	declarer, partner, err := matzlfangenSeats(d, r)
	if err != nil || d.partial {
		return err
	}
	e := &d.ex
	e.Contract, e.Trump = r.Contract, r.Trump
	e.Declarer, e.Partner = d.setup.Players[declarer], r.Partner
	e.Points, e.Tricks = r.Points, r.Tricks
	won, loserPoints, loserTricks := matzlfangenOutcome(r)
	e.Outcome = Lost
	if won {
		e.Outcome = Won
	}
	v := matzlfangenValue(e, r, loserPoints, loserTricks)

	// 3. Matzl: the side that caught it gets +1 if it won the deal; if it
	// lost, every payment of the deal is cancelled, kontra or not.
	if r.Matzl == MatzlDeclarer || r.Matzl == MatzlDefenders {
		catcherWon := (r.Matzl == MatzlDeclarer) == won
		if !catcherWon {
			e.add(Step{Kind: StepMatzlCancelled, Name: r.Matzl, Value: units(0)})
			e.Outcome, e.Value = Cancelled, units(0)
			return nil
		}
		v = v.Add(units(1))
		e.add(Step{Kind: StepMatzl, Name: r.Matzl, N: units(1), Value: v})
	}
	e.Value = v
	matzlfangenPay(d, r.Contract, declarer, partner, won, v)
	return nil
}

// matzlfangenSeats checks the record and gives the declarer's and the
// partner's seats: in a rufen the declarer is forehand.
func matzlfangenSeats(d *deal, r Record) (declarer, partner int, err error) {
	sp, ok := matzlfangenSpec(r.Contract)
	if !ok {
		return 0, 0, contractErr(Matzlfangen, r.Contract, matzlfangenContracts())
	}
	forehand := d.table.Forehand(d.players())
	if r.Contract == "rufen" && r.Declarer != "" && r.Declarer != d.setup.Players[forehand] {
		if _, err := d.checkPlayer("declarer", r.Declarer); err != nil {
			return 0, 0, err
		}
		return 0, 0, inputErr("declarer", "declarer.not-forehand", d.setup.Players[forehand], r.Declarer)
	}
	checked := r
	if r.Contract == "rufen" {
		// Forehand declares, named or not: a partner who is forehand is
		// refused as the declarer before any count is looked at.
		checked.Declarer = d.setup.Players[forehand]
	}
	return d.checkRecord(checked, sp, matzlfangenGeometry())
}

// matzlfangenOutcome says whether the declarer's side won, and what the
// losing side took. Rufen, treiben and neid are won with 66 points; durch
// and trumpf-durch only with all 8 tricks.
func matzlfangenOutcome(r Record) (won bool, loserPoints, loserTricks int) {
	tricks := *r.Tricks
	switch r.Contract {
	case "durch", "trumpf-durch":
		return tricks == 8, 0, 0
	}
	points := *r.Points
	if points >= 66 {
		return true, 130 - points, 8 - tricks
	}
	return false, points, tricks
}

// matzlfangenValue is the deal's value before the matzl, its steps
// explained in e.
func matzlfangenValue(e *Explanation, r Record, loserPoints, loserTricks int) decimal.Decimal {
	// 1. Base: 1; 2 if the losers took fewer than 30 points ("no water");
	// 3 if they took no trick. Durch and trumpf-durch: 6.
	var v = units(1)
	switch {
	case r.Contract == "durch" || r.Contract == "trumpf-durch":
		v = units(6)
		e.add(Step{Kind: StepBase, N: v, Value: v})
	case loserTricks == 0:
		v = units(3)
		e.add(Step{Kind: StepBase, Name: "no-trick", N: v, Value: v})
	case loserPoints < 30:
		v = units(2)
		e.add(Step{Kind: StepBase, Name: "no-water", N: v, Value: v})
	default:
		e.add(Step{Kind: StepBase, N: v, Value: v})
	}

	// 2. Kontra: +1 per level (1 Schuß … 10 Drauffi).
	if r.Kontra != nil && *r.Kontra > 0 {
		k := *r.Kontra
		v = v.Add(units(k))
		e.add(Step{Kind: StepKontra, Name: KontraName(k), N: units(k), Value: v})
	}
	return v
}

// matzlfangenPay moves the deal's value v. The declarer alone: ±3v, each
// opponent ∓v. Rufen: each opponent pays v to one of the two winners
// (forehand +v, partner +v, each opponent −v); a lost rufen the reverse.
func matzlfangenPay(d *deal, contract string, declarer, partner int, won bool, v decimal.Decimal) {
	if contract != "rufen" {
		d.alone(declarer, won, v)
		return
	}
	var opponents []int
	for seat := range d.deltas {
		if seat != declarer && seat != partner {
			opponents = append(opponents, seat)
		}
	}
	for i, side := range []int{declarer, partner} {
		if won {
			d.pay(opponents[i], side, v)
		} else {
			d.pay(side, opponents[i], v)
		}
	}
}
