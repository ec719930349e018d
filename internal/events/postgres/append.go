package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/events"
)

// Lock classes of pg_advisory_xact_lock(class, key): appends to one stream
// take turns, and so do appends with one idempotency key, across every
// server on the database.
const (
	lockStream = 1
	lockKey    = 2
)

// channel is the NOTIFY channel that appends announce themselves on.
const channel = "tappbook_events"

// Append adds events to a stream in one transaction, all or none, as
// events.Store.Append does.
func (s *Store) Append(ctx context.Context, stream string, expectedVersion int64, key events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	return s.AppendAliased(ctx, stream, expectedVersion, key, nil, evs...)
}

// AppendAliased is Append that also gives the stream other names, in the
// same transaction.
//
// Appends to a stream take turns on an advisory lock held to the end of
// the transaction: each reads the head the last one committed, so among
// racing appends at one expected version one wins and the others get a
// *events.ConflictError. The commit returns once PostgreSQL has flushed it
// (synchronous_commit=on); then every server listening is notified.
func (s *Store) AppendAliased(ctx context.Context, stream string, expectedVersion int64, key events.Key, aliases []string, evs ...events.NewEvent) (events.AppendResult, error) {
	if len(evs) == 0 {
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, errNoEvents)
	}
	if err := key.Check(); err != nil {
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	payloads := make([]string, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(e.Data)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		payloads[i] = string(b)
	}
	if err := ctx.Err(); err != nil {
		return events.AppendResult{}, err
	}
	if s.readOnly {
		return events.AppendResult{}, events.ErrReadOnly
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return events.AppendResult{}, events.ErrClosed
	}
	// Once begun, the append is committed or refused as a whole, even if
	// the caller gives up, so that its answer never lies.
	ctx = context.WithoutCancel(ctx)
	var res events.AppendResult
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		res, err = s.appendTx(ctx, tx, stream, expectedVersion, key, aliases, evs, payloads)
		return err
	})
	if err != nil {
		err = s.writeFailed(err)
		if isUnique(err, "events_stream_version_key") {
			// Another append took the version: a race the lock should
			// have prevented, answered as the race it is.
			v, _ := s.StreamVersion(ctx, stream)
			return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: expectedVersion, Actual: v}
		}
		if isRefusal(err) {
			return events.AppendResult{}, err
		}
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	s.health.Store(nil)
	return res, nil
}

func (s *Store) appendTx(ctx context.Context, tx pgx.Tx, stream string, expectedVersion int64, key events.Key,
	aliases []string, evs []events.NewEvent, payloads []string) (events.AppendResult, error) {
	if key.Name != "" {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockKey, key.Scope+"\n"+key.Name); err != nil {
			return events.AppendResult{}, err
		}
		first, ok, err := s.lookupKey(ctx, tx, key)
		if err != nil {
			return events.AppendResult{}, err
		}
		if ok {
			return events.AppendResult{Events: first, Duplicate: true}, nil
		}
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockStream, stream); err != nil {
		return events.AppendResult{}, err
	}
	h, err := headOf(ctx, tx, stream)
	if err != nil {
		return events.AppendResult{}, err
	}
	version, prevHash := h.Version, h.Hash
	if version != expectedVersion {
		return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: expectedVersion, Actual: version}
	}
	now := s.now()
	at := now.UTC().Truncate(time.Microsecond)
	batch := version + 1
	out := make([]events.Event, len(evs))
	b := &pgx.Batch{}
	for i, e := range evs {
		ev := events.Event{Stream: stream, Version: version + 1 + int64(i), Batch: batch,
			Type: e.Type, SchemaVersion: e.SchemaVersion, Data: json.RawMessage(payloads[i]),
			RecordedAt: at, PrevHash: prevHash}
		if i == 0 {
			ev.IdempotencyKey = key.Name
		}
		ev.Hash = ev.ComputeHash()
		out[i] = ev
		b.Queue(`INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq`,
			ev.Stream, ev.Version, ev.Batch, ev.Type, ev.SchemaVersion, payloads[i],
			events.FormatTime(ev.RecordedAt), nullable(ev.IdempotencyKey), ev.PrevHash, ev.Hash).QueryRow(func(row pgx.Row) error {
			return row.Scan(&out[i].Seq)
		})
		prevHash = ev.Hash
	}
	last := out[len(out)-1]
	b.Queue(`INSERT INTO streams (stream, version, hash) VALUES ($1, $2, $3)
		ON CONFLICT (stream) DO UPDATE SET version = excluded.version, hash = excluded.hash`, stream, last.Version, last.Hash)
	for _, a := range aliases {
		b.Queue(`INSERT INTO stream_aliases (alias, stream) VALUES ($1, $2)`, a, stream)
	}
	// The key is kept in the same transaction as the events it answers:
	// both are durable, or neither. An expired key's row is taken over.
	if key.Name != "" {
		b.Queue(`INSERT INTO idempotency_keys (scope, name, stream, batch, fingerprint, used_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (scope, name) DO UPDATE SET stream = excluded.stream, batch = excluded.batch,
			fingerprint = excluded.fingerprint, used_at = excluded.used_at`,
			key.Scope, key.Name, stream, batch, key.Fingerprint, now)
	}
	// Delivered to every listening server when (and only if) the
	// transaction commits.
	b.Queue(`SELECT pg_notify($1, $2)`, channel, strconv.FormatInt(last.Version, 10)+" "+stream)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return events.AppendResult{}, err
	}
	// The sequence numbers were scanned into out by the batch.
	return events.AppendResult{Events: out}, nil
}

