package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"tappbook/internal/events"

	"github.com/mattn/go-sqlite3"
)

// besideFile is the name SQLite gives a file it keeps beside the database
// at path (suffix "-wal", "-shm", "-journal"): beside the file a symbolic
// link leads to, whose name SQLite uses.
func besideFile(path, suffix string) string { return realPath(path) + suffix }

// realPath is the path a chain of symbolic links leads to, whether or not
// the last one's target exists (filepath.EvalSymlinks fails then, and a
// --db link to a deleted file still names where its -wal lies): its folder
// resolved as it is (a link's ".." is taken from where the link really
// lies), then its last name followed, again.
func realPath(path string) string {
	for range 40 {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			path = filepath.Join(dir, filepath.Base(path))
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path
		}
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return path
}

// classify names SQLite's "not a database" and "malformed" errors for what
// they are; any other error is returned as it is.
func classify(path string, err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrNotADB:
		return &events.NotStoreError{Path: path, Why: "it is not a SQLite database at all"}
	case sqlite3.ErrCorrupt:
		problems := []string{se.Error()}
		if cut := cutShort(path); cut != "" {
			problems = append([]string{cut}, problems...)
		}
		return &events.CorruptError{Path: path, Problems: problems}
	}
	return err
}

// withPath wraps err with what was being done to path, unless it already
// names the path (a *NotStoreError or *CorruptError).
func withPath(doing, path string, err error) error {
	var ns *events.NotStoreError
	var ce *events.CorruptError
	if errors.As(err, &ns) || errors.As(err, &ce) {
		return err
	}
	return fmt.Errorf("%s %s: %w", doing, path, err)
}

// cutShort says whether the file is shorter than its header says: the
// mark of a copy that did not finish.
func cutShort(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var h [100]byte
	info, err := f.Stat()
	if err != nil || info.Size() < int64(len(h)) {
		return ""
	}
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:16]) != "SQLite format 3\x00" {
		return ""
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	// The header's page count holds only if written by the same change as
	// the file (its change counter equals the "version valid for").
	if pageSize == 0 || binary.BigEndian.Uint32(h[24:28]) != binary.BigEndian.Uint32(h[92:96]) {
		return ""
	}
	if have := info.Size() / pageSize; have < pages {
		return fmt.Sprintf("the file ends after %d of its %d pages: it was cut short (a copy that did not finish?)", have, pages)
	}
	return ""
}

// CheckIntegrity runs SQLite's own check of the file: quick (every page
// readable and well formed, in time proportional to the file; what Open
// runs) or full (also every index against its table; what verify runs).
// A damaged file is a *CorruptError naming what SQLite found.
func (s *Store) CheckIntegrity(ctx context.Context, full bool) error {
	return checkIntegrity(ctx, s.read, s.path, full)
}

func checkIntegrity(ctx context.Context, db *sql.DB, path string, full bool) error {
	pragma := "PRAGMA quick_check"
	if full {
		pragma = "PRAGMA integrity_check"
	}
	rows, err := db.QueryContext(ctx, pragma)
	if err != nil {
		return withPath("check", path, classify(path, err))
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return withPath("check", path, classify(path, err))
		}
		if line != "ok" {
			problems = append(problems, strings.ReplaceAll(strings.TrimPrefix(line, "*** in database main ***\n"), "\n", "; "))
		}
	}
	// SQLite may stop the check with "malformed" after the rows that say
	// where: those come first.
	if err := rows.Err(); err != nil {
		var ce *events.CorruptError
		if err = classify(path, err); !errors.As(err, &ce) {
			return withPath("check", path, err)
		}
		problems = append(problems, ce.Problems...)
	}
	if len(problems) > 0 {
		return &events.CorruptError{Path: path, Problems: nameTrees(ctx, db, problems)}
	}
	return nil
}

// checkSchema refuses a database without the event store's tables and
// columns: an empty file, another program's database.
func checkSchema(ctx context.Context, q querier, path string) error {
	for _, t := range []struct{ table, columns string }{
		{"events", "seq, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash"},
		{"streams", "stream, version, hash"},
	} {
		rows, err := q.QueryContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, t.table)
		if err != nil {
			return classify(path, err)
		}
		n := 0
		for rows.Next() {
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return classify(path, err)
			}
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return classify(path, err)
		}
		if n == 0 {
			return &events.NotStoreError{Path: path, Why: fmt.Sprintf("it has no %s table", t.table)}
		}
		rows, err = q.QueryContext(ctx, `SELECT `+t.columns+` FROM `+t.table+` LIMIT 0`)
		if err != nil {
			if errors.As(err, new(sqlite3.Error)) && strings.Contains(err.Error(), "no such column") {
				return &events.NotStoreError{Path: path, Why: fmt.Sprintf("its %s table is not the event store's: %v", t.table, err)}
			}
			return classify(path, err)
		}
		rows.Close()
	}
	return nil
}

// nameTrees adds to SQLite's "Tree 4 page 38" the table or index whose tree
// it is, when the schema can still be read.
func nameTrees(ctx context.Context, db *sql.DB, problems []string) []string {
	rows, err := db.QueryContext(ctx, `SELECT rootpage, type, name FROM sqlite_master WHERE rootpage > 0`)
	if err != nil {
		return problems
	}
	defer rows.Close()
	names := map[string]string{}
	for rows.Next() {
		var root int64
		var typ, name string
		if rows.Scan(&root, &typ, &name) == nil {
			names[fmt.Sprintf("Tree %d ", root)] = fmt.Sprintf("Tree %d (%s %s) ", root, typ, name)
		}
	}
	out := make([]string, len(problems))
	for i, p := range problems {
		for tree, named := range names {
			p = strings.ReplaceAll(p, tree, named)
		}
		out[i] = p
	}
	return out
}
