package tapp

import (
	"fmt"

	"tappbook/internal/payout"
)

// Recheck re-scores the deal an event stores, from its record, against the
// game s as it stood before the event (the dealer by the deal's number, the
// pot before it), and says what differs from what was stored. scored
// reports whether the event scored a deal at all.
func (s *State) Recheck(p Payload) (scored bool, err error) {
	var hand int
	var rec payout.Record
	var stored Scored
	pot := s.pot
	switch p := p.(type) {
	case HandRecorded:
		hand, rec, stored = p.Hand, p.Record, p.Scored
	case HandCorrected:
		if s.Hand(p.Hand) == nil {
			return false, fmt.Errorf("corrects hand %d, which was never recorded", p.Hand)
		}
		hand, rec, stored, pot = p.Hand, p.Record, p.Scored, s.PotBefore(p.Hand)
	case HandRescored:
		h := s.Hand(p.Hand)
		if h == nil {
			return false, fmt.Errorf("re-scores hand %d, which was never recorded", p.Hand)
		}
		hand, rec, stored, pot = p.Hand, h.Record(), p.Scored, s.PotBefore(p.Hand)
	default:
		return false, nil
	}
	res, err := payout.Score(s.Setup, payout.Table{Dealer: s.DealerOf(hand), Pot: pot}, rec)
	if err != nil {
		return true, fmt.Errorf("hand %d's record does not score: %w", hand, err)
	}
	if !res.PotDelta.Equal(stored.PotDelta) || len(stored.Deltas) > len(res.Deltas) {
		return true, fmt.Errorf("hand %d scores %v (pot %s), but %v (pot %s) is stored", hand, res.Deltas, res.PotDelta, stored.Deltas, stored.PotDelta)
	}
	for seat, d := range res.Deltas {
		name := s.Setup.Players[seat]
		if got, ok := stored.Deltas[name]; (ok || !d.IsZero()) && !d.Equal(got) {
			return true, fmt.Errorf("hand %d scores %s for %s, but %s is stored (ruleset %s)", hand, d, name, got, stored.Ruleset)
		}
	}
	return true, nil
}
