package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"tappbook/internal/events"
	"time"
)

// Append adds events to a stream in one transaction, all or none. The
// stream must be at expectedVersion (0 for a new stream), else it returns a
// *events.ConflictError. A key with a Name makes the append idempotent: when an
// append with the same key and fingerprint was made within the key's time
// to live, Append writes nothing and returns that append's events with
// Duplicate set; with another fingerprint it is a *events.KeyReusedError, and a
// key name not of the allowed form a *events.KeyError.
func (s *Store) Append(ctx context.Context, stream string, expectedVersion int64, key events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	return s.AppendAliased(ctx, stream, expectedVersion, key, nil, evs...)
}

// AppendAliased is Append that also gives the stream other names (such as a
// read-only link), in the same transaction.
func (s *Store) AppendAliased(ctx context.Context, stream string, expectedVersion int64, key events.Key, aliases []string, evs ...events.NewEvent) (events.AppendResult, error) {
	if len(evs) == 0 {
		return events.AppendResult{}, fmt.Errorf("append to %s: no events", stream)
	}
	if err := key.Check(); err != nil {
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	payloads := make([][]byte, len(evs))
	for i, e := range evs {
		b, err := events.EncodePayload(e.Data)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		payloads[i] = b
	}
	r := &appendReq{stream: stream, expectedVersion: expectedVersion, key: key, aliases: aliases,
		evs: evs, payloads: payloads, reply: make(chan appendResp, 1)}
	if err := ctx.Err(); err != nil {
		return events.AppendResult{}, err
	}
	// Once queued, the append is committed or refused as a whole; the answer
	// is awaited even if the caller gave up, so that it never lies.
	resp := s.submit(r)
	return resp.res, resp.err
}

// headOf gives a stream's head as the transaction sees it: from the
// transaction's own appends, then the heads in memory (as this store
// committed them), then the database, where the head must point at the
// stream's last event, or the stream is not appended to (*events.ChainError).
func (s *Store) headOf(ctx context.Context, stream string, pending map[string]events.Head) (events.Head, error) {
	if h, ok := pending[stream]; ok {
		return h, nil
	}
	if h, ok := s.w.heads[stream]; ok {
		return h, nil
	}
	var h events.Head
	found := true
	err := s.w.stmts.head.QueryRowContext(ctx, stream).Scan(&h.Version, &h.Hash)
	if errors.Is(err, sql.ErrNoRows) {
		found = false
	} else if err != nil {
		return events.Head{}, err
	}
	var lastSeq, lastVersion int64
	var lastHash string
	err = s.w.stmts.last.QueryRowContext(ctx, stream).Scan(&lastSeq, &lastVersion, &lastHash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return events.Head{}, err
	}
	if ce := events.CheckHead(stream, h, found, lastSeq, lastVersion, lastHash); ce != nil {
		return events.Head{}, ce
	}
	return h, nil
}

// appendTx is one append inside the commit's transaction.
// It writes nothing when it refuses the append (stale version, known key),
// and records the stream's new head in pending.
func (s *Store) appendTx(ctx context.Context, r *appendReq, pending map[string]events.Head) (events.AppendResult, error) {
	stream, expectedVersion, key, aliases, evs, payloads := r.stream, r.expectedVersion, r.key, r.aliases, r.evs, r.payloads
	if key.Name != "" {
		u, ok, err := s.lookupKey(ctx, s.w.stmts.key, key)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
		}
		if ok {
			first, err := readBatch(ctx, s.w.conn, u.stream, u.batch)
			if err != nil {
				return events.AppendResult{}, fmt.Errorf("append to %s: read the first answer for key %q: %w", stream, key.Name, err)
			}
			return events.AppendResult{Events: first, Duplicate: true}, nil
		}
	}

	h, err := s.headOf(ctx, stream, pending)
	if err != nil {
		return events.AppendResult{}, fmt.Errorf("append to %s: read head: %w", stream, err)
	}
	version, prevHash := h.Version, h.Hash
	if version != expectedVersion {
		return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: expectedVersion, Actual: version}
	}

	now := s.opt.Now()
	at := now.UTC().Truncate(time.Microsecond)
	batch := version + 1
	out := make([]events.Event, len(evs))
	for i, e := range evs {
		ev := events.Event{
			Stream: stream, Version: version + 1 + int64(i), Batch: batch,
			Type: e.Type, SchemaVersion: e.SchemaVersion, Data: payloads[i],
			RecordedAt: at, PrevHash: prevHash,
		}
		if i == 0 {
			ev.IdempotencyKey = key.Name
		}
		ev.Hash = ev.ComputeHash()
		res, err := s.w.stmts.insert.ExecContext(ctx,
			ev.Stream, ev.Version, ev.Batch, ev.Type, ev.SchemaVersion, string(ev.Data),
			events.FormatTime(ev.RecordedAt), nullable(ev.IdempotencyKey), ev.PrevHash, ev.Hash)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		if ev.Seq, err = res.LastInsertId(); err != nil {
			return events.AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		prevHash = ev.Hash
		out[i] = ev
	}
	last := out[len(out)-1]
	if _, err := s.w.stmts.moveHead.ExecContext(ctx, stream, last.Version, last.Hash); err != nil {
		return events.AppendResult{}, fmt.Errorf("append to %s: move head: %w", stream, err)
	}
	pending[stream] = events.Head{Version: last.Version, Hash: last.Hash}
	for _, a := range aliases {
		if _, err := s.w.conn.ExecContext(ctx, `INSERT INTO stream_aliases (alias, stream) VALUES (?, ?)`, a, stream); err != nil {
			return events.AppendResult{}, fmt.Errorf("append to %s: alias: %w", stream, err)
		}
	}
	// The key is kept in the same transaction as the events it answers:
	// both are durable, or neither.
	if key.Name != "" {
		if _, err := s.w.stmts.useKey.ExecContext(ctx, key.Scope, key.Name, stream, batch, key.Fingerprint, keyTime(now)); err != nil {
			return events.AppendResult{}, fmt.Errorf("append to %s: keep key: %w", stream, err)
		}
	}
	return events.AppendResult{Events: out}, nil
}

// nullable stores an empty key as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
