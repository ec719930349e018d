package sqlite

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"tappbook/internal/events"
	"testing"
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

func ev(n int) events.NewEvent {
	return events.NewEvent{Type: "test.happened", SchemaVersion: 1, Data: payload{N: n, Amount: fmt.Sprintf("%d.50", n)}}
}

// The schema after every migration equals the committed golden copy, so a
// migration that changes more (or less) than intended is seen in review.
func TestSchemaGolden(t *testing.T) {
	s, _ := openTemp(t)
	rows, err := s.read.Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name`)
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
