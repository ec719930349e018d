package game

import (
	"context"
	"errors"
	"fmt"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// groupCatalogue is what the group service refuses of its own.
var groupCatalogue = problem.NewCatalogue(map[string]string{
	"group.unknown":             "group: there is no group with this id; check the group's link",
	"conflict.group-concurrent": "someone else changed this group at the same moment; reload and try again",
	"conflict.no-evening":       "this group has no evening yet to play again; start one",
})

// NoEvening is the refusal of "the next evening" for a group that has
// played none.
func NoEvening() error { return groupCatalogue.Conflict("conflict.no-evening") }

// Groups runs the commands of every group, in the store the games are in:
// one stream per group, beside its evenings' streams. Like the games, a
// group's commands are serialised by a lock of its own and readers get
// immutable snapshots.
type Groups struct {
	games *Service
	store events.Engine

	groups *memo[group.State]
	runner *runner[group.State, group.Command, group.Payload]
}

// groupsInMemory bounds the groups kept folded; a group is small (its
// members, evenings and payments), its evenings are the games' to keep.
const groupsInMemory = 1024

type groupEntry = slot[group.State]

func newGroups(games *Service) *Groups {
	gs := &Groups{games: games, store: games.store,
		groups: newMemo(groupsInMemory, groupsInMemory, func(*group.State) int { return 1 }, func(st *group.State) int64 { return st.Version })}
	gs.runner = gs.newRunner()
	return gs
}

// Groups gives the service's groups.
func (s *Service) Groups() *Groups { return s.groups }

// hold hands out a group's entry, folding it from the store the first
// time; the caller gives it back with release.
func (gs *Groups) hold(ctx context.Context, id string) (*groupEntry, error) {
	e := gs.groups.take(id, false) // one budget: nothing to adapt
	if e.state.Load() != nil {
		return e, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.Load() != nil {
		return e, nil
	}
	st, err := RebuildGroup(ctx, gs.store, id)
	if err == nil && st == nil {
		err = group.Messages().NotFound("notfound.group")
	}
	if err != nil {
		gs.groups.drop(id, e)
		return nil, err
	}
	gs.groups.publish(e, st)
	return e, nil
}

// release gives back an entry hold handed out.
func (gs *Groups) release(e *groupEntry) { gs.groups.release(e) }

// refold reads a group afresh from the store, after another process wrote
// to it or what was appended did not fold.
func (gs *Groups) refold(ctx context.Context, e *groupEntry, id string) error {
	fresh, err := RebuildGroup(ctx, gs.store, id)
	if err != nil {
		return fmt.Errorf("read group %s again: %w", id, err)
	}
	if fresh != nil {
		gs.groups.publish(e, fresh)
	}
	return nil
}

// Snapshot gives a group as it stands: an immutable state the caller may
// keep and read with no lock held.
func (gs *Groups) Snapshot(ctx context.Context, id string) (*group.State, error) {
	e, err := gs.hold(ctx, id)
	if err != nil {
		return nil, err
	}
	defer gs.release(e)
	// No lock: a reader does not wait for another request's append.
	if err := gs.catchUp(ctx, id, e); err != nil {
		return nil, err
	}
	return e.state.Load(), nil
}

// catchUp folds the group afresh when another server sharing the store
// moved it (see shared.go); what it folds is published only if nothing
// newer was meanwhile, so it needs no lock.
func (gs *Groups) catchUp(ctx context.Context, id string, e *groupEntry) error {
	if !gs.games.shared {
		return nil
	}
	v, err := gs.store.StreamVersion(ctx, id)
	if err != nil {
		return fmt.Errorf("group %s: %w", id, err)
	}
	if v != e.state.Load().Version {
		return gs.refold(ctx, e, id)
	}
	return nil
}

// View is a group with its evenings' games, as the tab and the statistics
// read them.
type View struct {
	Group *group.State
	// Games is aligned with Group.Evenings(): nil for an evening whose
	// game never got its first event (a start cut short by a crash).
	Games []*tapp.State
}

// View gives a group and the games of its evenings, each a snapshot.
func (gs *Groups) View(ctx context.Context, id string) (View, error) {
	st, err := gs.Snapshot(ctx, id)
	if err != nil {
		return View{}, err
	}
	v := View{Group: st, Games: make([]*tapp.State, len(st.Evenings()))}
	for i, ev := range st.Evenings() {
		g, err := gs.games.Snapshot(ctx, ev.Game)
		if problem.IsKind(err, problem.NotFound) {
			continue
		}
		if err != nil {
			return View{}, fmt.Errorf("group %s: evening %s: %w", id, ev.Game, err)
		}
		v.Games[i] = g
	}
	return v, nil
}

// GroupDone is what a group command wrote.
type GroupDone = Ran[group.State, group.Payload]

// Run decides a command on the group as it stands and appends what it
// decides, against the version it decided on, as Service.Run does for a
// game. A command that decides nothing appends nothing.
func (gs *Groups) Run(ctx context.Context, id, key string, cmd group.Command) (GroupDone, error) {
	return gs.runner.run(ctx, id, key, cmd)
}

// newRunner is how groups' commands run: caught up under the group's
// lock, folded afresh after a conflict.
func (gs *Groups) newRunner() *runner[group.State, group.Command, group.Payload] {
	return &runner[group.State, group.Command, group.Payload]{
		noun: "group", schema: group.SchemaVersion, conflict: groupCatalogue.Conflict("conflict.group-concurrent"), store: gs.store,
		decide: group.Decide,
		evolve: func(st *group.State, evs []events.Event, ps []group.Payload) (*group.State, error) {
			return group.Evolve(st, storedGroup(evs, ps)...)
		},
		decode:  func(_ *group.State, ev events.Event) (group.Payload, error) { return group.Decode(ev.Type, ev.Data) },
		version: func(st *group.State) int64 { return st.Version },
		hold:    gs.hold,
		release: gs.release,
		catchUp: gs.catchUp,
		refold:  func(ctx context.Context, id string, e *groupEntry) error { return gs.refold(ctx, e, id) },
		publish: func(_ string, e *groupEntry, next *group.State) { gs.groups.publish(e, next) },
	}
}

func groupEvents(ps []group.Payload) []events.NewEvent { return toAppend(group.SchemaVersion, ps) }

func storedGroup(evs []events.Event, ps []group.Payload) []group.Event {
	out := make([]group.Event, len(evs))
	for i, ev := range evs {
		out[i] = group.Event{Version: ev.Version, At: ev.RecordedAt, Data: ps[i]}
	}
	return out
}

// CreateGroup starts a group with new ids. A repeated idempotency key
// returns the group the first request started. Its keys share the scope
// of starting games: a key that started a game is refused for a group,
// and one that started a group for a game (another endpoint, api.md).
func (gs *Groups) CreateGroup(ctx context.Context, start group.Start, key string) (*group.State, error) {
	k, err := idemKey(createScope, key, "create-group", start)
	if err != nil {
		return nil, err
	}
	if evs, ok, err := findKey(ctx, gs.store, k); err != nil {
		return nil, err
	} else if ok {
		return gs.Snapshot(ctx, evs[0].Stream)
	}
	if start.ID, err = newID(); err != nil {
		return nil, err
	}
	if start.ReadID, err = newID(); err != nil {
		return nil, err
	}
	payloads, err := group.Decide(group.New(start.ID), start)
	if err != nil {
		return nil, err
	}
	res, err := appendNew(ctx, gs.store, start.ID, start.ReadID, k, groupEvents(payloads))
	if err != nil {
		return nil, fmt.Errorf("create group: %w", err)
	}
	return gs.Snapshot(ctx, res.Events[0].Stream)
}

// AddMembers makes players members of the group.
func (gs *Groups) AddMembers(ctx context.Context, id string, players []string, key string) (*group.State, error) {
	done, err := gs.Run(ctx, id, key, group.AddMembers{Players: players})
	return done.State, err
}

// RecordPayment records money paid between two members and gives the
// payment as stored.
func (gs *Groups) RecordPayment(ctx context.Context, id string, p group.RecordPayment, key string) (group.PaymentRecorded, error) {
	done, err := gs.Run(ctx, id, key, p)
	if err != nil {
		return group.PaymentRecorded{}, err
	}
	rec, ok := done.Payloads[len(done.Payloads)-1].(group.PaymentRecorded)
	if !ok {
		return group.PaymentRecorded{}, fmt.Errorf("record payment: the answer is a %s", done.Payloads[0].EventType())
	}
	return rec, nil
}

// VoidPayment makes payment n no longer count.
func (gs *Groups) VoidPayment(ctx context.Context, id string, n int, reason, key string) error {
	_, err := gs.Run(ctx, id, key, group.VoidPayment{Payment: n, Reason: reason})
	return err
}

// ResolveRead gives the group a read-only key opens, or a not-found error
// (also for a key that opens a game).
func (gs *Groups) ResolveRead(ctx context.Context, readID string) (string, error) {
	id, err := gs.store.Resolve(ctx, readID)
	if err != nil {
		return "", err
	}
	if id != "" {
		if _, err := gs.Snapshot(ctx, id); err == nil {
			return id, nil
		} else if !problem.IsKind(err, problem.NotFound) {
			return "", err
		}
	}
	return "", group.Messages().NotFound("notfound.group")
}

// Events gives a group's events for the audit.
func (gs *Groups) Events(ctx context.Context, id string) ([]events.Event, error) {
	evs, err := gs.store.ReadStream(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 || evs[0].Type != group.TypeStarted {
		return nil, group.Messages().NotFound("notfound.group")
	}
	return evs, nil
}

// errNotGroup ends a replay at a first event that is not a group's.
var errNotGroup = errors.New("not a group")

// RebuildGroup folds a group from its stored events; nil for a stream that
// is empty or is not a group (a game).
func RebuildGroup(ctx context.Context, store events.Engine, id string) (*group.State, error) {
	f := group.NewFolder(id)
	err := store.Replay(ctx, id, func(ev events.Event) error {
		if ev.Version == 1 && ev.Type != group.TypeStarted {
			return errNotGroup
		}
		p, err := group.Decode(ev.Type, ev.Data)
		if err != nil {
			return fmt.Errorf("rebuild group %s: event %d: %w", id, ev.Version, err)
		}
		return f.Apply(group.Event{Version: ev.Version, At: ev.RecordedAt, Data: p})
	})
	if errors.Is(err, errNotGroup) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st := f.State()
	if !st.Started() {
		return nil, nil
	}
	return st, nil
}
