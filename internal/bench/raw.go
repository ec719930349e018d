package bench

import (
	"database/sql"
	"strings"
	"time"
)

// The limits tappbook-bench compares tappbook with: what SQLite itself does on
// this disk with the store's settings.

// RawInserter writes single-row INSERTs of about a deal's size, each its
// own durable transaction, with the store's settings (WAL,
// synchronous=FULL): the most a durable write can do on this disk.
type RawInserter struct {
	db      *sql.DB
	payload string
}

// NewRawInserter makes a table to insert into in a new database at path.
func NewRawInserter(path string) (*RawInserter, error) {
	db, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		db.Close()
		return nil, err
	}
	return &RawInserter{db: db, payload: strings.Repeat("x", 400)}, nil
}

// Insert writes one row in its own transaction.
func (r *RawInserter) Insert() error {
	_, err := r.db.Exec(`INSERT INTO t (v) VALUES (?)`, r.payload)
	return err
}

// Close closes the database.
func (r *RawInserter) Close() error { return r.db.Close() }

// RawTransactions measures how many RawInserter transactions a second one
// caller commits.
func RawTransactions(path string, d time.Duration) (float64, error) {
	ins, err := NewRawInserter(path)
	if err != nil {
		return 0, err
	}
	defer ins.Close()
	n, start := 0, time.Now()
	for time.Since(start) < d {
		if err := ins.Insert(); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// RawScan reads every row of the events table, decoding nothing: the most a
// replay could do.
func RawScan(path string) (float64, error) {
	db, err := openRaw(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	start := time.Now()
	rows, err := db.Query(`SELECT seq, stream_id, version, type, data, recorded_at FROM events ORDER BY seq`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	var seq, stream, version int64
	var typ, at string
	var data sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&seq, &stream, &version, &typ, &data, &at); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), rows.Err()
}
