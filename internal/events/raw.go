package events

import (
	"database/sql"
	"strings"
	"time"
)

// The limits tappbook bench compares itself with: what SQLite itself does on
// this disk with the store's settings.

// RawTransactions measures single-row INSERTs, each its own durable transaction,
// with the store's settings (WAL, synchronous=FULL).
func RawTransactions(path string, d time.Duration) (float64, error) {
	db, err := OpenRaw(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		return 0, err
	}
	payload := strings.Repeat("x", 400) // about the size of a recorded deal
	n, start := 0, time.Now()
	for time.Since(start) < d {
		if _, err := db.Exec(`INSERT INTO t (v) VALUES (?)`, payload); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// RawScan reads every row of the events table, decoding nothing: the most a
// replay could do.
func RawScan(path string) (float64, error) {
	db, err := OpenRaw(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	start := time.Now()
	rows, err := db.Query(`SELECT seq, stream, version, type, data, recorded_at FROM events ORDER BY seq`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	var seq, version int64
	var stream, typ, at string
	var data sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&seq, &stream, &version, &typ, &data, &at); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), rows.Err()
}
