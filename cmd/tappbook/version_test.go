package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"tappbook/internal/events/sqlite"
	"testing"
)

// `tappbook version` names the release the binary was built as (the -X
// flag the release build sets), the commit it was built from, and the
// schema version a database it writes is at: the one goose records when
// the store has migrated a new file.
func TestVersionSaysReleaseCommitAndSchema(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	// As a release is built (internal/version): the toolchain stamps the
	// commit in a clone; a git worktree gets none, so -X names it too.
	bin := filepath.Join(t.TempDir(), "tappbook")
	build := exec.Command("go", "build", "-buildvcs=true", "-ldflags",
		"-X tappbook/internal/version.Release=9.8.7-test -X tappbook/internal/version.Commit="+strings.TrimSpace(string(head)), "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("version: %v", err)
	}
	want := regexp.MustCompile(`^tappbook 9\.8\.7-test \(commit ` + string(head[:12]) + `[,)][^\n]*\nschema (\d+) \(SQLite\), (\d+) \(PostgreSQL\)\n$`)
	m := want.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("version says %q, want the release, the commit %s and its time, and the schema", out, head[:12])
	}

	path := filepath.Join(t.TempDir(), "new.db")
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var written int64
	if err := db.QueryRow(`SELECT MAX(version_id) FROM goose_db_version`).Scan(&written); err != nil {
		t.Fatal(err)
	}
	if m[1] != fmt.Sprint(written) {
		t.Fatalf("version says schema %s, a new SQLite file is at %d", m[1], written)
	}

	// Built without the flag (as go test builds), it says so.
	var so, se bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &so, &se); err != nil || !strings.HasPrefix(so.String(), "tappbook dev (") {
		t.Fatalf("version: %q, %v", so.String(), err)
	}
}
