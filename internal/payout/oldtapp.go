package payout

import "github.com/shopspring/decimal"

// Tapp of the late 19th century (rules.md "old-tapp"): 3 players, 36 cards,
// a talon of 3, 11 tricks, and a pot that carries from deal to deal.

// Remainder rules for the old-tapp final split (rules.md "End of the
// session"): the leftover units go to the winners of a cut (the default),
// or to the biggest loser.
const (
	RemainderBiggestLoser = "biggest-loser"
	RemainderCut          = "cut"
)

func oldTappDescriptor() *Descriptor {
	return &Descriptor{
		Variant: OldTapp, MinPlayers: 3, MaxPlayers: 3, Contracts: oldTappContracts(), HasPot: true,
		Rules: []HouseRule{
			wholeUnits("stake", "rules.stake", "a whole number of units, such as 2", 0,
				func(r *Rules) *decimal.Decimal { return &r.Stake }),
			stringChoice("remainder", "rules.remainder", `"biggest-loser" or "cut"`, []string{RemainderCut, RemainderBiggestLoser},
				func(r *Rules) *string { return &r.Remainder }),
		},
		defaults: func() Rules { return Rules{Stake: units(2), Remainder: RemainderCut} },
		// Games were stored with biggest-loser as the default remainder
		// until rules.md made the cut the default.
		stored:   func() Rules { return Rules{Stake: units(2), Remainder: RemainderBiggestLoser} },
		spec:     oldTappSpec,
		geometry: func(Setup, string) geometry { return oldTappGeometry() },
		score:    scoreOldTapp,
		// Only a solo takes or doubles the pot; a coeurfrage pays into it
		// what it pays each opponent, whatever it holds.
		potMatters: func(contract string) bool { return contract == "solo" || contract == "coeursolo" },
	}
}

func oldTappContracts() []string { return []string{"coeurfrage", "solo", "coeursolo", "pass"} }

func oldTappGeometry() geometry {
	// The talon (or the discards) counts for the declarer only if the
	// declarer took at least one trick, otherwise for the opponents.
	return geometry{total: 120, tricks: 11, perTrick: 3, talon: 3,
		talonDeclarer: func(t int) bool { return t > 0 }}
}

func oldTappSpec(contract string, tout bool) (spec, bool) {
	switch contract {
	case "pass":
		return spec{}, true
	case "coeurfrage":
		return spec{declarer: required, points: required, tricks: optional}, true
	case "solo", "coeursolo":
		sp := spec{declarer: required, points: required, tricks: optional, tout: optional}
		if contract == "solo" {
			// The declarer names clubs, spades or diamonds (rules.md
			// old-tapp contracts); the money does not depend on which, so
			// it need not be given (api.md), but is checked when it is.
			sp.trump, sp.trumps = optional, suitsButHearts()
		}
		if tout {
			// Tout: only taking all 11 tricks wins; card points do not matter.
			sp.points, sp.tricks, sp.wonBy = optional, required, WonByAllTricks
		}
		return sp, true
	}
	return spec{}, false
}

func scoreOldTapp(d *deal, r Record) error {
	tout := r.Tout != nil && *r.Tout
	sp, ok := oldTappSpec(r.Contract, tout)
	if !ok {
		return contractErr(OldTapp, r.Contract, oldTappContracts())
	}
	declarer, _, err := d.checkRecord(r, sp, oldTappGeometry())
	if err != nil || d.partial {
		return err
	}
	e := &d.ex
	e.Contract, e.Trump, e.Tout = r.Contract, r.Trump, tout

	// Before every deal the dealer puts the stake into the pot, even when it
	// still holds money and even when the deal is then passed in.
	stake := d.setup.Rules.Stake
	dealer := d.table.Dealer
	d.intoPot(dealer, stake)
	e.add(Step{Kind: StepStake, Player: d.setup.Players[dealer], N: stake, Value: stake})
	pot := d.table.Pot.Add(stake) // the pot a solo wins or doubles

	if r.Contract == "pass" {
		e.Outcome = Passed
		return nil
	}
	e.Declarer, e.Points, e.Tricks = r.Declarer, r.Points, r.Tricks

	// A coeurfrage at exactly 60 is even: neither won nor lost, nobody
	// pays, nothing goes into the pot but the stake.
	if r.Contract == "coeurfrage" && *r.Points == 60 {
		e.Outcome, e.Value = Even, units(0)
		return nil
	}

	won, v := oldTappValue(e, r, tout)
	e.Value = v
	e.Outcome = Lost
	if won {
		e.Outcome = Won
	}

	// Each opponent pays the winning declarer v, or the losing declarer
	// pays each of them v.
	d.alone(declarer, won, v)

	oldTappPot(d, r.Contract, declarer, r.Declarer, won, v, pot)
	return nil
}

// oldTappValue says whether the declarer won, and what each opponent is
// paid or pays: its steps explained in e.
func oldTappValue(e *Explanation, r Record, tout bool) (won bool, v decimal.Decimal) {
	if tout {
		// Tout is "60 excess, paid double": 60 in solo, 120 in coeursolo.
		won = *r.Tricks == 11
		v = units(60)
		if r.Contract == "coeursolo" {
			v = units(120)
		}
		e.add(Step{Kind: StepTout, N: v, Value: v})
	} else {
		points := *r.Points
		won = points >= 61
		// Excess = points − 60, shortfall = 60 − points, divided by 4
		// (coeurfrage), 2 (solo) or 1 (coeursolo), rounded up.
		diff := units(points - 60)
		if won {
			e.add(Step{Kind: StepExcess, N: diff, Value: diff})
		} else {
			diff = diff.Neg()
			e.add(Step{Kind: StepShortfall, N: diff, Value: diff})
		}
		per := map[string]int64{"coeurfrage": 4, "solo": 2, "coeursolo": 1}[r.Contract]
		v = diff
		if per > 1 {
			exact := diff.Div(decimal.NewFromInt(per))
			v = exact.Ceil()
			e.add(Step{Kind: StepPer, N: decimal.NewFromInt(per), Exact: &exact, Value: v})
		}
	}
	return won, v
}

// oldTappPot moves the pot after a deal of value v, declarer's (name as
// recorded): pot is what it holds, this deal's stake in.
func oldTappPot(d *deal, contract string, declarer int, name string, won bool, v, pot decimal.Decimal) {
	e := &d.ex
	switch {
	case contract == "coeurfrage":
		// A lost coeurfrage also pays into the pot what it pays each
		// opponent (at exactly 60: nothing); a won one leaves the pot be.
		if !won && v.IsPositive() {
			d.intoPot(declarer, v)
			e.add(Step{Kind: StepPotPay, Player: name, N: v, Value: v})
		}
	case won:
		// A won solo takes the whole pot, this deal's stake included.
		d.intoPot(declarer, pot.Neg())
		e.add(Step{Kind: StepPotTake, Player: name, N: pot, Value: pot})
	default:
		// A lost solo pays into the pot as much as it holds: doubles it.
		d.intoPot(declarer, pot)
		e.add(Step{Kind: StepPotDouble, Player: name, N: pot, Value: pot})
	}
}
