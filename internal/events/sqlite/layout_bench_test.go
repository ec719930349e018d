package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkLayout weighs layouts of the events against each other, outside
// the store: durable transactions (the store's connection settings, the
// WAL copied every 100 commits as the checkpointer does) of one deal for
// each of 1, 4 or 64 tables, as the committer groups them. Each layout
// writes what its append would: (a) the event's row only, (b) the row and
// its (stream_id, version) index entry, (c) that and the head row (the
// store's layout), (d) (c) and an idempotency key, (e) the alternatives:
// events clustered WITHOUT ROWID on (stream_id, version) with a seq
// index, and the UNIQUE index replaced by an integer key
// (stream_id<<32 | version) as the rowid with a seq index; (f) the store's
// layout in a file of 1 or 2 KiB pages. The head
// dropped writes what (b) writes: the store keeps heads in memory, and
// would read a stream's last event through the index once. It reports commits/s, the WAL's bytes
// and the process's CPU (user+sys, getrusage) per commit. Run it
// interleaved, e.g.
//
//	go test -run '^$' -bench Layout -benchtime 2s -count 3 ./internal/events/sqlite
func BenchmarkLayout(b *testing.B) {
	for _, tables := range []int{1, 4, 64} {
		for _, l := range benchLayouts() {
			b.Run(fmt.Sprintf("tables=%d/%s", tables, l.name), func(b *testing.B) {
				benchLayout(b, l, tables)
			})
		}
	}
}

// layout is a way to keep events, and what a deal writes in it.
type layout struct {
	name   string
	schema string
	page   int // the file's page size, set before it is made; 0: SQLite's (4 KiB)
	// deal writes one event of stream id (its version-th) with global
	// order seq, on the prepared statements.
	deal  func(ctx context.Context, st []*sql.Stmt, id, version, seq int64, ev benchEvent) error
	stmts []string
}

// benchEvent is a deal's event as the store writes it, about a deal's size.
type benchEvent struct {
	typ, data, at, prev, hash, key string
	fingerprint                    []byte
}

const eventColumns = `
    batch           INTEGER NOT NULL,
    type            TEXT    NOT NULL,
    schema_version  INTEGER NOT NULL,
    data            TEXT    NOT NULL CHECK (json_valid(data)),
    recorded_at     TEXT    NOT NULL,
    idempotency_key TEXT,
    prev_hash       TEXT    NOT NULL,
    hash            TEXT    NOT NULL`

const streamsTable = `CREATE TABLE streams (id INTEGER PRIMARY KEY, stream TEXT NOT NULL UNIQUE, version INTEGER NOT NULL, hash TEXT NOT NULL);`

const keysTable = `CREATE TABLE idempotency_keys (scope TEXT NOT NULL, name TEXT NOT NULL, stream TEXT NOT NULL, batch INTEGER NOT NULL,
    fingerprint BLOB, used_at TEXT NOT NULL, PRIMARY KEY (scope, name)) WITHOUT ROWID;`

const insertRowid = `INSERT INTO events (stream_id, version, seq, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
    VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`

const moveHead = `UPDATE streams SET version = ?, hash = ? WHERE id = ?`

func insert(ctx context.Context, st *sql.Stmt, id, version, seq int64, ev benchEvent, key any) error {
	_, err := st.ExecContext(ctx, id, version, seq, version, ev.typ, ev.data, ev.at, key, ev.prev, ev.hash)
	return err
}

func benchLayouts() []layout {
	rowid := func(index string) string {
		return `CREATE TABLE events (seq INTEGER PRIMARY KEY, stream_id INTEGER NOT NULL, version INTEGER NOT NULL,` + eventColumns + index + `);` + streamsTable + keysTable
	}
	withHead := func(ctx context.Context, st []*sql.Stmt, id, version, seq int64, ev benchEvent) error {
		if err := insert(ctx, st[0], id, version, seq, ev, nil); err != nil {
			return err
		}
		_, err := st[1].ExecContext(ctx, version, ev.hash, id)
		return err
	}
	return []layout{
		{name: "a-row", schema: rowid(""), stmts: []string{insertRowid},
			deal: func(ctx context.Context, st []*sql.Stmt, id, version, seq int64, ev benchEvent) error {
				return insert(ctx, st[0], id, version, seq, ev, nil)
			}},
		{name: "b-row-index", schema: rowid(", UNIQUE (stream_id, version)"), stmts: []string{insertRowid},
			deal: func(ctx context.Context, st []*sql.Stmt, id, version, seq int64, ev benchEvent) error {
				return insert(ctx, st[0], id, version, seq, ev, nil)
			}},
		{name: "c-store", schema: rowid(", UNIQUE (stream_id, version)"), stmts: []string{insertRowid, moveHead}, deal: withHead},
		{name: "d-store-key", schema: rowid(", UNIQUE (stream_id, version)"),
			stmts: []string{insertRowid, moveHead,
				`SELECT stream, batch, fingerprint, used_at FROM idempotency_keys WHERE scope = ? AND name = ?`,
				`INSERT INTO idempotency_keys (scope, name, stream, batch, fingerprint, used_at) VALUES (?, ?, ?, ?, ?, ?)`},
			deal: func(ctx context.Context, st []*sql.Stmt, id, version, seq int64, ev benchEvent) error {
				scope := fmt.Sprintf("game-%d", id)
				if err := st[2].QueryRowContext(ctx, scope, ev.key).Scan(new(string), new(int64), new([]byte), new(string)); err != sql.ErrNoRows {
					return fmt.Errorf("key lookup: %v", err)
				}
				if err := insert(ctx, st[0], id, version, seq, ev, ev.key); err != nil {
					return err
				}
				if _, err := st[1].ExecContext(ctx, version, ev.hash, id); err != nil {
					return err
				}
				_, err := st[3].ExecContext(ctx, scope, ev.key, scope, version, ev.fingerprint, ev.at)
				return err
			}},
		{name: "f1-store-page1k", schema: rowid(", UNIQUE (stream_id, version)"), page: 1024, stmts: []string{insertRowid, moveHead}, deal: withHead},
		{name: "f2-store-page2k", schema: rowid(", UNIQUE (stream_id, version)"), page: 2048, stmts: []string{insertRowid, moveHead}, deal: withHead},
		{name: "e1-clustered", schema: `CREATE TABLE events (stream_id INTEGER NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE,` +
			eventColumns + `, PRIMARY KEY (stream_id, version)) WITHOUT ROWID;` + streamsTable + keysTable,
			stmts: []string{insertRowid, moveHead}, deal: withHead},
		{name: "e3-keyed-rowid", schema: `CREATE TABLE events (k INTEGER PRIMARY KEY, stream_id INTEGER NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE,` +
			eventColumns + `);` + streamsTable + keysTable,
			stmts: []string{`INSERT INTO events (k, stream_id, version, seq, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
    VALUES ((?1 << 32) | ?2, ?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9, ?10)`, moveHead},
			deal: withHead},
	}
}

