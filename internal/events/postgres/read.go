package postgres

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/events"
)

const selectEvents = `SELECT seq, stream, version, batch, type, schema_version, data::text, recorded_at,
	COALESCE(idempotency_key, ''), prev_hash, hash FROM events`

func scan(rows pgx.CollectableRow) (events.Event, error) {
	var ev events.Event
	var data, at []byte
	if err := rows.Scan(&ev.Seq, &ev.Stream, &ev.Version, &ev.Batch, &ev.Type, &ev.SchemaVersion,
		&data, &at, &ev.IdempotencyKey, &ev.PrevHash, &ev.Hash); err != nil {
		return events.Event{}, err
	}
	ev.Data = data
	var err error
	ev.RecordedAt, err = events.ParseTime(ev.Seq, at)
	return ev, err
}

func collect(rows pgx.Rows, err error) ([]events.Event, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scan)
}

// snapshot runs fn in a read-only transaction that sees one moment of the
// database (repeatable read): a stream's head and its events, or every
// stream, as they were together.
func (s *Store) snapshot(ctx context.Context, fn func(pgx.Tx) error) error {
	return reach(pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn))
}

// ReadStream returns a stream's events in order (none for an unknown
// stream), checking its hash chain and its head as it reads: the first
// event that breaks them is a *events.ChainError, returned with the events
// before it.
func (s *Store) ReadStream(ctx context.Context, stream string) ([]events.Event, error) {
	var out []events.Event
	err := s.readChained(ctx, stream, func(ev events.Event) error { out = append(out, ev); return nil })
	if err != nil {
		return out, fmt.Errorf("read stream %s: %w", stream, err)
	}
	return out, nil
}

// Replay calls fn with each of a stream's events in order, its chain
// checked as ReadStream checks it; fn has every event before one at fault.
func (s *Store) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	err := s.readChained(ctx, stream, fn)
	var ce *events.ChainError
	if err != nil && !errors.As(err, &ce) {
		return fmt.Errorf("replay %s: %w", stream, err)
	}
	return err
}

func (s *Store) readChained(ctx context.Context, stream string, fn func(events.Event) error) error {
	return s.snapshot(ctx, func(tx pgx.Tx) error {
		var h events.Head
		found := true
		err := tx.QueryRow(ctx, `SELECT version, hash FROM streams WHERE stream = $1`, stream).Scan(&h.Version, &h.Hash)
		if errors.Is(err, pgx.ErrNoRows) {
			found = false
		} else if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, selectEvents+` WHERE stream = $1 ORDER BY version`, stream)
		if err != nil {
			return err
		}
		defer rows.Close()
		return events.ReadChained(stream, h, found, each(rows), fn)
	})
}

// each yields the events rows reads, then rows' error if any.
func each(rows pgx.Rows) iter.Seq2[events.Event, error] {
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

// ReplayAll calls fn with every event of every stream in stored order,
// from one snapshot; last says the event is its stream's last one in it.
func (s *Store) ReplayAll(ctx context.Context, fn func(ev events.Event, last bool) error) error {
	err := s.snapshot(ctx, func(tx pgx.Tx) error {
		heads := map[string]int64{}
		rows, err := tx.Query(ctx, `SELECT stream, version FROM streams`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var st string
			var v int64
			if err := rows.Scan(&st, &v); err != nil {
				rows.Close()
				return err
			}
			heads[st] = v
		}
		if rows.Close(); rows.Err() != nil {
			return rows.Err()
		}
		rows, err = tx.Query(ctx, selectEvents+` ORDER BY seq`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			ev, err := scan(rows)
			if err != nil {
				return err
			}
			if err := fn(ev, ev.Version == heads[ev.Stream]); err != nil {
				return userError{err}
			}
		}
		return rows.Err()
	})
	var ue userError
	if errors.As(err, &ue) {
		return ue.err
	}
	if err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	return nil
}

// userError is fn's own error, handed back as it is.
type userError struct{ err error }

func (u userError) Error() string { return u.err.Error() }
func (u userError) Unwrap() error { return u.err }

// StreamVersion is a stream's current version (0 when it has no events).
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT version FROM streams WHERE stream = $1`, stream).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("version of %s: %w", stream, reach(err))
	}
	return v, nil
}

// Resolve gives the stream an alias names, or "" when none.
func (s *Store) Resolve(ctx context.Context, alias string) (string, error) {
	var stream string
	err := s.pool.QueryRow(ctx, `SELECT stream FROM stream_aliases WHERE alias = $1`, alias).Scan(&stream)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve alias: %w", reach(err))
	}
	return stream, nil
}
