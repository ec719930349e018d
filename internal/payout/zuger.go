package payout

// Zuger Tapp (rules.md "zuger"): 4 players, 36 cards, a talon of 4, 8
// tricks. The declarer plays alone against three; the talon or the discards
// always count for the declarer.

func zugerDescriptor() *Descriptor {
	return &Descriptor{
		Variant: Zuger, MinPlayers: 4, MaxPlayers: 4, Contracts: zugerContracts(),
		Rules: []HouseRule{
			// tapp_threshold: 61 (a draw at exactly 60) or 65 (no draw).
			intChoice("tapp_threshold", "rules.tapp_threshold", "a whole number, 61 or 65", []int{61, 65},
				func(r *Rules) *int { return &r.TappThreshold }),
		},
		defaults: func() Rules { return Rules{TappThreshold: 61} },
		spec:     func(contract string, _ bool) (spec, bool) { return zugerSpec(contract) },
		geometry: func(Setup, string) geometry { return zugerGeometry() },
		score:    scoreZuger,
	}
}

// zugerContracts: base value and the points the declarer wins with, low to
// high. The tapp threshold is a house rule.
func zugerContracts() []string { return []string{"tapp", "solo", "super", "vice", "pass"} }

func zugerBase(contract string) int {
	return map[string]int{"tapp": 1, "solo": 2, "super": 4, "vice": 6}[contract]
}

func zugerWinsWith(contract string, tappThreshold int) int {
	switch contract {
	case "tapp":
		return tappThreshold
	case "solo":
		return 65
	case "super":
		return 70
	}
	return 75 // vice
}

func zugerGeometry() geometry {
	return geometry{total: 120, tricks: 8, perTrick: 4, talon: 4,
		talonDeclarer: func(int) bool { return true }}
}

func zugerSpec(contract string) (spec, bool) {
	switch contract {
	case "pass":
		return spec{}, true
	case "tapp", "solo", "super", "vice":
		return spec{declarer: required, points: required, tricks: required}, true
	}
	return spec{}, false
}

func scoreZuger(d *deal, r Record) error {
	sp, ok := zugerSpec(r.Contract)
	if !ok {
		return contractErr(Zuger, r.Contract, zugerContracts())
	}
	declarer, _, err := d.checkRecord(r, sp, zugerGeometry())
	if err != nil || d.partial {
		return err
	}
	e := &d.ex
	e.Contract = r.Contract
	// All four pass: no game, no payment, the deal moves on.
	if r.Contract == "pass" {
		e.Outcome = Passed
		return nil
	}
	e.Declarer, e.Points, e.Tricks = r.Declarer, r.Points, r.Tricks
	points, tricks := *r.Points, *r.Tricks

	// Tapp at exactly 60 with the default threshold 61 is a draw: nobody pays.
	threshold := zugerWinsWith(r.Contract, d.setup.Rules.TappThreshold)
	if r.Contract == "tapp" && threshold == 61 && points == 60 {
		e.Outcome = Draw
		return nil
	}
	won := points >= threshold
	e.Outcome = Lost
	if won {
		e.Outcome = Won
	}

	// Multiplier: ×3 if the losing side took no trick (replacing ×2, never
	// ×6), else ×2 if it took fewer than 21 card points. The declarer's
	// count includes the talon, so a trickless declarer with 21+ points
	// still gets ×3.
	loserPoints, loserTricks := points, tricks
	if won {
		loserPoints, loserTricks = 120-points, 8-tricks
	}
	v := units(zugerBase(r.Contract))
	e.add(Step{Kind: StepBase, N: v, Value: v})
	switch {
	case loserTricks == 0:
		v = v.Mul(units(3))
		e.add(Step{Kind: StepTimes, Name: "no-trick", N: units(3), Value: v})
	case loserPoints < 21:
		v = v.Mul(units(2))
		e.add(Step{Kind: StepTimes, Name: "under-21", N: units(2), Value: v})
	}
	e.Value = v

	// A winning declarer receives the value from each of the three
	// opponents; a losing one pays each of them.
	d.alone(declarer, won, v)
	return nil
}
