package payout

import (
	"slices"
	"strings"
)

// Württemberg's Ramsch (rules.md "Ramsch"): nobody plays, everyone for
// themselves; the most card points pays. api.md asks only what can change
// the money: one player's points may be left out (the rest of the pack),
// and a player's tricks unless they are 0 (a Jungfer): left out, the
// player took at least one.

// unknownTricks marks a player's tricks left out: at least one.
const unknownTricks = -1

// ramschCounts reads a Ramsch record into points and tricks by seat, the
// points left out filled in, tricks left out unknownTricks, after rules.md's
// checks player by player.
func ramschCounts(d *deal, r Record, g geometry) (points, tricks []int, err error) {
	for name := range r.Ramsch {
		if d.setup.IndexOf(name) < 0 {
			return nil, nil, inputErr("ramsch", "ramsch.unknown", name, strings.Join(d.setup.Players, ", "))
		}
	}
	n := len(d.setup.Players)
	points, tricks = make([]int, n), make([]int, n)
	blank, sum := -1, 0
	for seat, name := range d.setup.Players {
		s := r.Ramsch[name]
		tricks[seat] = unknownTricks
		if s.Tricks != nil {
			tricks[seat] = *s.Tricks
		}
		switch {
		case s.Points != nil:
			points[seat] = *s.Points
			sum += *s.Points
		case blank < 0:
			blank = seat
		default:
			// Two left out: neither follows from the rest; the first
			// is asked for.
			first := d.setup.Players[blank]
			if _, given := r.Ramsch[first]; !given {
				return nil, nil, inputErr("ramsch."+first, "ramsch.player-missing", first)
			}
			return nil, nil, inputErr("ramsch."+first+".points", "ramsch.points-missing", first, first)
		}
	}
	if blank >= 0 {
		points[blank] = max(g.total-sum, 0)
		if sum > g.total {
			return nil, nil, inputErr("ramsch", "ramsch.points-sum", sum)
		}
	}
	for seat, name := range d.setup.Players {
		if err := checkRamschPlayer(name, points[seat], tricks[seat], g); err != nil {
			return nil, nil, err
		}
	}
	if blank < 0 && sum != g.total {
		return nil, nil, inputErr("ramsch", "ramsch.points-sum", sum)
	}
	return points, tricks, nil
}

// checkRamschPlayer checks one player's points and tricks (tricks
// unknownTricks: left out, at least one).
func checkRamschPlayer(name string, p, t int, g geometry) error {
	switch {
	case p < 0 || p > g.total:
		return inputErr("ramsch."+name+".points", "ramsch.points-range", name, p)
	case p == 1:
		return inputErr("ramsch."+name+".points", "ramsch.points-one", name)
	case t == unknownTricks:
		return nil
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
	return nil
}

// checkRamsch applies rules.md's Ramsch checks: every player's points and
// tricks, points that add up to the pack and tricks to the deal, no points
// without a trick, and a record possible as a whole, for some count of the
// tricks left out. It gives the points by seat and who took no trick.
func checkRamsch(d *deal, r Record, g geometry) (points []int, jungfer []bool, err error) {
	points, tricks, err := ramschCounts(d, r, g)
	if err != nil {
		return nil, nil, err
	}
	known, unknown := 0, 0
	jungfer = make([]bool, len(tricks))
	for seat, t := range tricks {
		if t == unknownTricks {
			unknown++
			continue
		}
		known += t
		jungfer[seat] = t == 0
	}
	if unknown == 0 && known != g.tricks || known > g.tricks {
		return nil, nil, inputErr("ramsch", "ramsch.tricks-sum", known, g.tricks)
	}
	if seat := leftOutJungfer(points, tricks); known+unknown > g.tricks && seat >= 0 {
		// Tricks left out are at least one each and too few are left:
		// one of them took none, a Jungfer, who has no points.
		name := d.setup.Players[seat]
		return nil, nil, inputErr("ramsch."+name+".tricks", "ramsch.tricks-none-left", name, known, g.tricks)
	}
	// Possible player by player, the record must be possible together.
	if !ramschPossible(points, tricks, g.tricks-known, g) {
		return nil, nil, inputErr("ramsch", "ramsch.impossible")
	}
	return points, jungfer, nil
}

// leftOutJungfer is the first seat whose tricks are left out and who has no
// points, a Jungfer's count told as "at least one trick"; -1 if none.
func leftOutJungfer(points, tricks []int) int {
	for seat, t := range tricks {
		if t == unknownTricks && points[seat] == 0 {
			return seat
		}
	}
	return -1
}

// ramschPossible says whether some count of the tricks left out (at least
// one each, left in all) makes the record a deal of the pack.
func ramschPossible(points, tricks []int, left int, g geometry) bool {
	seat := slices.Index(tricks, unknownTricks)
	if seat < 0 {
		return left == 0 && ramschDealt(points, tricks, g)
	}
	tricks = slices.Clone(tricks)
	for t := 1; t <= left; t++ {
		tricks[seat] = t
		if maxPoints(t*g.perTrick+g.talon) < points[seat] {
			continue // too few tricks for the points, even with the tapp
		}
		if ramschPossible(points, tricks, left-t, g) {
			return true
		}
	}
	return false
}

// scoreRamsch: the player with the most card points pays 5 to each other
// player, 10 to each who took no trick (Jungfer). Decision: players tied for
// most each pay every player not in the tie; if everyone ties, nobody pays.
func scoreRamsch(d *deal, r Record, g geometry) error {
	points, jungfer, err := checkRamsch(d, r, g)
	if err != nil {
		return err
	}
	e := &d.ex
	e.Contract, e.Outcome = "ramsch", Ramsch
	most := slices.Max(points)
	var losers []int
	for seat, p := range points {
		if p == most {
			losers = append(losers, seat)
		}
	}
	if len(losers) == d.players() {
		e.add(Step{Kind: StepRamschTie, N: units(most)})
		return nil
	}
	simple, maiden := d.setup.Rules.Values["ramsch"], d.setup.Rules.Values["jungfer"]
	for _, seat := range losers {
		e.add(Step{Kind: StepRamschPays, Player: d.setup.Players[seat], N: units(most), Value: simple})
	}
	var maidens []string
	for seat, name := range d.setup.Players {
		if slices.Contains(losers, seat) {
			continue
		}
		v := simple
		if jungfer[seat] {
			v = maiden
			maidens = append(maidens, name)
		}
		for _, loser := range losers {
			d.pay(loser, seat, v)
		}
	}
	for _, name := range maidens {
		e.add(Step{Kind: StepJungfer, Player: name, N: maiden, Value: maiden})
	}
	e.Value = simple
	return nil
}
