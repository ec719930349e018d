package tapp

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// A recorded deal is changed only by new events: a correction (with the
// later deals it re-scores), a void, or the last deal retracted.
func (s *State) decideCorrect(c CorrectHand) ([]Payload, error) {
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	n := c.Hand
	h := s.Hand(n)
	if h == nil {
		return nil, catalogue.NotFound("notfound.hand", n)
	}
	if err := s.check(c.Checks, n); err != nil {
		return nil, err
	}
	if (c.Checks.Entered != nil && *c.Checks.Entered != h.Entered()) || (c.Checks.Changes != nil && *c.Checks.Changes != h.Changes()) {
		now := strings.TrimSuffix(h.Result().Text(), ".")
		if h.Voided {
			now = "voided (" + h.VoidReason + ")"
		}
		return nil, catalogue.Conflict("conflict.entered", n, now)
	}
	if e := s.End(); e.ForcedDeal(n) && c.Record.Contract != s.Variant().ForcedContract {
		return nil, catalogue.Conflict("conflict.forced", n, n-e.LastRegular, len(s.Setup.Players))
	}
	pot := s.PotBefore(n)
	// A deal brought back as it was (the undo taken back) is its stored
	// record, not a new one.
	sc, err := s.scored(payout.Table{Dealer: s.DealerOf(n), Pot: pot}, c.Record, !c.stored && !reflect.DeepEqual(c.Record, h.Record()))
	if err != nil {
		return nil, err
	}
	potAfter := addUnits(pot, sc.PotDelta)
	later, err := s.rescore(n, potAfter)
	if err != nil {
		return nil, err
	}
	first := HandCorrected{Hand: n, Record: c.Record, Reason: reason, PotAfter: potAfter, Scored: sc}
	return append([]Payload{first}, later...), nil
}

func (s *State) decideVoid(c VoidHand) ([]Payload, error) {
	h := s.Hand(c.Hand)
	if h == nil {
		return nil, catalogue.NotFound("notfound.hand", c.Hand)
	}
	if h.Voided {
		return nil, catalogue.Conflict("conflict.voided", c.Hand)
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	if reason == "" {
		return nil, catalogue.Input("reason", "void.reason")
	}
	void := HandVoided{Hand: c.Hand, Reason: reason}
	potAfter := s.PotBefore(c.Hand)
	if s.Variant().HasPot && !c.stakeBack {
		// rules.md "Decisions": a misdeal was dealt, so the dealer's
		// stake stays in the pot.
		stake := s.Setup.Rules.Stake
		void.StakeKept = &stake
		potAfter = addUnits(potAfter, stake)
	}
	later, err := s.rescore(c.Hand, potAfter)
	if err != nil {
		return nil, err
	}
	return append([]Payload{void}, later...), nil
}

// decideRetract takes back the last deal as if never recorded. Being the
// last, no later deal is re-scored; the stake of an old-tapp deal leaves
// the pot with it (rules.md "Decisions").
func (s *State) decideRetract(c RetractHand) ([]Payload, error) {
	h := s.Hand(c.Hand)
	if h == nil {
		return nil, catalogue.NotFound("notfound.hand", c.Hand)
	}
	if last := len(s.hands.items); c.Hand != last {
		return nil, catalogue.Conflict("conflict.retract-not-last", c.Hand, last)
	}
	if s.HerzAs != nil && c.Hand <= s.HerzAs.AfterHand {
		// The end of the evening was counted from this deal on.
		return nil, catalogue.Conflict("conflict.retract-herz-as", c.Hand)
	}
	if h := s.HerzAs; h != nil && (h.HolderHand >= c.Hand || slices.Contains(h.InTapp, c.Hand)) {
		// The end of the evening is counted from what was dealt in it.
		return nil, catalogue.Conflict("conflict.retract-herz-as-holder", c.Hand)
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	return []Payload{HandRetracted{Hand: c.Hand, Dealer: s.Setup.Players[h.Dealer], Reason: reason}}, nil
}

// rescore walks the deals after n, given the pot after deal n as it will
// now be, and re-scores each counted deal whose pot before it changed; it
// stops where the pot is as it was, since from there on nothing changes.
// The pot each deal met is carried forward once, so the walk is linear in
// the deals it passes, and a deal whose result cannot depend on the pot
// (payout.Descriptor.PotMatters) is passed without being scored. Deals of
// variants without a pot never change.
func (s *State) rescore(n int, potAfter decimal.Decimal) ([]Payload, error) {
	var out []Payload
	pot := totalOf(potAfter)
	was := totalOf(s.PotBefore(n + 1)) // the pot deal n+1 met before this change
	for k := n + 1; k <= len(s.hands.items); k++ {
		h := s.Hand(k)
		if h.Voided {
			if h.kept != nil { // a stake kept moves the pot alike either way
				pot, was = pot.plusPot(h.kept), was.plusPot(h.kept)
			}
			continue
		}
		if pot.equal(was) {
			break
		}
		old := h.Result()
		was = was.plusPot(&old.amounts)
		if !h.potMatters {
			pot = pot.plusPot(&old.amounts)
			continue
		}
		res, err := payout.Score(s.Setup, payout.Table{Dealer: s.DealerOf(k), Pot: pot.decimal()}, h.Record())
		if err != nil {
			return nil, fmt.Errorf("re-score hand %d: %w", k, err)
		}
		pot = pot.plus(res.PotDelta)
		if old.equal(res.Deltas, res.PotDelta) && old.Text() == res.Explanation.Text() {
			continue
		}
		sc, err := NewScored(s.Setup, res)
		if err != nil {
			return nil, fmt.Errorf("re-score hand %d: %w", k, err)
		}
		out = append(out, HandRescored{Hand: k, Cause: n, PotAfter: pot.decimal(), Scored: sc})
	}
	return out, nil
}
