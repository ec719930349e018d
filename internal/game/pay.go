package game

import (
	"context"
	"fmt"

	"tappbook/internal/group"
	"tappbook/internal/payee"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// SetPay says how a player of an evening is paid (api.md "Paying what the
// close says"); a closed evening takes it too.
func (s *Service) SetPay(ctx context.Context, id, player string, d payee.Details, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.SetPay{Player: player, Details: d})
}

// MarkPaid: the payer of transfer i of the close says it is sent.
func (s *Service) MarkPaid(ctx context.Context, id string, i int, by, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.MarkPaid{Transfer: i, By: by})
}

// MarkConfirmed: the payee of transfer i of the close says it arrived.
func (s *Service) MarkConfirmed(ctx context.Context, id string, i int, by, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.MarkConfirmed{Transfer: i, By: by})
}

// SetMemberPay says how a member of a group is paid, in every evening of
// the group where the player says nothing of their own.
func (gs *Groups) SetMemberPay(ctx context.Context, id, member string, d payee.Details, key string) (*group.State, error) {
	done, err := gs.Run(ctx, id, key, group.SetMemberPay{Member: member, Details: d})
	if err != nil {
		return nil, err
	}
	return done.State, nil
}

// ConfirmPayment: the payee of payment n says it arrived.
func (gs *Groups) ConfirmPayment(ctx context.Context, id string, n int, by, key string) (*group.State, error) {
	done, err := gs.Run(ctx, id, key, group.ConfirmPayment{Payment: n, By: by})
	if err != nil {
		return nil, err
	}
	return done.State, nil
}

// Payees is how the payees of an evening's transfers are paid: what a
// player said in the evening, else what they said as a member of its group.
type Payees struct {
	Name  string // the evening's group's name, or its variant: what the payment message names
	game  *tapp.State
	group *group.State
}

// Of gives how a player is paid, if they said.
func (p Payees) Of(player string) (payee.Details, bool) {
	if p.game != nil {
		if d, ok := p.game.PayOf(player); ok {
			return d, true
		}
	}
	if p.group != nil {
		return p.group.PayOf(player)
	}
	return payee.Details{}, false
}

// PayeesOf gives the payees of an evening as it stands, with its group's.
func (s *Service) PayeesOf(ctx context.Context, g *tapp.State) (Payees, error) {
	p := Payees{Name: string(g.Setup.Variant), game: g}
	if g.Group == "" {
		return p, nil
	}
	st, err := s.groups.Snapshot(ctx, g.Group)
	if problem.IsKind(err, problem.NotFound) {
		return p, nil // an evening whose group is gone is paid as its own
	}
	if err != nil {
		return Payees{}, fmt.Errorf("game %s: its group: %w", g.ID, err)
	}
	p.Name, p.group = st.Name, st
	return p, nil
}

// GroupPayees gives how a group's members are paid, for its tab.
func GroupPayees(st *group.State) Payees { return Payees{Name: st.Name, group: st} }

// WithdrawMark: whoever marked transfer i paid (confirmed false) or
// confirmed takes it back, as a new event.
func (s *Service) WithdrawMark(ctx context.Context, id string, i int, by string, confirmed bool, reason, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.WithdrawMark{Transfer: i, By: by, Confirmed: confirmed, Reason: reason})
}