func benchLayout(b *testing.B, l layout, tables int) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "layout.db")
	if l.page != 0 {
		// A page size holds only when set before the file's first table,
		// and before WAL mode, which the store's connection sets.
		made, err := sql.Open("sqlite3", "file:"+path)
		if err == nil {
			_, err = made.Exec(fmt.Sprintf("PRAGMA page_size = %d; CREATE TABLE made (x); DROP TABLE made;", l.page))
			made.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?"+dsnParams(5*time.Second).Encode())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	for _, q := range strings.SplitAfter(l.schema, ";") {
		if strings.TrimSpace(q) == "" {
			continue
		}
		if _, err := conn.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
		b.Fatal(err)
	}
	st := make([]*sql.Stmt, len(l.stmts))
	for i, q := range l.stmts {
		if st[i], err = conn.PrepareContext(ctx, q); err != nil {
			b.Fatal(err)
		}
		defer st[i].Close()
	}
	ev := benchEvent{typ: "hand_recorded", data: `{"x":"` + strings.Repeat("x", 400) + `"}`,
		at: "2026-11-28T17:00:00.000000Z", prev: strings.Repeat("a", 64), hash: strings.Repeat("b", 64),
		fingerprint: []byte(strings.Repeat("f", 32))}

	// Old games before the tables being played, so that the trees have depth.
	const oldGames, oldEvents = 200, 25
	var seq int64
	versions := make([]int64, oldGames+tables)
	tx := func(fn func() error) {
		if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
			b.Fatal(err)
		}
		if err := fn(); err != nil {
			b.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
			b.Fatal(err)
		}
	}
	deal := func(id int64) error {
		versions[id-1]++
		seq++
		ev.key = fmt.Sprintf("key-%08d-%012d", id, seq)
		return l.deal(ctx, st, id, versions[id-1], seq, ev)
	}
	tx(func() error {
		for id := int64(1); id <= int64(len(versions)); id++ {
			if _, err := conn.ExecContext(ctx, `INSERT INTO streams (id, stream, version, hash) VALUES (?, ?, 0, '')`, id, fmt.Sprintf("g-%026d", id)); err != nil {
				return err
			}
		}
		for range oldEvents {
			for id := int64(1); id <= oldGames; id++ {
				if err := deal(id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	checkpoint := func() int64 {
		var busy, frames, copied int64
		if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
			b.Fatal(err)
		}
		return frames
	}
	checkpoint()
	tx(func() error { return nil }) // starts the WAL again from its beginning

	var frames int64
	var before syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &before); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		tx(func() error {
			for t := range int64(tables) {
				if err := deal(oldGames + 1 + t); err != nil {
					return err
				}
			}
			return nil
		})
		if i%100 == 99 {
			frames += checkpoint()
		}
	}
	if b.N%100 != 0 {
		frames += checkpoint() // a copied WAL still counts its frames until the next commit
	}
	b.StopTimer()
	var after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &after); err != nil {
		b.Fatal(err)
	}
	cpu := time.Duration(syscall.TimevalToNsec(after.Utime) - syscall.TimevalToNsec(before.Utime) +
		syscall.TimevalToNsec(after.Stime) - syscall.TimevalToNsec(before.Stime))
	var pageSize int64
	if err := conn.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
	b.ReportMetric(float64(frames*(pageSize+24))/float64(b.N), "WAL-B/commit")
	b.ReportMetric(float64(frames)/float64(b.N), "pages/commit")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "CPU-µs/commit")
}
