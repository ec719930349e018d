package game

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/payout"
	"tappbook/internal/projection"
)

// AuditReport is what Audit checked and the first thing it found wrong.
type AuditReport struct {
	Events, Games, Deals int
	Problem              string // empty when everything matches
}

// Audit checks a whole database: every stream's hash chain (nothing
// changed, removed or reordered), then every game folded event by event,
// each deal re-scored from its record with the payout engine as it stood
// at that point (the dealer by the deal's number, the pot before it) and
// compared with the changes stored when it was recorded.
func Audit(ctx context.Context, store *events.Store) (AuditReport, error) {
	var rep AuditReport
	chain, err := store.Verify(ctx)
	if err != nil {
		return rep, err
	}
	rep.Events = chain.Events
	if chain.Problem != nil {
		rep.Problem = chain.Problem.Error()
		return rep, nil
	}
	// One pass over every event in stored order, each game folded until
	// its last event (see events.Store.ReplayAll).
	games := map[string]*projection.Game{}
	err = store.ReplayAll(ctx, func(e events.Event, last bool) error {
		g := games[e.Stream]
		if g == nil {
			g = &projection.Game{ID: e.Stream}
			games[e.Stream] = g
			rep.Games++
		}
		deals, problem := rescoreCheck(g, e)
		rep.Deals += deals
		if problem == "" {
			if err := g.Apply(e); err != nil {
				problem = err.Error()
			}
		}
		if problem != "" {
			rep.Problem = fmt.Sprintf("event %d (game %s, version %d, %s): %s", e.Seq, e.Stream, e.Version, e.Type, problem)
			return errAuditStop
		}
		if last {
			delete(games, e.Stream)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errAuditStop) {
		return rep, err
	}
	return rep, nil
}

// errAuditStop ends the pass at the first problem, which the report holds.
var errAuditStop = errors.New("audit: stop at the first problem")

// rescoreCheck re-scores the deal an event records, against the game as it
// stands before the event, and says what differs from what was stored.
func rescoreCheck(g *projection.Game, e events.Event) (int, string) {
	var hand int
	var rec payout.Record
	var stored projection.Scored
	var pot = g.Pot
	switch e.Type {
	case projection.TypeHandRecorded:
		var p projection.HandRecorded
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return 0, err.Error()
		}
		hand, rec, stored = p.Hand, p.Record, p.Scored
	case projection.TypeHandCorrect:
		var p projection.HandCorrected
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return 0, err.Error()
		}
		if g.Hand(p.Hand) == nil {
			return 0, fmt.Sprintf("corrects hand %d, which was never recorded", p.Hand)
		}
		hand, rec, stored, pot = p.Hand, p.Record, p.Scored, g.PotBefore(p.Hand)
	case projection.TypeHandRescored:
		var p projection.HandRescored
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return 0, err.Error()
		}
		h := g.Hand(p.Hand)
		if h == nil {
			return 0, fmt.Sprintf("re-scores hand %d, which was never recorded", p.Hand)
		}
		hand, rec, stored, pot = p.Hand, h.Record, p.Scored, g.PotBefore(p.Hand)
	default:
		return 0, ""
	}
	res, err := payout.Score(g.Setup, payout.Table{Dealer: g.DealerOf(hand), Pot: pot}, rec)
	if err != nil {
		return 1, fmt.Sprintf("hand %d's record does not score: %v", hand, err)
	}
	again := projection.NewScored(g.Setup, res)
	if !again.PotDelta.Equal(stored.PotDelta) || len(again.Deltas) != len(stored.Deltas) {
		return 1, fmt.Sprintf("hand %d scores %v (pot %s), but %v (pot %s) is stored", hand, again.Deltas, again.PotDelta, stored.Deltas, stored.PotDelta)
	}
	for name, d := range again.Deltas {
		if !d.Equal(stored.Deltas[name]) {
			return 1, fmt.Sprintf("hand %d scores %s for %s, but %s is stored (ruleset %s)", hand, d, name, stored.Deltas[name], stored.Ruleset)
		}
	}
	return 1, ""
}
