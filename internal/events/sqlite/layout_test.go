package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"tappbook/internal/events"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"tappbook/migrations"
)

// Given a database in the layout of schema 3 (the release before the
// clustered layout), written with that release's statements: games of
// several events each, appended in turn, with an alias and a key,
// when this release opens it,
// then it migrates, Verify passes, every event reads back as it was (seq,
// hash and all), and appends go on after the last seq.
func TestLayoutMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "release.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	want := map[string][]events.Event{}
	at := time.Date(2026, 11, 1, 20, 0, 0, 0, time.UTC)
	seq := int64(0)
	for round := range 4 { // streams interleaved, as tables play at once
		for _, st := range []string{"g-zuger", "g-matzl", "grp-1"} {
			prev := ""
			if n := len(want[st]); n > 0 {
				prev = want[st][n-1].Hash
			}
			seq++
			e := events.Event{Seq: seq, Stream: st, Version: int64(round + 1), Batch: int64(round + 1), Type: "hand.recorded", SchemaVersion: 1,
				Data: []byte(fmt.Sprintf(`{"n":%d,"amount":"1.50"}`, round)), RecordedAt: at.Add(time.Duration(seq) * time.Second), PrevHash: prev}
			e.Hash = e.ComputeHash()
			if _, err := db.Exec(`INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
				VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`, e.Stream, e.Version, e.Batch, e.Type, e.SchemaVersion, string(e.Data),
				events.FormatTime(e.RecordedAt), e.PrevHash, e.Hash); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO streams (stream, version, hash) VALUES (?, ?, ?)
				ON CONFLICT (stream) DO UPDATE SET version = excluded.version, hash = excluded.hash`, st, e.Version, e.Hash); err != nil {
				t.Fatal(err)
			}
			want[st] = append(want[st], e)
		}
	}
	if _, err := db.Exec(`INSERT INTO stream_aliases (alias, stream) VALUES ('view-1', 'g-zuger')`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 12 || rep.Streams != 3 {
		t.Fatalf("verify after the migration: %+v %v", rep, err)
	}
	for st, evs := range want {
		got, err := s.ReadStream(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i].RecordedAt = got[i].RecordedAt.UTC()
		}
		if !reflect.DeepEqual(got, evs) {
			t.Fatalf("%s after the migration:\n%+v\nwant\n%+v", st, got, evs)
		}
	}
	if st, err := s.Resolve(ctx, "view-1"); err != nil || st != "g-zuger" {
		t.Fatalf("alias: %q %v", st, err)
	}
	res, err := s.Append(ctx, "g-matzl", 4, events.Key{}, ev(5))
	if err != nil || res.Events[0].Seq != 13 || res.Events[0].PrevHash != want["g-matzl"][3].Hash {
		t.Fatalf("append after the migration: %+v %v", res, err)
	}
}

// Given a database written by the release at f9fc8e0 through its API
// (testdata/release-f9fc8e0.db: a group and three games with keyed deals,
// corrections and voids; its verify passed), when this release opens it,
// then it migrates, Verify passes, and every event keeps its seq and hash.
func TestLayoutMigrationOfARelease(t *testing.T) {
	ctx := context.Background()
	src, err := os.ReadFile(filepath.Join("testdata", "release-f9fc8e0.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "release.db")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	list := func(db *sql.DB, table string) string {
		rows, err := db.Query(`SELECT seq, stream, version, hash FROM ` + table + ` ORDER BY seq`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var seq, version int64
			var stream, hash string
			if err := rows.Scan(&seq, &stream, &version, &hash); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%d %s %d %s\n", seq, stream, version, hash)
		}
		return b.String()
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	before := list(db, "events")
	db.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 25 || rep.Streams != 4 {
		t.Fatalf("verify after the migration: %+v %v", rep, err)
	}
	if after := list(s.read, "stream_events"); after != before {
		t.Fatalf("events after the migration:\n%s\nbefore:\n%s", after, before)
	}
}

// Given a database an earlier release still serves (its layout), when it
// is backed up before the binary is replaced, then the copy is the file as
// it is (an upgrade's first step: back up, then replace the binary); verify
// and export still ask for the layout a start moves it to.
func TestBackupOfAnEarlierReleasesFile(t *testing.T) {
	ctx := context.Background()
	src, err := os.ReadFile(filepath.Join("testdata", "release-f9fc8e0.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "release.db")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Backup(ctx, path, filepath.Join(dir, "copy.db")); err != nil {
		t.Fatalf("backup of an earlier release's file: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, src) {
		t.Fatal("the backup changed the file")
	}
	copied, err := sql.Open("sqlite3", filepath.Join(dir, "copy.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	var n int
	if err := copied.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil || n != 25 {
		t.Fatalf("the copy holds %d events, %v; want the file's 25", n, err)
	}
	if _, err := Open(ctx, path, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "layout of an older release") {
		t.Fatalf("a read-only open for verify: %v", err)
	}
}
