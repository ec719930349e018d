package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"tappbook/internal/events"
)

// Verify walks every stream's hash chain in order and names the first event
// that does not match: a changed payload, a missing or reordered event, or a
// stream head that does not point at its last event.
func (s *Store) Verify(ctx context.Context) (events.VerifyReport, error) {
	var rep events.VerifyReport
	// The heads and the events are read in one transaction, so from one
	// snapshot: read apart, a deal committed between the two reads by a
	// running server would look like a head behind its last event.
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return rep, fmt.Errorf("verify: %w", classify(s.path, err))
	}
	defer tx.Rollback() // read only: nothing to keep
	heads, err := readHeads(ctx, tx)
	if err != nil {
		return rep, fmt.Errorf("verify: read heads: %w", classify(s.path, err))
	}
	// An event whose stream's row was removed has no name (stream_events):
	// its chain cannot be followed, and the first such event is the problem.
	rows, err := tx.QueryContext(ctx, selectEvents+` ORDER BY seq`)
	if err != nil {
		return rep, fmt.Errorf("verify: %w", classify(s.path, err))
	}
	defer rows.Close()
	var orphan *events.Problem
	rep, last, err := events.VerifyChains(heads, func(yield func(events.Event, error) bool) {
		for ev, err := range each(rows, scan) {
			if err == nil && ev.Stream == "" {
				orphan = &events.Problem{Seq: ev.Seq, Version: ev.Version, Reason: "the stream has no head: it was not written by tappbook"}
				err = errOrphan
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	})
	if orphan != nil {
		rep.Problem = orphan
		return rep, nil
	}
	if err != nil {
		var ce *events.CorruptError
		if errors.As(classify(s.path, err), &ce) {
			ce.Problems[0] = fmt.Sprintf("after event %d (stream %s, version %d), %s", last.Seq, last.Stream, last.Version, ce.Problems[0])
			return rep, ce
		}
		return rep, fmt.Errorf("verify: %w", err)
	}
	return rep, nil
}

var errOrphan = errors.New("an event without its stream")

// readHeads is every stream's head.
func readHeads(ctx context.Context, tx *sql.Tx) (map[string]events.Head, error) {
	heads := map[string]events.Head{}
	rows, err := tx.QueryContext(ctx, `SELECT stream, version, hash FROM streams WHERE version > 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var st string
		var h events.Head
		if err := rows.Scan(&st, &h.Version, &h.Hash); err != nil {
			return nil, err
		}
		heads[st] = h
	}
	return heads, rows.Err()
}
