package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"tappbook/internal/events"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"tappbook/migrations"
)

func key(scope, name, fingerprint string) events.Key {
	return events.Key{Scope: scope, Name: name, Fingerprint: []byte(fingerprint)}
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
		e := events.Event{Stream: stream, Version: version, Batch: version, Type: "test.happened", SchemaVersion: 1,
			Data: []byte(`{"n":1}`), RecordedAt: at.Truncate(time.Microsecond), PrevHash: prev}
		e.Hash = e.ComputeHash()
		if _, err := db.Exec(`INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.Stream, e.Version, e.Batch, e.Type, e.SchemaVersion, string(e.Data),
			events.FormatTime(e.RecordedAt), nullable(key), e.PrevHash, e.Hash); err != nil {
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
