package main

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tappbook/cmd/tappbook/internal/clitest"
)

// A database a newer tappbook wrote (marked here as at schema version 99,
// as goose records it) is refused at start, on SQLite and PostgreSQL,
// saying which version was found and which this binary knows; a backup of
// it copies it as it is, unmigrated.
func TestServeRefusesANewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "newer.db")
	evening(t, path)
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	url := pg.Database(t)
	evening(t, url)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, true)`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	for _, db := range []string{path, url} {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		var out bytes.Buffer
		err := run(ctx, []string{"serve", "--addr", clitest.FreeAddr(t), "--db", db}, &out, &out)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "is at schema version 99, and this tappbook knows versions up to") {
			t.Fatalf("serve on %s at a newer schema: %v, want a refusal naming both versions", redact(db), err)
		}
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	var out bytes.Buffer
	if err := run(ctx, []string{"backup", "--db", path, "--out", copyPath}, &out, &out); err != nil {
		t.Fatalf("backup of the newer file: %v", err)
	}
	cp, err := sql.Open("sqlite3", "file:"+copyPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var v int64
	if err := cp.QueryRow(`SELECT MAX(version_id) FROM goose_db_version`).Scan(&v); err != nil || v != 99 {
		t.Fatalf("the backup is at schema version %d (%v), want the file's 99", v, err)
	}
}
