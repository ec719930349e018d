package sqlite

import (
	"context"
	"fmt"
	"tappbook/internal/events"
)

// Import writes the events of one stream exported from another store, as
// they were: their versions, batches, times and payloads. The stream must be
// new; each event's hash is computed afresh along the chain and must equal
// the one it carries (every event carries one), so a file changed after
// export is refused. aliases are the stream's
// other names, written with it.
func (s *Store) Import(ctx context.Context, evs []events.Event, aliases []string) error {
	if len(evs) == 0 {
		return fmt.Errorf("import: no events")
	}
	stream := evs[0].Stream
	err := s.exclusive(func() error {
		s.w.seq = 0 // the commits after it read the last seq again
		return s.transaction(ctx, func() error { return s.importTx(ctx, stream, evs, aliases) })
	})
	if err != nil {
		return fmt.Errorf("import %s: %w", stream, err)
	}
	return nil
}

func (s *Store) importTx(ctx context.Context, stream string, evs []events.Event, aliases []string) error {
	var exists int
	if err := s.w.conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM streams WHERE stream = ?`, stream).Scan(&exists); err != nil {
		return err
	}
	if exists > 0 {
		return fmt.Errorf("the game is already in this database")
	}
	evs, err := events.CheckImport(evs)
	if err != nil {
		return err
	}
	last := evs[len(evs)-1]
	res, err := s.w.conn.ExecContext(ctx, `INSERT INTO streams (stream, version, hash) VALUES (?, ?, ?)`, stream, last.Version, last.Hash)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	for _, e := range evs {
		if _, err := s.w.conn.ExecContext(ctx, `INSERT INTO events
			(stream_id, version, seq, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES (?, ?, (SELECT IFNULL(MAX(seq), 0) + 1 FROM events), ?, ?, ?, ?, ?, NULL, ?, ?)`,
			id, e.Version, e.Batch, e.Type, e.SchemaVersion, string(e.Data), events.FormatTime(e.RecordedAt), e.PrevHash, e.Hash); err != nil {
			return fmt.Errorf("event %d: %w", e.Version, err)
		}
	}
	for _, a := range aliases {
		if _, err := s.w.conn.ExecContext(ctx, `INSERT INTO stream_aliases (alias, stream) VALUES (?, ?)`, a, stream); err != nil {
			return fmt.Errorf("alias: %w", err)
		}
	}
	return nil
}
