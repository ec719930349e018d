package events

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden schema")

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

type payload struct {
	N      int    `json:"n"`
	Amount string `json:"amount"`
}

func ev(n int) NewEvent {
	return NewEvent{Type: "test.happened", SchemaVersion: 1, Data: payload{N: n, Amount: fmt.Sprintf("%d.50", n)}}
}

func TestAppendReadAndReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.Append(ctx, "game-a", 0, Key{}, ev(1), ev(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "game-b", 0, Key{}, ev(10)); err != nil {
		t.Fatal(err)
	}
	res, err := s.Append(ctx, "game-a", 2, Key{}, ev(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Events[0].Version != 3 || res.Events[0].Seq != 4 || res.Duplicate {
		t.Fatalf("third event of game-a: %+v", res.Events[0])
	}
	s.Close()

	s2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.ReadStream(ctx, "game-a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("after reopening, game-a has %d events, want 3", len(got))
	}
	for i, e := range got {
		var p payload
		if err := json.Unmarshal(e.Data, &p); err != nil {
			t.Fatal(err)
		}
		if e.Version != int64(i+1) || p.N != i+1 || p.Amount != fmt.Sprintf("%d.50", i+1) || e.Type != "test.happened" || e.SchemaVersion != 1 {
			t.Fatalf("event %d read back as %+v / %+v", i+1, e, p)
		}
		if time.Since(e.RecordedAt) > time.Minute || e.Hash == "" {
			t.Fatalf("event %d: recorded_at %v, hash %q", i+1, e.RecordedAt, e.Hash)
		}
	}
	if got[1].PrevHash != got[0].Hash || got[0].PrevHash != "" {
		t.Fatal("the hash chain does not link the stream's events")
	}
	var seqs []int64
	if err := s2.ReadFrom(ctx, 2, func(e Event) error { seqs = append(seqs, e.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(seqs) != "[2 3 4]" {
		t.Fatalf("ReadFrom(2) gave %v", seqs)
	}
	if v, _ := s2.StreamVersion(ctx, "game-a"); v != 3 {
		t.Fatalf("game-a version %d", v)
	}
	if evs, _ := s2.ReadStream(ctx, "nobody"); len(evs) != 0 {
		t.Fatal("an unknown stream has events")
	}
	rep, err := s2.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 4 || rep.Streams != 2 {
		t.Fatalf("verify a clean store: %+v, %v", rep, err)
	}
}

// The schema after every migration equals the committed golden copy, so a
// migration that changes more (or less) than intended is seen in review.
func TestSchemaGolden(t *testing.T) {
	s, _ := openTemp(t)
	rows, err := s.DB().Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			t.Fatal(err)
		}
		b.WriteString(q + ";\n\n")
	}
	golden := filepath.Join("testdata", "schema.golden.sql")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/events -run TestSchemaGolden -update to write it)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("schema differs from %s:\n%s", golden, b.String())
	}
}
