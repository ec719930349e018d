package events

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"tappbook/migrations"
)

func key(scope, name, fingerprint string) Key {
	return Key{Scope: scope, Name: name, Fingerprint: []byte(fingerprint)}
}

func TestIdempotencyKey(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
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
	got, _ := s.ReadStream(ctx, "g")
	if len(got) != 2 {
		t.Fatalf("after a retry the stream has %d events, want 2", len(got))
	}
	if evs, ok, err := s.FindKey(ctx, key("g", "k-1", "req")); err != nil || !ok || len(evs) != 2 {
		t.Fatalf("FindKey: %v %v %v", evs, ok, err)
	}
	if _, ok, _ := s.FindKey(ctx, key("g", "k-2", "req")); ok {
		t.Fatal("FindKey found a key never used")
	}
}

// A key is bound to the request it came with: with another fingerprint it
// is refused, in the same commit or later, and nothing is written; the
// same name in another scope is another key.
func TestKeyBoundToRequest(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Append(ctx, "a", 0, key("create", "new-game-1", "game A"), ev(1)); err != nil {
		t.Fatal(err)
	}
	var kr *KeyReusedError
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

	// Racing: one commit or several, one append wins the key and the
	// others are refused or answered as repeats of it, never written.
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
			case errors.As(err, new(*KeyReusedError)):
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
// used again, with any request; reopening the store lets expired keys go.
func TestKeyExpires(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	path := filepath.Join(t.TempDir(), "k.db")
	s, err := Open(ctx, path, Options{Now: clock, KeyTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
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
	advance(2 * time.Hour)
	if s, err = Open(ctx, path, Options{Now: clock, KeyTTL: time.Hour}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.DB().QueryRow(`SELECT COUNT(*) FROM idempotency_keys`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d expired keys kept after reopening (%v)", n, err)
	}
}

// A key name is 1–255 printable ASCII characters, and comes with a
// fingerprint; anything else is refused before anything is written.
func TestKeyNameRules(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, name := range []string{strings.Repeat("k", 256), "schlüssel", "a\tb", "a\nb", "\x00", "\x7f", strings.Repeat("x", 900<<10)} {
		var ke *KeyError
		if _, err := s.Append(ctx, "g", 0, key("g", name, "fp"), ev(1)); !errors.As(err, &ke) {
			t.Errorf("key %.20q: %v, want a *KeyError", name, err)
		}
		if _, _, err := s.FindKey(ctx, key("g", name, "fp")); !errors.As(err, &ke) {
			t.Errorf("FindKey %.20q: %v, want a *KeyError", name, err)
		}
	}
	if _, err := s.Append(ctx, "g", 0, Key{Scope: "g", Name: "no-fingerprint"}, ev(1)); err == nil {
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

// A database from before fingerprints keeps its keys and their answers:
// the game service's "create:KEY" and "GAME:KEY" become scoped keys that
// answer as before until they expire.
func TestMigrationKeepsKeys(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	old := now.Add(-48 * time.Hour)
	// Written as the store before migration 3 wrote them.
	write := func(stream string, version int64, key string, at time.Time, prev string) string {
		e := Event{Stream: stream, Version: version, Batch: version, Type: "test.happened", SchemaVersion: 1,
			Data: []byte(`{"n":1}`), RecordedAt: at.Truncate(time.Microsecond), PrevHash: prev}
		e.Hash = e.ComputeHash()
		if _, err := db.Exec(`INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.Stream, e.Version, e.Batch, e.Type, e.SchemaVersion, string(e.Data),
			formatTime(e.RecordedAt), nullable(key), e.PrevHash, e.Hash); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO streams (stream, version, hash) VALUES (?, ?, ?)
			ON CONFLICT (stream) DO UPDATE SET version = excluded.version, hash = excluded.hash`, stream, version, e.Hash); err != nil {
			t.Fatal(err)
		}
		return e.Hash
	}
	h := write("game1", 1, "create:new-1", now, "")
	write("game1", 2, "game1:deal:1", now, h)
	write("game2", 1, "create:yesterday", old, "")
	db.Close()

	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Append(ctx, "game3", 0, key("create", "new-1", "any request"), ev(1))
	if err != nil || !res.Duplicate || res.Events[0].Stream != "game1" {
		t.Fatalf("a create key kept from before: %+v %v", res, err)
	}
	res, err = s.Append(ctx, "game1", 2, key("game1", "deal:1", "any request"), ev(1))
	if err != nil || !res.Duplicate || res.Events[0].Version != 2 {
		t.Fatalf("a game's key kept from before: %+v %v", res, err)
	}
	if res, err = s.Append(ctx, "game4", 0, key("create", "yesterday", "new"), ev(1)); err != nil || res.Duplicate {
		t.Fatalf("a key from two days ago: %+v %v, want a new append", res, err)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil {
		t.Fatalf("after the migration: %+v %v", rep, err)
	}
}
