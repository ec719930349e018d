package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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
	res, err := s.appendConn(ctx, stream, expectedVersion, key, aliases, evs, payloads)
	if lost, ok := errors.AsType[*commitLost](err); ok {
		// Asked once the lost connection is given back to the pool: with
		// every other connection taken, the question needs that one.
		res, err = s.settleCommit(stream, lost.out, lost.cause)
	}
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

// appendConn runs the append's transaction on a connection of its own, in
// two round trips: the first (BEGIN, the locks, the key and the head,
// pipelined) learns where the stream stands, the second writes and commits.
// Each statement of the first reads what was committed before it ran, so
// the head is read after the lock is held. A refusal writes nothing and is
// rolled back.
func (s *Store) appendConn(ctx context.Context, stream string, expectedVersion int64, key events.Key,
	aliases []string, evs []events.NewEvent, payloads []string) (events.AppendResult, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return events.AppendResult{}, err
	}
	// A connection left inside a transaction (an error half way) is not
	// reused: the pool closes it on release.
	defer conn.Release()
	committed := false
	defer func() {
		if !committed {
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
	}()
	var used usedKey
	var hv, lseq, lv *int64
	var hh, lh *string
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	if key.Name != "" {
		b.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockKey, key.Scope+"\n"+key.Name)
		b.Queue(selectKey, key.Scope, key.Name).QueryRow(func(row pgx.Row) error { return used.scan(row) })
	}
	b.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockStream, stream)
	b.Queue(selectHead, stream).QueryRow(func(row pgx.Row) error { return row.Scan(&hv, &hh, &lseq, &lv, &lh) })
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return events.AppendResult{}, err
	}
	if key.Name != "" {
		first, ok, err := used.answer(ctx, conn, key, s.now(), s.keyTTL)
		if err != nil || ok {
			return events.AppendResult{Events: first, Duplicate: ok}, err
		}
	}
	h := events.Head{Version: deref(hv), Hash: deref(hh)}
	if ce := events.CheckHead(stream, h, hv != nil, deref(lseq), deref(lv), deref(lh)); ce != nil {
		return events.AppendResult{}, ce
	}
	version, prevHash := h.Version, h.Hash
	if version != expectedVersion {
		return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: expectedVersion, Actual: version}
	}
	now := s.now()
	at := now.UTC().Truncate(time.Microsecond)
	batch := version + 1
	out := make([]events.Event, len(evs))
	b = &pgx.Batch{}
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
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Severity == "ERROR" && (!outOfReach(err) || pe.Code == readOnlyTransaction) {
			return events.AppendResult{}, err // a statement refused: rolled back
		}
		// A FATAL (the session ended: shutdown, terminated) can come
		// after COMMIT ran, in place of its answer.
		// The commit may have been sent and the connection lost before
		// its answer: the caller asks the database, once this connection
		// is given back, whether these events are there.
		// Not reused: closed, its goodbye bounded (the socket may hang).
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn.Conn().Close(closeCtx)
		cancel()
		return events.AppendResult{}, &commitLost{out: out, cause: err}
	}
	committed = true
	// The sequence numbers were scanned into out by the batch.
	return events.AppendResult{Events: out}, nil
}

// commitLost is an append whose commit was sent on a connection that then
// failed before its answer came: settleCommit learns whether it was made.
type commitLost struct {
	out   []events.Event // the events as they were sent
	cause error
}

func (e *commitLost) Error() string { return e.cause.Error() }
func (e *commitLost) Unwrap() error { return e.cause }

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

// selectHead reads a stream's head and its last event in one statement,
// each NULL when there is none.
const selectHead = `SELECT s.version, s.hash, e.seq, e.version, e.hash
	FROM (SELECT 1) one
	LEFT JOIN streams s ON s.stream = $1
	LEFT JOIN LATERAL (SELECT seq, version, hash FROM events WHERE stream = $1 ORDER BY version DESC LIMIT 1) e ON true`

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
