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
func (s *Store) headOf(ctx context.Context, stream string, pending map[string]head) (head, error) {
	if h, ok := pending[stream]; ok {
		return h, nil
	}
	if h, ok := s.w.heads[stream]; ok {
		return h, nil
	}
	var h head
	err := s.w.stmts.head.QueryRowContext(ctx, stream).Scan(&h.id, &h.Version, &h.Hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return head{}, err
	}
	var lastSeq, lastVersion int64
	var lastHash string
	var lastAt []byte
	err = s.w.stmts.last.QueryRowContext(ctx, h.id).Scan(&lastSeq, &lastVersion, &lastHash, &lastAt)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return head{}, err
	}
	if ce := events.CheckHead(stream, h.Head, h.Version > 0, lastSeq, lastVersion, lastHash); ce != nil {
		return head{}, ce
	}
	if lastVersion > 0 {
		if h.at, err = events.ParseTime(lastSeq, lastAt); err != nil {
			return head{}, err
		}
	}
	return h, nil
}

// appendTx is one append inside the commit's transaction.
// It writes nothing when it refuses the append (stale version, known key),
// and records the stream's new head and the last seq in tx.
func (s *Store) appendTx(ctx context.Context, r *appendReq, tx *txState) (events.AppendResult, error) {
	stream, expectedVersion, key, evs, payloads := r.stream, r.expectedVersion, r.key, r.evs, r.payloads
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

	h, err := s.headOf(ctx, stream, tx.heads)
	if err != nil {
		return events.AppendResult{}, fmt.Errorf("append to %s: read head: %w", stream, err)
	}
	if h.Version != expectedVersion {
		return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: expectedVersion, Actual: h.Version}
	}

	now := s.opt.Now()
	at := events.StampTime(now, h.at)
	batch := h.Version + 1
	out := make([]events.Event, len(evs))
	prevHash := h.Hash
	for i, e := range evs {
		ev := events.Event{
			Stream: stream, Version: h.Version + 1 + int64(i), Batch: batch,
			Type: e.Type, SchemaVersion: e.SchemaVersion, Data: payloads[i],
			RecordedAt: at, PrevHash: prevHash,
		}
		if i == 0 {
			ev.IdempotencyKey = key.Name
		}
		ev.Hash = ev.ComputeHash()
		prevHash = ev.Hash
		out[i] = ev
	}
	// The head first: a new stream's row gives the id its events are kept under.
	last := out[len(out)-1]
	if err := s.moveHead(ctx, &h, stream, last); err != nil {
		return events.AppendResult{}, fmt.Errorf("append to %s: move head: %w", stream, err)
	}
	for i := range out {
		tx.seq++
		out[i].Seq = tx.seq
		if err := s.insertEvent(ctx, h.id, out[i]); err != nil {
			return events.AppendResult{}, fmt.Errorf("append %s to %s: %w", out[i].Type, stream, err)
		}
	}
	tx.heads[stream] = h
	return events.AppendResult{Events: out}, s.keepAliasesAndKey(ctx, r, batch, now)
}

// moveHead stores the stream's new head, its last event, creating the
// stream's row (and so its id) for a new stream.
func (s *Store) moveHead(ctx context.Context, h *head, stream string, last events.Event) error {
	h.Head, h.at = events.Head{Version: last.Version, Hash: last.Hash}, last.RecordedAt
	if h.id != 0 {
		_, err := s.w.stmts.moveHead.ExecContext(ctx, last.Version, last.Hash, h.id)
		return err
	}
	res, err := s.w.stmts.newStream.ExecContext(ctx, stream, last.Version, last.Hash)
	if err == nil {
		h.id, err = res.LastInsertId()
	}
	return err
}

func (s *Store) insertEvent(ctx context.Context, id int64, ev events.Event) error {
	_, err := s.w.stmts.insert.ExecContext(ctx, id, ev.Version, ev.Seq, ev.Batch, ev.Type, ev.SchemaVersion, string(ev.Data),
		events.FormatTime(ev.RecordedAt), nullable(ev.IdempotencyKey), ev.PrevHash, ev.Hash)
	return err
}

// keepAliasesAndKey writes the append's aliases and its key in the same
// transaction as the events the key answers: both are durable, or neither.
func (s *Store) keepAliasesAndKey(ctx context.Context, r *appendReq, batch int64, now time.Time) error {
	for _, a := range r.aliases {
		if _, err := s.w.conn.ExecContext(ctx, `INSERT INTO stream_aliases (alias, stream) VALUES (?, ?)`, a, r.stream); err != nil {
			return fmt.Errorf("append to %s: alias: %w", r.stream, err)
		}
	}
	if r.key.Name != "" {
		if _, err := s.w.stmts.useKey.ExecContext(ctx, r.key.Scope, r.key.Name, r.stream, batch, r.key.Fingerprint, keyTime(now)); err != nil {
			return fmt.Errorf("append to %s: keep key: %w", r.stream, err)
		}
	}
	return nil
}

// nullable stores an empty key as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