// headOf reads a stream's head and its last event in one statement; a head
// that does not point at the last event is a *events.ChainError, and the
// stream is not appended to.
func headOf(ctx context.Context, tx pgx.Tx, stream string) (events.Head, error) {
	var hv, lseq, lv *int64
	var hh, lh *string
	err := tx.QueryRow(ctx, `SELECT s.version, s.hash, e.seq, e.version, e.hash
		FROM (SELECT 1) one
		LEFT JOIN streams s ON s.stream = $1
		LEFT JOIN LATERAL (SELECT seq, version, hash FROM events WHERE stream = $1 ORDER BY version DESC LIMIT 1) e ON true`,
		stream).Scan(&hv, &hh, &lseq, &lv, &lh)
	if err != nil {
		return events.Head{}, fmt.Errorf("read head: %w", err)
	}
	h := events.Head{Version: deref(hv), Hash: deref(hh)}
	if ce := events.CheckHead(stream, h, hv != nil, deref(lseq), deref(lv), deref(lh)); ce != nil {
		return events.Head{}, ce
	}
	return h, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// lookupKey finds a key that still counts, and the events of the append it
// answered; a *events.KeyReusedError when it came with another request.
func (s *Store) lookupKey(ctx context.Context, q pgx.Tx, k events.Key) ([]events.Event, bool, error) {
	return lookupKey(ctx, q, k, s.now(), s.keyTTL)
}

// querier is a transaction or the pool.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func lookupKey(ctx context.Context, q querier, k events.Key, now time.Time, ttl time.Duration) ([]events.Event, bool, error) {
	var stream string
	var batch int64
	var fingerprint []byte
	var usedAt time.Time
	err := q.QueryRow(ctx, `SELECT stream, batch, fingerprint, used_at FROM idempotency_keys WHERE scope = $1 AND name = $2`,
		k.Scope, k.Name).Scan(&stream, &batch, &fingerprint, &usedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("look up idempotency key %q: %w", k.Name, err)
	}
	if events.KeyExpired(usedAt, now, ttl) {
		return nil, false, nil // expired: the key may be used again
	}
	if fingerprint != nil && string(fingerprint) != string(k.Fingerprint) {
		return nil, false, &events.KeyReusedError{Name: k.Name}
	}
	evs, err := collect(q.Query(ctx, selectEvents+` WHERE stream = $1 AND batch = $2 ORDER BY version`, stream, batch))
	if err != nil {
		return nil, false, fmt.Errorf("read the first answer for key %q: %w", k.Name, err)
	}
	return evs, true, nil
}

// FindKey returns the events of the first append made with a key that
// still counts, if any; a *events.KeyReusedError when the key came with
// another request.
func (s *Store) FindKey(ctx context.Context, k events.Key) ([]events.Event, bool, error) {
	if k.Name == "" {
		return nil, false, nil
	}
	if err := k.Check(); err != nil {
		return nil, false, err
	}
	return lookupKey(ctx, s.pool, k, s.now(), s.keyTTL)
}

// nullable stores an empty key as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
