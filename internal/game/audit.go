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
// changed, removed or reordered), then every game folded event by event,
// each deal re-scored from its record with the payout engine as it stood
// at that point (the dealer by the deal's number, the pot before it) and
// compared with the changes stored when it was recorded.
func Audit(ctx context.Context, store events.Engine) (AuditReport, error) {
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
	// its last event (see sqlite.Store.ReplayAll).
	games := map[string]*tapp.Folder{}
	groups := newGroupAudit()
	err = store.ReplayAll(ctx, func(e events.Event, last bool) error {
		if taken, problem := groups.take(e, last); taken {
			if problem != "" {
				rep.Problem = fmt.Sprintf("event %d (group %s, version %d, %s): %s", e.Seq, e.Stream, e.Version, e.Type, problem)
				return errAuditStop
			}
			return nil
		}
		f := games[e.Stream]
		if f == nil {
			f = tapp.NewFolder(e.Stream)
			games[e.Stream] = f
			rep.Games++
		}
		problem := check(f, e, &rep)
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
	rep.Groups = len(groups.groups)
	if rep.Problem == "" {
		rep.Problem = groups.finish()
	}
	return rep, nil
}

// check re-scores the deal an event stores against the game as it stands
// before the event, then folds the event; it says what is wrong, if
// anything.
func check(f *tapp.Folder, e events.Event, rep *AuditReport) string {
	st := f.Peek()
	e.Data = bytes.Clone(e.Data) // lent by ReplayAll; the fold keeps it
	p, err := tapp.Decode(e.Type, e.Data, st.Setup.Players)
	if err != nil {
		return err.Error()
	}
	scored, err := st.Recheck(p)
	if scored {
		rep.Deals++
	}
	if err != nil {
		return err.Error()
	}
	if err := f.Apply(Stored(e, p)); err != nil {
		return err.Error()
	}
	return ""
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
