package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"tappbook/internal/events"
)

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

const selectEvents = `SELECT seq, stream, version, batch, type, schema_version, data, recorded_at,
	COALESCE(idempotency_key, ''), prev_hash, hash FROM stream_events`

// ofStream picks one stream's events from stream_events by its id, so that
// SQLite seeks them through the (stream_id, version) index: the view's
// stream name is an expression, and a filter on it scanned every event.
const ofStream = ` WHERE stream_id = (SELECT id FROM streams WHERE stream = ?)`

func readBatch(ctx context.Context, q querier, stream string, batch int64) ([]events.Event, error) {
	return collect(q.QueryContext(ctx, selectEvents+ofStream+` AND batch = ? ORDER BY version`, stream, batch))
}

// ReadStream returns a stream's events in order (none for an unknown
// stream), checking its hash chain and its head as it reads: the first
// event that breaks them is a *events.ChainError, returned with the events before
// it.
func (s *Store) ReadStream(ctx context.Context, stream string) ([]events.Event, error) {
	var out []events.Event
	err := s.readChained(ctx, stream, selectEvents, scan, func(ev events.Event) error { out = append(out, ev); return nil })
	if err != nil {
		return out, fmt.Errorf("read stream %s: %w", stream, err)
	}
	return out, nil
}

// readChained reads a stream's head and its events (with query, which
// selects from stream_events, and scan) in one read transaction, so that
// both are of the same moment, and hands them to fn as
// events.ReadChained checks them.
func (s *Store) readChained(ctx context.Context, stream, query string, scan func(*sql.Rows) (events.Event, error), fn func(events.Event) error) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var h events.Head
	found := true
	if err := tx.QueryRowContext(ctx, `SELECT version, hash FROM streams WHERE stream = ?`, stream).Scan(&h.Version, &h.Hash); errors.Is(err, sql.ErrNoRows) || h.Version == 0 && err == nil {
		found = false
	} else if err != nil {
		return classify(s.path, err)
	}
	rows, err := tx.QueryContext(ctx, query+ofStream+` ORDER BY version`, stream)
	if err != nil {
		return classify(s.path, err)
	}
	defer rows.Close()
	return classify(s.path, events.ReadChained(stream, h, found, each(rows, scan), fn))
}

// each yields the events scan reads from rows, then rows' error if any.
func each(rows *sql.Rows, scan func(*sql.Rows) (events.Event, error)) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		for rows.Next() {
			if ev, err := scan(rows); !yield(ev, err) || err != nil {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(events.Event{}, err)
		}
	}
}

// StreamVersion is a stream's current version (0 when it has no events).
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	var v int64
	err := s.read.QueryRowContext(ctx, `SELECT version FROM streams WHERE stream = ?`, stream).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, err
}

func collect(rows *sql.Rows, err error) ([]events.Event, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []events.Event
	for ev, err := range each(rows, scan) {
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func scan(rows *sql.Rows) (events.Event, error) {
	var ev events.Event
	var data, at string
	if err := rows.Scan(&ev.Seq, &ev.Stream, &ev.Version, &ev.Batch, &ev.Type, &ev.SchemaVersion,
		&data, &at, &ev.IdempotencyKey, &ev.PrevHash, &ev.Hash); err != nil {
		return events.Event{}, err
	}
	ev.Data = json.RawMessage(data)
	var err error
	ev.RecordedAt, err = events.ParseTime(ev.Seq, []byte(at))
	return ev, err
}

// Resolve gives the stream an alias names, or "" when none.
func (s *Store) Resolve(ctx context.Context, alias string) (string, error) {
	var stream string
	err := s.read.QueryRowContext(ctx, `SELECT stream FROM stream_aliases WHERE alias = ?`, alias).Scan(&stream)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve alias: %w", err)
	}
	return stream, nil
}
