package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/events"
)

// Verify walks every stream's hash chain in stored order, from one
// snapshot, and names the first event that does not match, or a stream
// head that does not point at its last event.
func (s *Store) Verify(ctx context.Context) (events.VerifyReport, error) {
	var rep events.VerifyReport
	err := s.snapshot(ctx, func(tx pgx.Tx) error {
		heads := map[string]events.Head{}
		var st string
		var h events.Head
		rows, _ := tx.Query(ctx, `SELECT stream, version, hash FROM streams`) // its error is rows'
		if _, err := pgx.ForEachRow(rows, []any{&st, &h.Version, &h.Hash}, func() error { heads[st] = h; return nil }); err != nil {
			return fmt.Errorf("read heads: %w", err)
		}
		rows, err := tx.Query(ctx, selectEvents+` ORDER BY seq`)
		if err != nil {
			return err
		}
		defer rows.Close()
		rep, _, err = events.VerifyChains(heads, each(rows))
		return err
	})
	if err != nil {
		return rep, fmt.Errorf("verify: %w", err)
	}
	return rep, nil
}

// guards are the triggers that keep history append-only.
var guards = []string{"events_no_update", "events_no_delete", "events_no_truncate", "stream_aliases_no_update"}

// CheckIntegrity checks what PostgreSQL's own storage checks do not: that
// the store's tables are there and the triggers that refuse to change or
// delete an event are in place and enabled. (PostgreSQL checks its pages
// itself, with data checksums where the cluster has them.)
func (s *Store) CheckIntegrity(ctx context.Context, full bool) error {
	if err := s.checkSchema(ctx); err != nil {
		return err
	}
	rows, err := s.pool.Query(ctx, `SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'D' AND tgname = ANY($1)`, guards)
	if err != nil {
		return fmt.Errorf("check %s: %w", Redact(s.url), err)
	}
	have, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("check %s: %w", Redact(s.url), err)
	}
	var missing []string
	for _, g := range guards {
		if !contains(have, g) {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 {
		return &events.CorruptError{Path: Redact(s.url), Problems: []string{
			"the triggers that keep events from being changed or deleted are missing or disabled: " + strings.Join(missing, ", ")}}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Import writes the events of one stream exported from any store, as they
// were: the stream must be new, and every event must carry the hash it has
// along the chain (events.CheckImport).
func (s *Store) Import(ctx context.Context, evs []events.Event, aliases []string) error {
	if s.readOnly {
		return events.ErrReadOnly
	}
	if len(evs) == 0 {
		return fmt.Errorf("import: no events")
	}
	stream := evs[0].Stream
	checked, err := events.CheckImport(evs)
	if err != nil {
		return fmt.Errorf("import %s: %w", stream, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return events.ErrClosed
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockStream, stream); err != nil {
			return err
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM streams WHERE stream = $1)`, stream).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return fmt.Errorf("the game is already in this database")
		}
		rows := make([][]any, len(checked))
		for i, e := range checked {
			rows[i] = []any{e.Stream, e.Version, e.Batch, e.Type, e.SchemaVersion, string(e.Data), events.FormatTime(e.RecordedAt), e.PrevHash, e.Hash}
		}
		b := &pgx.Batch{}
		for _, r := range rows {
			b.Queue(`INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, prev_hash, hash)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, r...)
		}
		last := checked[len(checked)-1]
		b.Queue(`INSERT INTO streams (stream, version, hash) VALUES ($1, $2, $3)`, stream, last.Version, last.Hash)
		for _, a := range aliases {
			b.Queue(`INSERT INTO stream_aliases (alias, stream) VALUES ($1, $2)`, a, stream)
		}
		b.Queue(`SELECT pg_notify($1, $2)`, channel, fmt.Sprintf("%d %s", last.Version, stream))
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return fmt.Errorf("import %s: %w", stream, s.writeFailed(err))
	}
	return nil
}

// EachStream hands fn every stream, oldest first, with its events and
// aliases as stored, all from one snapshot (the idempotency keys, an index
// of recent requests, are not history and are left out): what
// `tappbook backup` copies into a SQLite file.
func (s *Store) EachStream(ctx context.Context, fn func(evs []events.Event, aliases []string) error) error {
	return s.snapshot(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT h.stream FROM streams h JOIN events e ON e.stream = h.stream AND e.version = 1 ORDER BY e.seq`)
		if err != nil {
			return err
		}
		streams, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, st := range streams {
			evs, err := collect(tx.Query(ctx, selectEvents+` WHERE stream = $1 ORDER BY version`, st))
			if err != nil {
				return err
			}
			rows, err := tx.Query(ctx, `SELECT alias FROM stream_aliases WHERE stream = $1 ORDER BY alias`, st)
			if err != nil {
				return err
			}
			aliases, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			if err := fn(evs, aliases); err != nil {
				return err
			}
		}
		return nil
	})
}
