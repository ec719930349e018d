package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"tappbook/internal/events"
	"time"
)

// keyTimeLayout writes when a key was used in a fixed width, so that the
// stored times sort as text (an expiry is a plain comparison in SQL).
const keyTimeLayout = "2006-01-02T15:04:05.000Z"

func keyTime(t time.Time) string { return t.UTC().Format(keyTimeLayout) }

// usedKey is a key as stored: the append it answered and the request it
// came with (no fingerprint for keys kept from before fingerprints).
type usedKey struct {
	stream      string
	batch       int64
	fingerprint []byte
	usedAt      string
}

// queryRower is a connection or a statement bound to its SQL.
type queryRower interface {
	QueryRowContext(ctx context.Context, args ...any) *sql.Row
}

// lookupKey finds a key that still counts: it gives the stream and batch of
// the first append with it, ok false when the key is unknown or expired,
// and a *events.KeyReusedError when it came with another request.
func (s *Store) lookupKey(ctx context.Context, q queryRower, k events.Key) (usedKey, bool, error) {
	var u usedKey
	err := q.QueryRowContext(ctx, k.Scope, k.Name).Scan(&u.stream, &u.batch, &u.fingerprint, &u.usedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return usedKey{}, false, nil
	}
	if err != nil {
		return usedKey{}, false, fmt.Errorf("look up idempotency key %q: %w", k.Name, err)
	}
	if u.usedAt < keyTime(s.opt.Now().Add(-s.opt.KeyTTL)) {
		return usedKey{}, false, nil // expired: the key may be used again
	}
	// A key kept from before fingerprints answers as it always did.
	if u.fingerprint != nil && !bytes.Equal(u.fingerprint, k.Fingerprint) {
		return usedKey{}, false, &events.KeyReusedError{Name: k.Name}
	}
	return u, true, nil
}

// FindKey returns the events of the first append made with a key that
// still counts, if any; a *events.KeyReusedError when the key came with another
// request.
func (s *Store) FindKey(ctx context.Context, k events.Key) ([]events.Event, bool, error) {
	if k.Name == "" {
		return nil, false, nil
	}
	if err := k.Check(); err != nil {
		return nil, false, err
	}
	// Found in a file that is no longer at the path, the answer would
	// acknowledge what the next start may not find.
	if err := s.checkFiles(); err != nil {
		return nil, false, fmt.Errorf("find key %q: %w", k.Name, err)
	}
	u, ok, err := s.lookupKey(ctx, rowQuery{s.read, selectKey}, k)
	if !ok || err != nil {
		return nil, false, err
	}
	evs, err := readBatch(ctx, s.read, u.stream, u.batch)
	if err != nil {
		return nil, false, fmt.Errorf("find key %q: %w", k.Name, err)
	}
	return evs, true, nil
}

// rowQuery binds a query to a pool for lookupKey.
type rowQuery struct {
	db    *sql.DB
	query string
}

func (r rowQuery) QueryRowContext(ctx context.Context, args ...any) *sql.Row {
	return r.db.QueryRowContext(ctx, r.query, args...)
}

const (
	selectKey = `SELECT stream, batch, fingerprint, used_at FROM idempotency_keys WHERE scope = ? AND name = ?`
	// An expired key's row is taken over by its next use.
	upsertKey = `INSERT INTO idempotency_keys (scope, name, stream, batch, fingerprint, used_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (scope, name) DO UPDATE SET stream = excluded.stream, batch = excluded.batch,
		fingerprint = excluded.fingerprint, used_at = excluded.used_at`
	purgeKeys = `DELETE FROM idempotency_keys WHERE used_at < ?`
)
