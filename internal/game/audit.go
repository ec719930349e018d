package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// AuditReport is what Audit checked and the first thing it found wrong.
type AuditReport struct {
	Events, Games, Deals int
	Groups               int    // groups folded and their evenings checked (group_audit.go)
	Problem              string // empty when everything matches
}

// Audit checks a whole database: every stream's hash chain (nothing
// changed, removed or reordered), then every command of every game and
// group decided again on the history before it, as import decides a file
// (redecide.go): a deal is scored again with the payout engine as it
// stood at that point, a close, a mark, a text or a group's payment must
// be what tappbook writes, byte for byte.
func Audit(ctx context.Context, store events.Engine) (AuditReport, error) {
	groups := newGroupAudit()
	groups.foldLater = true // redecide folds each group once, and checks on that fold
	return audit(ctx, store, groups)
}

// audit is Audit with its part for groups handed in, for a test to see
// what that part did.
func audit(ctx context.Context, store events.Engine, groups *groupAudit) (AuditReport, error) {
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
	// its last event (see sqlite.Store.ReplayAll); a group's events are
	// kept for deciding again once every game's start has been seen.
	games := map[string]*gameAudit{}
	groupEvents := map[string][]events.Event{}
	err = store.ReplayAll(ctx, func(e events.Event, last bool) error {
		e.Data = bytes.Clone(e.Data) // lent by ReplayAll; kept past it
		if taken, problem := groups.take(e, last); taken {
			if problem != "" {
				rep.Problem = fmt.Sprintf("event %d (group %s, version %d, %s): %s", e.Seq, e.Stream, e.Version, e.Type, problem)
				return errAuditStop
			}
			groupEvents[e.Stream] = append(groupEvents[e.Stream], e)
			return nil
		}
		g := games[e.Stream]
		if g == nil {
			g = &gameAudit{f: tapp.NewFolder(e.Stream)}
			games[e.Stream] = g
			rep.Games++
		}
		if !g.take(e, last, &rep) {
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
	rep.Groups = len(groupEvents)
	if rep.Problem == "" {
		rep.Problem = groups.redecide(groupEvents)
	}
	if rep.Problem == "" {
		rep.Problem = groups.finish()
	}
	if rep.Problem == "" {
		var linkErr error
		if rep.Problem, linkErr = groups.links(ctx, store); linkErr != nil {
			return rep, linkErr
		}
	}
	return rep, nil
}

// gameAudit is a game being checked: folded to its last whole command,
// with the events read so far of the command after it.
type gameAudit struct {
	f     *tapp.Folder
	batch []events.Event
}

// take adds an event to the command being read; a command is decided
// again once its last event is read (the next has another batch, or the
// stream ends). It is false, with the problem in rep, at the first event
// at fault.
func (g *gameAudit) take(e events.Event, last bool, rep *AuditReport) bool {
	if len(g.batch) > 0 && g.batch[0].Batch != e.Batch && !g.decide(rep) {
		return false
	}
	g.batch = append(g.batch, e)
	return !last || g.decide(rep)
}

// decide decides the command read again and folds it (redecideGameBatch),
// counting the deals it scores.
func (g *gameAudit) decide(rep *AuditReport) bool {
	ev, err := redecideGameBatch(g.f, g.batch)
	if err != nil {
		rep.Problem = fmt.Sprintf("event %d (game %s, version %d, %s): %s", ev.Seq, ev.Stream, ev.Version, ev.Type, err)
		return false
	}
	for _, e := range g.batch {
		switch e.Type {
		case tapp.TypeHandRecorded, tapp.TypeHandCorrect, tapp.TypeHandRescored:
			rep.Deals++
		}
	}
	g.batch = g.batch[:0]
	return true
}

// errAuditStop ends the pass at the first problem, which the report holds.
var errAuditStop = errors.New("audit: stop at the first problem")

// Fold folds a game from its stored events, decoding each.
func Fold(id string, evs []events.Event) (*tapp.State, error) {
	f := tapp.NewFolder(id)
	for _, ev := range evs {
		p, err := tapp.DecodeForFold(ev.Type, ev.Data, nil)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", ev.Version, err)
		}
		if err := f.Apply(Stored(ev, p)); err != nil {
			return nil, err
		}
	}
	st := f.State()
	if !st.Started() {
		return nil, fmt.Errorf("no events")
	}
	return st, nil
}
