package payout

import (
	"slices"

	"tappbook/internal/names"
)

// Check refuses a setup that no deal can be scored in: a variant tappbook
// does not know, a seating it cannot deal to, house rules out of range.
func (s Setup) Check() error {
	d := Describe(s.Variant)
	if d == nil {
		return inputErr("variant", "variant.unknown", s.Variant)
	}
	if err := checkSeats(s.Variant, s.Players); err != nil {
		return err
	}
	return d.checkRules(s.Rules)
}

// IndexOf gives a player's seat, or -1.
func (s Setup) IndexOf(name string) int { return slices.Index(s.Players, name) }

// Name gives the player a name in a request stands for: the name itself,
// or the player it is once normalized as names are kept ("Jose" with a
// combining accent is "José", as the game stored it). A name of no player
// is given back as it is, for the rules to refuse.
func (s Setup) Name(n string) string {
	return names.Resolve(n, func(p string) bool { return s.IndexOf(p) >= 0 })
}

// Named gives the record with every player it names as Name gives them.
func (s Setup) Named(r Record) Record {
	r.Declarer, r.Partner = s.Name(r.Declarer), s.Name(r.Partner)
	if r.Ramsch != nil {
		m := make(map[string]RamschScore, len(r.Ramsch))
		for k, v := range r.Ramsch {
			if kept := s.Name(k); kept != k {
				if _, twice := r.Ramsch[kept]; !twice { // both spellings given: left to be refused
					k = kept
				}
			}
			m[k] = v
		}
		r.Ramsch = m
	}
	return r
}

// PlayerCount says how many players a variant seats.
func PlayerCount(v Variant) (min, max int) {
	if d := Describe(v); d != nil {
		return d.MinPlayers, d.MaxPlayers
	}
	return 0, 0
}
