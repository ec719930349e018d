package storetest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tappbook/internal/events"
)

func idempotencyKey(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	first, err := s.Append(ctx, "g", 0, key("g", "k-1", "req"), ev(1), ev(2))
	if err != nil {
		t.Fatal(err)
	}
	// A retry with the same key, even one that would conflict, writes
	// nothing and gets the first answer.
	again, err := s.Append(ctx, "g", 0, key("g", "k-1", "req"), ev(1), ev(2))
	if err != nil {
		t.Fatal(err)
	}
	if !again.Duplicate || len(again.Events) != 2 || again.Events[0].Hash != first.Events[0].Hash || again.Events[1].Seq != first.Events[1].Seq {
		t.Fatalf("retry gave %+v, want the first answer %+v", again, first)
	}
	if got, _ := s.ReadStream(ctx, "g"); len(got) != 2 {
		t.Fatalf("after a retry the stream has %d events, want 2", len(got))
	}
	if evs, ok, err := s.FindKey(ctx, key("g", "k-1", "req")); err != nil || !ok || len(evs) != 2 || evs[0].IdempotencyKey != "k-1" {
		t.Fatalf("FindKey: %v %v %v", evs, ok, err)
	}
	if _, ok, _ := s.FindKey(ctx, key("g", "k-2", "req")); ok {
		t.Fatal("FindKey found a key never used")
	}
}

// A key is bound to the request it came with: with another fingerprint it
// is refused and nothing is written; the same name in another scope is
// another key; racing, one append wins the key.
func keyBoundToRequest(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	if _, err := s.Append(ctx, "a", 0, key("create", "new-game-1", "game A"), ev(1)); err != nil {
		t.Fatal(err)
	}
	var kr *events.KeyReusedError
	res, err := s.Append(ctx, "b", 0, key("create", "new-game-1", "game B"), ev(1))
	if !errors.As(err, &kr) || len(res.Events) != 0 {
		t.Fatalf("the key with another request: %+v, %v; want a *KeyReusedError and no events", res, err)
	}
	if _, _, err := s.FindKey(ctx, key("create", "new-game-1", "game B")); !errors.As(err, &kr) {
		t.Fatalf("FindKey with another request: %v", err)
	}
	if v, _ := s.StreamVersion(ctx, "b"); v != 0 {
		t.Fatal("a refused key wrote its events")
	}
	if res, err := s.Append(ctx, "b", 0, key("b", "new-game-1", "game B"), ev(1)); err != nil || res.Duplicate {
		t.Fatalf("the same name in another scope: %+v %v", res, err)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	written, repeats, refused := 0, 0, 0
	for w := range 16 {
		wg.Go(func() {
			fp := "same"
			if w%2 == 1 {
				fp = "other " + string(rune('a'+w))
			}
			res, err := s.Append(ctx, "race", 0, key("race", "k", fp), ev(w))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.As(err, new(*events.KeyReusedError)):
				refused++
			case err != nil:
				t.Error(err)
			case res.Duplicate:
				repeats++
			default:
				written++
			}
		})
	}
	wg.Wait()
	if evs, _ := s.ReadStream(ctx, "race"); written != 1 || len(evs) != 1 || repeats+refused != 15 {
		t.Fatalf("%d written (%d events), %d repeats, %d refused", written, len(evs), repeats, refused)
	}
}

// A key counts for KeyTTL: after it, the key matches nothing and may be
// used again; reopening the store lets expired keys go.
func keyExpires(t *testing.T, h Harness) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	loc := h.Fresh(t)
	s := reopen(t, h, loc, Options{Now: clock, KeyTTL: time.Hour})
	if _, err := s.Append(ctx, "g", 0, key("g", "k", "first"), ev(1)); err != nil {
		t.Fatal(err)
	}
	advance(time.Hour - time.Millisecond)
	if res, err := s.Append(ctx, "g", 1, key("g", "k", "first"), ev(2)); err != nil || !res.Duplicate {
		t.Fatalf("within the hour: %+v %v, want the first answer", res, err)
	}
	advance(2 * time.Millisecond)
	if _, ok, err := s.FindKey(ctx, key("g", "k", "second")); ok || err != nil {
		t.Fatalf("FindKey after the hour: %v %v, want nothing", ok, err)
	}
	res, err := s.Append(ctx, "g", 1, key("g", "k", "second"), ev(2))
	if err != nil || res.Duplicate || res.Events[0].Version != 2 {
		t.Fatalf("the key used again after the hour: %+v %v", res, err)
	}
	if res, err := s.Append(ctx, "g", 2, key("g", "k", "second"), ev(3)); err != nil || !res.Duplicate || res.Events[0].Version != 2 {
		t.Fatalf("the key's new use answers its repeats: %+v %v", res, err)
	}
	if _, err := s.Append(ctx, "g", 2, key("g", "old", "x"), ev(3)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, ok := h.(Database)
	if !ok {
		return
	}
	if n := db.Count(t, loc, `SELECT COUNT(*) FROM idempotency_keys`); n != 2 {
		t.Fatalf("%d keys kept, want 2", n)
	}
	advance(2 * time.Hour)
	reopen(t, h, loc, Options{Now: clock, KeyTTL: time.Hour})
	if n := db.Count(t, loc, `SELECT COUNT(*) FROM idempotency_keys`); n != 0 {
		t.Fatalf("%d expired keys kept after reopening", n)
	}
}

// A key name is 1–255 printable ASCII characters, and comes with a
// fingerprint; anything else is refused before anything is written.
func keyNameRules(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	for _, name := range []string{strings.Repeat("k", 256), "schlüssel", "a\tb", "a\nb", "\x00", "\x7f", strings.Repeat("x", 900<<10)} {
		var ke *events.KeyError
		if _, err := s.Append(ctx, "g", 0, key("g", name, "fp"), ev(1)); !errors.As(err, &ke) {
			t.Errorf("key %.20q: %v, want a *KeyError", name, err)
		}
		if _, _, err := s.FindKey(ctx, key("g", name, "fp")); !errors.As(err, &ke) {
			t.Errorf("FindKey %.20q: %v, want a *KeyError", name, err)
		}
	}
	if _, err := s.Append(ctx, "g", 0, events.Key{Scope: "g", Name: "no-fingerprint"}, ev(1)); err == nil {
		t.Error("a key without a fingerprint was taken")
	}
	if v, _ := s.StreamVersion(ctx, "g"); v != 0 {
		t.Fatal("a refused key wrote")
	}
	for i, name := range []string{strings.Repeat("k", 255), "a b ~!", "x"} {
		if _, err := s.Append(ctx, "g", int64(i), key("g", name, "fp"), ev(1)); err != nil {
			t.Errorf("key %.20q: %v", name, err)
		}
	}
}
