package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/postgres"
)

// Given 64 tables appending at once, each to its own game, the appends go
// to PostgreSQL together: fewer transactions than appends (each event's
// xmin is the transaction that wrote it), every append answered with its
// own events, each game's chain whole, and a conflict or a used key in the
// same batch answered for that append alone.
func TestGroupCommitBatchesTables(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	owner := conn(t, url)
	commits := func() (n int) { // the database's commits, as its sessions ended report them
		time.Sleep(700 * time.Millisecond)
		if _, err := owner.Exec(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
			t.Fatal(err)
		}
		if err := owner.QueryRow(ctx, `SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := commits()
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const tables, rounds = 64, 5
	ev := func(n int) events.NewEvent {
		return events.NewEvent{Type: "deal", SchemaVersion: 1, Data: map[string]int{"n": n}}
	}
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make([]error, tables)
		for w := range tables {
			wg.Go(func() {
				key := events.Key{Scope: "g", Name: fmt.Sprintf("t%d-r%d", w, round), Fingerprint: []byte("deal")}
				res, err := st.Append(ctx, fmt.Sprintf("g%d", w), int64(round), key, ev(round))
				switch {
				case err != nil:
					errs[w] = err
				case len(res.Events) != 1 || res.Events[0].Version != int64(round+1) || res.Events[0].Seq == 0 || res.Duplicate:
					errs[w] = fmt.Errorf("answered %+v", res)
				}
			})
		}
		// A stale append (a phone that did not see the last deal) and a
		// key sent again, among them.
		if round > 0 {
			wg.Go(func() {
				if _, err := st.Append(ctx, "g0", 0, events.Key{}, ev(99)); !events.IsConflict(err) {
					errs[0] = fmt.Errorf("a stale append: %v", err)
				}
			})
		}
		wg.Wait()
		for w, err := range errs {
			if err != nil {
				t.Fatalf("round %d, table %d: %v", round, w, err)
			}
		}
	}
	res, err := st.Append(ctx, "g5", 5, events.Key{Scope: "g", Name: "t5-r2", Fingerprint: []byte("deal")}, ev(2))
	if err != nil || !res.Duplicate || res.Events[0].Version != 3 {
		t.Fatalf("a key sent again: %+v %v", res, err)
	}
	rep, err := st.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != tables*rounds {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	st.Close()
	// Opening, the reads and the verify commit a few dozen transactions
	// of their own; one for each of the 320 appends would be far more.
	if txs := commits() - before; txs > tables*rounds/2 {
		t.Fatalf("%d appends and the store's other work in %d transactions: not committed together", tables*rounds, txs)
	} else {
		t.Logf("%d appends and the store's other work in %d transactions", tables*rounds, txs)
	}
}
