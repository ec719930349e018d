package game

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// replayFails is a store whose reads of a stream fail while broken is set:
// a database that went away between an append and the read after it.
type replayFails struct {
	events.Engine
	broken atomic.Bool
}

var errGone = errors.New("the database went away")

func (s *replayFails) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	if s.broken.Load() {
		return errGone
	}
	return s.Engine.Replay(ctx, stream, fn)
}

// serversOneFailing are two services on one database, as two servers sharing it:
// svc reads through store, whose replays can be made to fail; other writes
// behind svc's back.
func serversOneFailing(t *testing.T) (store *replayFails, svc, other *Service) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "g.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	store = &replayFails{Engine: st}
	return store, New(store), New(st)
}

// A command that meets another writer's deal reads the game again; when
// that read fails, the caller is told why, not "try again" over a state
// that would only conflict again.
func TestRereadAfterAConflictThatFailsIsReported(t *testing.T) {
	ctx := context.Background()
	store, svc, other := serversOneFailing(t)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	store.broken.Store(true)
	_, err = svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, "")
	if !errors.Is(err, errGone) || problem.IsKind(err, problem.Conflict) {
		t.Fatalf("a deal whose re-read failed after a conflict: %v", err)
	}
	// Once the database is back, the next try records (on this SQLite
	// store, not shared, the game is read again after the conflict and
	// the command decided again on it).
	store.broken.Store(false)
	if a, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil || a.Hand != 2 {
		t.Fatalf("after the database came back: deal %d, %v", a.Hand, err)
	}
}

// The same for a group: a payment that meets another server's payment,
// with the re-read failing, reports the failure.
func TestGroupRereadAfterAConflictThatFailsIsReported(t *testing.T) {
	ctx := context.Background()
	store, a, b := serversOneFailing(t)
	svc, other := a.Groups(), b.Groups()
	g, err := svc.CreateGroup(ctx, group.Start{Name: "Thursday", Players: []string{"Anna", "Ben"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	pay := group.RecordPayment{From: "Ben", To: "Anna", Amount: "1"}
	if _, err := other.RecordPayment(ctx, g.ID, pay, ""); err != nil {
		t.Fatal(err)
	}
	store.broken.Store(true)
	if _, err := svc.RecordPayment(ctx, g.ID, pay, ""); !errors.Is(err, errGone) || problem.IsKind(err, problem.Conflict) {
		t.Fatalf("a payment whose re-read failed after a conflict: %v", err)
	}
	store.broken.Store(false)
	if p, err := svc.RecordPayment(ctx, g.ID, pay, ""); err != nil || p.Payment != 2 {
		t.Fatalf("after the database came back: payment %d, %v", p.Payment, err)
	}
}

// alwaysBehind is a store where another server always appends first.
type alwaysBehind struct {
	events.Engine
	appends atomic.Int32
}

func (s *alwaysBehind) Append(ctx context.Context, stream string, v int64, k events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	if v > 0 {
		s.appends.Add(1)
		return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: v, Actual: v + 1}
	}
	return s.Engine.Append(ctx, stream, v, k, evs...)
}

// A command that loses every race is decided again a few times, then
// answered 409: it is never retried without end.
func TestEndlessRacesEndInAConflict(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "g.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	store := &alwaysBehind{Engine: st}
	svc := New(store)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, "")
	if pe, ok := problem.As(err); !ok || pe.Code != "conflict.concurrent" {
		t.Fatalf("a deal that always loses the race: %v", err)
	}
	if n := store.appends.Load(); n != raceRetries {
		t.Fatalf("tried %d times, want %d", n, raceRetries)
	}
	// A group's payment, and a group's evening, alike.
	grp, err := svc.Groups().CreateGroup(ctx, group.Start{Name: "Thursday", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	store.appends.Store(0)
	_, err = svc.Groups().RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "1"}, "")
	if pe, ok := problem.As(err); !ok || pe.Code != "conflict.group-concurrent" || store.appends.Load() != raceRetries {
		t.Fatalf("a payment that always loses the race: %v after %d tries", err, store.appends.Load())
	}
	store.appends.Store(0)
	_, err = svc.Create(ctx, NewGame{Variant: "zuger", Group: grp.ID, Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if pe, ok := problem.As(err); !ok || pe.Code != "conflict.group-concurrent" || store.appends.Load() != raceRetries {
		t.Fatalf("an evening that always loses the race: %v after %d tries", err, store.appends.Load())
	}
}
