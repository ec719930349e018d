package game

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// An evening of a group is two streams: the group's, which lists it, and
// the game's own. No transaction spans both, so they are written in the
// order that leaves nothing wrong in between:
//
//  1. both are decided first (the game's start and the group's join, with
//     any new members), so a refusal writes nothing;
//  2. the group's evening.joined is appended, naming the game's ids;
//  3. the game's first event is appended.
//
// A crash between 2 and 3 leaves an evening the group lists but whose game
// has no events: an evening never played, with no money, which the group's
// pages and tab pass over. The opposite order could leave a played game the
// group does not list, its money missing from the tab. Repeating the
// request with its Idempotency-Key finds the join and finishes the start
// with the ids it names, so a retry completes what a crash cut short.

// startEvening starts a game of a group: ng.Group is the group's id.
func (gs *Groups) startEvening(ctx context.Context, ng NewGame, key string) (*tapp.State, error) {
	gid := ng.Group
	e, err := gs.hold(ctx, gid)
	if problem.IsKind(err, problem.NotFound) {
		return nil, groupCatalogue.Input("group", "group.unknown")
	}
	if err != nil {
		return nil, err
	}
	defer gs.release(e)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := gs.catchUp(ctx, gid, e); err != nil {
		return nil, err
	}
	return retryRaced(ctx, groupCatalogue.Conflict("conflict.group-concurrent"), func() (*tapp.State, error) { return gs.joinEvening(ctx, e, ng, key) })
}

// joinEvening appends the join of a new evening to the group as e holds it,
// then the game's start; errRaced when another server appended to the
// group first (e then holds it as stored). e.mu is held.
func (gs *Groups) joinEvening(ctx context.Context, e *groupEntry, ng NewGame, key string) (*tapp.State, error) {
	gid := ng.Group
	st := e.state.Load()
	// The join and the game's start each keep the request's key, bound to
	// the request as the client sent it (before any id is made).
	joinKey, err := idemKey(gid+":evening", key, "evening", ng)
	if err != nil {
		return nil, err
	}
	startKey, err := idemKey(createScope, key, createScope, ng)
	if err != nil {
		return nil, err
	}
	if evs, ok, err := findKey(ctx, gs.store, joinKey); err != nil {
		return nil, err
	} else if ok {
		return gs.finishEvening(ctx, st, ng, evs, startKey)
	}
	// A key that started another game (of no group, of another group) is
	// refused before the join is written: a refusal writes nothing.
	if _, ok, err := findKey(ctx, gs.store, startKey); err != nil {
		return nil, err
	} else if ok {
		return nil, catalogue.Input("Idempotency-Key", "key.reused")
	}
	ng = withGroupMoney(ng, st)
	if ng.ID, err = newID(); err != nil {
		return nil, err
	}
	if ng.ReadID, err = newID(); err != nil {
		return nil, err
	}
	start, err := tapp.Decide(tapp.New(ng.ID), ng)
	if err != nil {
		return nil, err
	}
	started := start[0].(tapp.GameStarted)
	join, err := group.Decide(st, group.JoinEvening{Game: ng.ID, ReadID: ng.ReadID, Players: started.Players, Unit: started.Unit, Currency: started.Currency})
	if err != nil {
		return nil, err
	}
	res, err := gs.store.Append(ctx, gid, st.Version, joinKey, groupEvents(join)...)
	if err != nil {
		if kerr := keyRefusal(err); kerr != nil {
			return nil, kerr
		}
		if events.IsConflict(err) {
			if rerr := gs.refold(ctx, e, gid); rerr != nil {
				return nil, fmt.Errorf("start an evening of group %s: after a conflict: %w", gid, rerr)
			}
			return nil, errRaced
		}
		return nil, fmt.Errorf("start an evening of group %s: %w", gid, err)
	}
	if res.Duplicate {
		return gs.finishEvening(ctx, st, ng, res.Events, startKey)
	}
	next, err := group.Evolve(st, storedGroup(res.Events, join)...)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("start an evening of group %s: fold what was appended: %w", gid, err), gs.refold(ctx, e, gid))
	}
	gs.groups.publish(e, next)
	return gs.games.appendStart(ctx, ng.ID, ng.ReadID, start, startKey)
}

