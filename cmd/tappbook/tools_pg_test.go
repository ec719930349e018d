package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The tools take a postgres:// URL as --db: verify re-scores every deal
// there, backup writes a SQLite copy that verifies, and a game exported
// from PostgreSQL imports into SQLite and back into another PostgreSQL
// database with the same hashes.
func TestToolsOnPostgres(t *testing.T) {
	ctx := context.Background()
	url := pg.Database(t)
	id := evening(t, url)
	tool := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if err := run(ctx, args, &out, &errOut); err != nil {
			t.Fatalf("tappbook %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
		}
		return out.String()
	}
	if out := tool("verify", "--db", url); !strings.Contains(out, "everything matches") || !strings.Contains(out, "in 2 games") {
		t.Fatalf("verify on PostgreSQL: %s", out)
	}
	fp := tool("verify", "--db", url, "--game", id)
	dir := t.TempDir()
	copyDB := filepath.Join(dir, "copy.db")
	tool("backup", "--db", url, "--out", copyDB)
	if out := tool("verify", "--db", copyDB); !strings.Contains(out, "everything matches") {
		t.Fatalf("verify the backup: %s", out)
	}
	export := filepath.Join(dir, "game.jsonl")
	tool("export", id, "--db", url, "--out", export)
	tool("import", export, "--db", filepath.Join(dir, "imported.db"))
	other := pg.Database(t)
	tool("import", export, "--db", other)
	for _, db := range []string{copyDB, filepath.Join(dir, "imported.db"), other} {
		if got := tool("verify", "--db", db, "--game", id); got != fp {
			t.Fatalf("game in %s: %q, want %q as on PostgreSQL", db, got, fp)
		}
	}
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"import", export, "--db", other}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "already in this database") {
		t.Fatalf("import twice: %v", err)
	}
}
