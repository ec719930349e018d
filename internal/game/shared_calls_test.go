package game

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// lookups is a PostgreSQL store that counts the reads a command might make
// before its append: each is a round trip to the database.
type lookups struct {
	*postgres.Store
	keys, versions atomic.Int64
}

func (l *lookups) FindKey(ctx context.Context, k events.Key) ([]events.Event, bool, error) {
	l.keys.Add(1)
	return l.Store.FindKey(ctx, k)
}

func (l *lookups) StreamVersion(ctx context.Context, stream string) (int64, error) {
	l.versions.Add(1)
	return l.Store.StreamVersion(ctx, stream)
}

// Given a game on a database two servers share, when a phone records deals
// with idempotency keys, then the server reads nothing before each append
// (the append answers a used key and a moved game itself); a retry of the
// last one is answered as the first time, and a refusal is decided on the
// game as stored.
func TestACommandAsksOnlyTheAppend(t *testing.T) {
	ctx := context.Background()
	st, err := postgres.Open(ctx, pg.Database(t), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	store := &lookups{Store: st}
	svc := New(store)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	store.keys.Store(0)
	store.versions.Store(0)
	for i := 1; i <= 5; i++ {
		if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{ExpectedHand: ip(i)}, fmt.Sprint("deal-", i)); err != nil {
			t.Fatalf("deal %d: %v", i, err)
		}
	}
	if k, v := store.keys.Load(), store.versions.Load(); k != 0 || v != 0 {
		t.Fatalf("5 deals read %d keys and %d versions before appending; want none", k, v)
	}
	// The retry of deal 5 would be refused now (deal 6 is next): it is
	// answered with deal 5, nothing written.
	again, err := svc.Run(ctx, g.ID, "deal-5", tapp.RecordHand{Record: payout.Record{Contract: "pass"}, Checks: Checks{ExpectedHand: ip(5)}})
	if err != nil || !again.Repeated || hands(t, svc, g.ID) != 5 {
		t.Fatalf("retry of deal 5: %+v, %v; %d deals", again, err, hands(t, svc, g.ID))
	}
	store.versions.Store(0)
	if err := svc.Void(ctx, g.ID, 9, "misdeal", ""); err == nil {
		t.Fatal("a void of deal 9 of 5 was not refused")
	}
	if v := store.versions.Load(); v != 1 {
		t.Fatalf("the refusal read the game's version %d times; want once", v)
	}
}
