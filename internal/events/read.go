package events

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

const selectEvents = `SELECT seq, stream, version, batch, type, schema_version, data, recorded_at,
	COALESCE(idempotency_key, ''), prev_hash, hash FROM events`

func readBatch(ctx context.Context, q querier, stream string, batch int64) ([]Event, error) {
	return collect(q.QueryContext(ctx, selectEvents+` WHERE stream = ? AND batch = ? ORDER BY version`, stream, batch))
}

// ReadStream returns a stream's events in order (none for an unknown
// stream), checking its hash chain and its head as it reads: the first
// event that breaks them is a *ChainError, returned with the events before
// it.
func (s *Store) ReadStream(ctx context.Context, stream string) ([]Event, error) {
	var out []Event
	err := s.readChained(ctx, stream, selectEvents, func(rows *sql.Rows, w *walker) (*ChainError, error) {
		ev, err := scan(rows)
		if err != nil {
			return nil, err
		}
		if ce := w.stepEvent(ev); ce != nil {
			return ce, nil
		}
		out = append(out, ev)
		return nil, nil
	})
	if err != nil {
		return out, fmt.Errorf("read stream %s: %w", stream, err)
	}
	return out, nil
}

// readChained reads a stream's head and its events (with query, which
// selects from events) in one read transaction, so that both are of the
// same moment; each row is handed to row, which checks it with the
// walker. The head is checked against the last event at the end.
func (s *Store) readChained(ctx context.Context, stream, query string, row func(*sql.Rows, *walker) (*ChainError, error)) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var h head
	found := true
	if err := tx.QueryRowContext(ctx, `SELECT version, hash FROM streams WHERE stream = ?`, stream).Scan(&h.version, &h.hash); errors.Is(err, sql.ErrNoRows) {
		found = false
	} else if err != nil {
		return classify(s.path, err)
	}
	rows, err := tx.QueryContext(ctx, query+` WHERE stream = ? ORDER BY version`, stream)
	if err != nil {
		return classify(s.path, err)
	}
	defer rows.Close()
	w := walker{stream: stream}
	for rows.Next() {
		ce, err := row(rows, &w)
		if err != nil {
			return err
		}
		if ce != nil {
			return ce
		}
	}
	if err := rows.Err(); err != nil {
		return classify(s.path, err)
	}
	if ce := w.end(h, found); ce != nil {
		return ce
	}
	return nil
}

// ReadFrom calls fn for every event with a sequence number of at least from,
// in order, until fn returns an error: for replaying everything.
func (s *Store) ReadFrom(ctx context.Context, from int64, fn func(Event) error) error {
	return readFrom(ctx, s.read, from, fn)
}

// readFrom is ReadFrom on q: the store's readers, or one read transaction.
func readFrom(ctx context.Context, q querier, from int64, fn func(Event) error) error {
	rows, err := q.QueryContext(ctx, selectEvents+` WHERE seq >= ? ORDER BY seq`, from)
	if err != nil {
		return fmt.Errorf("read events from %d: %w", from, err)
	}
	defer rows.Close()
	for rows.Next() {
		ev, err := scan(rows)
		if err != nil {
			return fmt.Errorf("read events from %d: %w", from, err)
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return rows.Err()
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

func collect(rows *sql.Rows, err error) ([]Event, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		ev, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

func scan(rows *sql.Rows) (Event, error) {
	var ev Event
	var data, at string
	if err := rows.Scan(&ev.Seq, &ev.Stream, &ev.Version, &ev.Batch, &ev.Type, &ev.SchemaVersion,
		&data, &at, &ev.IdempotencyKey, &ev.PrevHash, &ev.Hash); err != nil {
		return Event{}, err
	}
	ev.Data = json.RawMessage(data)
	var err error
	ev.RecordedAt, err = parseTime(ev.Seq, at)
	return ev, err
}

// parseTime reads the stored recorded_at of event seq.
func parseTime(seq int64, at string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return time.Time{}, fmt.Errorf("event %d: recorded_at %q: %w", seq, at, err)
	}
	return t, nil
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

// Streams lists every stream, oldest first. The heads table names them all;
// each one's first event, found by the (stream, version) index, gives the
// order, so listing does not scan the events.
func (s *Store) Streams(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT h.stream FROM streams h
		JOIN events e ON e.stream = h.stream AND e.version = 1 ORDER BY e.seq`)
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			return nil, fmt.Errorf("list streams: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