// withGroupMoney fills in the group's unit and currency where the request
// leaves them out, and writes a unit equal to the group's as the group
// does ("0.5" as "0.50"), so the evening shows money as the group does.
// Any other unit or currency is left for the join to refuse.
func withGroupMoney(ng NewGame, st *group.State) NewGame {
	if ng.Unit == "" {
		ng.Unit = st.UnitText
	} else if u, err := decimal.NewFromString(ng.Unit); err == nil && u.Equal(st.Unit) {
		ng.Unit = st.UnitText
	}
	if ng.Currency == "" {
		ng.Currency = st.Currency
	}
	ng.UnitKept = ng.Unit == st.UnitText && ng.Currency == st.Currency
	return ng
}

// finishEvening answers a repeated start of a group's evening: the join
// the first request appended names the game; if its first event was never
// written, it is written now, with those ids.
func (gs *Groups) finishEvening(ctx context.Context, st *group.State, ng NewGame, evs []events.Event, key events.Key) (*tapp.State, error) {
	last := evs[len(evs)-1]
	if last.Type != group.TypeEveningJoined {
		return nil, catalogue.Input("Idempotency-Key", "key.reused")
	}
	p, err := group.Decode(last.Type, last.Data)
	if err != nil {
		return nil, err
	}
	joined := p.(group.EveningJoined)
	g, err := gs.games.Snapshot(ctx, joined.Game)
	if !problem.IsKind(err, problem.NotFound) {
		return g, err
	}
	ng = withGroupMoney(ng, st)
	ng.ID, ng.ReadID = joined.Game, joined.ReadID
	start, err := tapp.Decide(tapp.New(ng.ID), ng)
	if err != nil {
		return nil, err
	}
	return gs.games.appendStart(ctx, ng.ID, ng.ReadID, start, key)
}

// appendStart writes a new game's first event with its read-only alias. A
// game that exists already (two repeats racing) is answered as it is.
func (s *Service) appendStart(ctx context.Context, id, readID string, start []tapp.Payload, key events.Key) (*tapp.State, error) {
	_, err := appendNew(ctx, s.store, id, readID, key, newEvents(start))
	if err != nil && !events.IsConflict(err) {
		return nil, fmt.Errorf("create game: %w", err)
	}
	return s.Snapshot(ctx, id)
}

// NextSeats are the seats of the evening after g: the deal passed on to
// the player after g's first dealer, unless nobody dealt in g (started by
// mistake), when its first dealer deals first again.
func NextSeats(g *tapp.State) []string {
	seats := slices.Clone(g.Setup.Players)
	if len(g.Hands()) == 0 {
		return seats
	}
	return append(seats[1:], seats[0])
}

// Again starts the next evening of the same table: the same players in the
// same seats, the same variant, house rules and money, in the same group,
// and the deal passed on — the first dealer of the new evening is the
// player after the one who dealt first in this one.
func (s *Service) Again(ctx context.Context, id, key string) (*tapp.State, error) {
	g, err := s.Snapshot(ctx, id)
	if err != nil {
		return nil, err
	}
	rules := map[string]json.RawMessage{}
	for k, v := range g.Setup.Rules.RulesMap(g.Setup.Variant) {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("again %s: rules: %w", id, err)
		}
		rules[k] = b
	}
	return s.Create(ctx, NewGame{Variant: string(g.Setup.Variant), Players: NextSeats(g), Unit: g.UnitText,
		Currency: g.Currency, UnitKept: true, Rules: rules, Group: g.Group}, key)
}
