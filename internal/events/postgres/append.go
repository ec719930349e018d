package postgres

import (
	"context"
	"errors"
	"fmt"
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
		b, err := events.EncodePayload(e.Data)
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
	// the caller gives up, so that its answer never lies; a database that
	// stops answering ends it after appendTimeout.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.appendTimeout)
	defer cancel()
	res, err := s.submit(ctx, &appendReq{stream: stream, expectedVersion: expectedVersion, key: key, aliases: aliases, evs: evs, payloads: payloads})
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
	s.unreachable.Store(false)
	s.health.Store(nil)
	return res, nil
}

// settleTimeout bounds the question whether a commit was made.
const settleTimeout = 10 * time.Second

// settleCommit learns whether an append whose commit got no answer was
// committed. It takes the stream's append lock, so the transaction that
// lost its connection has ended one way or the other, then looks for the
// first event by its hash (the hash chains to the head before it, so no
// other append has that hash). If the database cannot be asked either, the
// append's outcome is unknown.
func (s *Store) settleCommit(stream string, out []events.Event, cause error) (events.AppendResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), min(s.appendTimeout, settleTimeout))
	defer cancel()
	first, last := out[0], out[len(out)-1]
	seqs := map[int64]int64{}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockStream, stream); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT version, seq FROM events WHERE stream = $1 AND version BETWEEN $2 AND $3 AND
			(version <> $2 OR hash = $4)`, stream, first.Version, last.Version, first.Hash)
		if err != nil {
			return err
		}
		var v, seq int64
		_, err = pgx.ForEachRow(rows, []any{&v, &seq}, func() error { seqs[v] = seq; return nil })
		return err
	})
	if err != nil {
		return events.AppendResult{}, fmt.Errorf("%w: %w (asking afterwards: %w)", events.ErrOutcomeUnknown, cause, err)
	}
	if _, ok := seqs[first.Version]; !ok {
		return events.AppendResult{}, cause // not committed
	}
	if len(seqs) != len(out) {
		return events.AppendResult{}, fmt.Errorf("append to %s: %d of %d events found after the commit: %w", stream, len(seqs), len(out), cause)
	}
	for i := range out {
		out[i].Seq = seqs[out[i].Version]
	}
	return events.AppendResult{Events: out}, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// querier is a transaction or the pool.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

const selectKey = `SELECT stream, batch, fingerprint, used_at FROM idempotency_keys WHERE scope = $1 AND name = $2`

// usedKey is a key as stored; found false when there is none.
type usedKey struct {
	found       bool
	stream      string
	batch       int64
	fingerprint []byte
	usedAt      time.Time
}

func (u *usedKey) scan(row pgx.Row) error {
	err := row.Scan(&u.stream, &u.batch, &u.fingerprint, &u.usedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	u.found = err == nil
	return err
}

// answer gives the events of the append a key that still counts answered;
// ok false when the key is unknown or expired, a *events.KeyReusedError
// when it came with another request.
func (u *usedKey) answer(ctx context.Context, q querier, k events.Key, now time.Time, ttl time.Duration) ([]events.Event, bool, error) {
	if !u.found || events.KeyExpired(u.usedAt, now, ttl) {
		return nil, false, nil // unknown, or expired: the key may be used again
	}
	// A key without a fingerprint (none are written here) answers any request.
	if u.fingerprint != nil && string(u.fingerprint) != string(k.Fingerprint) {
		return nil, false, &events.KeyReusedError{Name: k.Name}
	}
	evs, err := collect(q.Query(ctx, selectEvents+` WHERE stream = $1 AND batch = $2 ORDER BY version`, u.stream, u.batch))
	if err != nil {
		return nil, false, fmt.Errorf("read the first answer for key %q: %w", k.Name, err)
	}
	return evs, true, nil
}

func lookupKey(ctx context.Context, q querier, k events.Key, now time.Time, ttl time.Duration) ([]events.Event, bool, error) {
	var u usedKey
	if err := u.scan(q.QueryRow(ctx, selectKey, k.Scope, k.Name)); err != nil {
		return nil, false, fmt.Errorf("look up idempotency key %q: %w", k.Name, err)
	}
	return u.answer(ctx, q, k, now, ttl)
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
	evs, ok, err := lookupKey(ctx, s.pool, k, s.now(), s.keyTTL)
	return evs, ok, reach(err)
}

// nullable stores an empty key as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
