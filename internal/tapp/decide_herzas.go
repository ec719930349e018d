package tapp

import (
	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// A Württemberg evening ends with Herz-As: it is said, its holder named
// (or changed), or withdrawn if said by mistake.
func (s *State) decideHerzAs() ([]Payload, error) {
	if err := s.endsWithHerzAs(); err != nil {
		return nil, err
	}
	if s.HerzAs != nil {
		return nil, catalogue.Conflict("conflict.herz-as-again")
	}
	return []Payload{HerzAs{AfterHand: len(s.hands.items)}}, nil
}

// endsWithHerzAs refuses the end's commands in a variant whose evening
// does not end with Herz-As, saying so rather than that nobody said it.
func (s *State) endsWithHerzAs() error {
	if !s.Variant().EndsWithHerzAs {
		return catalogue.Conflict("conflict.herz-as-variant", problem.Variant(string(s.Setup.Variant)))
	}
	return nil
}

func (s *State) decideHolder(c SayHerzAsHolder) ([]Payload, error) {
	e := s.End()
	if err := s.endsWithHerzAs(); err != nil {
		return nil, err
	}
	if s.HerzAs == nil {
		return nil, catalogue.Conflict("conflict.herz-as-none")
	}
	if e.Holder != "" && c.Change {
		return s.decideHolderChange(c, e)
	}
	if e.Holder != "" {
		return nil, catalogue.Conflict("conflict.herz-as-holder-known", e.Holder, e.HolderHand)
	}
	if e.Question > s.NextHand() {
		return nil, catalogue.Conflict("conflict.herz-as-holder-early", e.Question)
	}
	if c.InTapp {
		if c.Player != "" {
			return nil, catalogue.Input("player", "herz-as.both")
		}
		return []Payload{HerzAsHolder{Hand: e.Question, InTapp: true}}, nil
	}
	if c.Player == "" {
		return nil, catalogue.Input("player", "herz-as.player-missing")
	}
	if _, err := s.Setup.SeatOf("player", c.Player); err != nil {
		return nil, err
	}
	return []Payload{HerzAsHolder{Hand: e.Question, Player: c.Player}}, nil
}

// decideHolderChange names another player as dealt the ♥A in the same deal.
// Who it is decides the last regular deal (rules.md Württemberg end of the
// evening): the change is refused once a deal is recorded past the last
// regular deal of either answer, which one of them would make forced.
func (s *State) decideHolderChange(c SayHerzAsHolder, e End) ([]Payload, error) {
	if c.InTapp || c.Player == "" {
		return nil, catalogue.Input("player", "herz-as.player-missing")
	}
	seat, err := s.Setup.SeatOf("player", c.Player)
	if err != nil {
		return nil, err
	}
	if s.Setup.Players[seat] == e.Holder {
		return nil, catalogue.Conflict("conflict.herz-as-holder-known", e.Holder, e.HolderHand)
	}
	last, _, _ := payout.WuerttembergEnd(len(s.Setup.Players), seat, e.HolderHand, s.NextHand())
	if played := len(s.hands.items); played > min(last, e.LastRegular) {
		return nil, catalogue.Conflict("conflict.herz-as-holder-late", e.Holder, min(last, e.LastRegular), played)
	}
	return []Payload{HerzAsHolder{Hand: e.HolderHand, Player: s.Setup.Players[seat]}}, nil
}

func (s *State) decideWithdraw(c WithdrawHerzAs) ([]Payload, error) {
	if err := s.endsWithHerzAs(); err != nil {
		return nil, err
	}
	if s.HerzAs == nil {
		return nil, catalogue.Conflict("conflict.herz-as-none")
	}
	if e := s.End(); e.LastRegular > 0 && len(s.hands.items) > e.LastRegular {
		return nil, catalogue.Conflict("conflict.herz-as-withdraw")
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	return []Payload{HerzAsWithdrawn{Reason: reason}}, nil
}
