package payout

import "slices"

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

// PlayerCount says how many players a variant seats.
func PlayerCount(v Variant) (min, max int) {
	if d := Describe(v); d != nil {
		return d.MinPlayers, d.MaxPlayers
	}
	return 0, 0
}
