package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"tappbook/internal/events"
)

// The batch's writes set-based: one statement per table, whatever the
// batch's size, sent with the commit in one round trip. Each statement
// carries every append's rows as arrays (unnest), so PostgreSQL parses,
// plans and executes a handful of statements per batch, not six per
// append; the 64-table bench was bound by those statements.

const insertEvents = `INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
	SELECT st, v, b, t, sv, d::json, at, k, ph, h
	FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::integer[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
		AS u(st, v, b, t, sv, d, at, k, ph, h)
	RETURNING stream, version, seq`

// A stream's head is inserted with its first append and updated after:
// the batch read each head under the stream's lock, so it knows which
// exist. (An upsert would also lock each row it updates, one more WAL
// record per append.)
const insertHeads = `INSERT INTO streams (stream, version, hash)
	SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])`

const updateHeads = `UPDATE streams s SET version = u.v, hash = u.h
	FROM unnest($1::text[], $2::bigint[], $3::text[]) AS u(st, v, h) WHERE s.stream = u.st`

const upsertKeys = `INSERT INTO idempotency_keys (scope, name, stream, batch, fingerprint, used_at)
	SELECT sc, n, st, b, f, $6 FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bytea[]) AS u(sc, n, st, b, f)
	ON CONFLICT (scope, name) DO UPDATE SET stream = excluded.stream, batch = excluded.batch,
	fingerprint = excluded.fingerprint, used_at = excluded.used_at`

// lockAll takes the advisory locks of a class on the keys, in the array's
// order (a function scan's).
const lockAll = `SELECT count(pg_advisory_xact_lock($1, hashtext(k))) FROM unnest($2::text[]) AS u(k)`

const selectKeys = `SELECT sc, n, k.stream, k.batch, k.fingerprint, k.used_at
	FROM unnest($1::text[], $2::text[]) AS u(sc, n) JOIN idempotency_keys k ON k.scope = u.sc AND k.name = u.n`

// selectHeads reads each stream's head and last event, NULLs when none.
const selectHeads = `SELECT u.st, s.version, s.hash, e.seq, e.version, e.hash, e.recorded_at
	FROM unnest($1::text[]) AS u(st)
	LEFT JOIN streams s ON s.stream = u.st
	LEFT JOIN LATERAL (SELECT seq, version, hash, recorded_at FROM events WHERE stream = u.st ORDER BY version DESC LIMIT 1) e ON true`

const notifyAll = `SELECT count(pg_notify($1, p)) FROM unnest($2::text[]) AS u(p)`

// eventRows are the batch's events as columns.
type eventRows struct {
	stream, typ, data, at, prev, hash []string
	key                               []*string
	version, batch                    []int64
	schema                            []int32
}

func (c *eventRows) add(ev *events.Event, payload string) {
	c.stream = append(c.stream, ev.Stream)
	c.version = append(c.version, ev.Version)
	c.batch = append(c.batch, ev.Batch)
	c.typ = append(c.typ, ev.Type)
	c.schema = append(c.schema, int32(ev.SchemaVersion))
	c.data = append(c.data, payload)
	c.at = append(c.at, events.FormatTime(ev.RecordedAt))
	var k *string
	if ev.IdempotencyKey != "" {
		k = &ev.IdempotencyKey
	}
	c.key = append(c.key, k)
	c.prev = append(c.prev, ev.PrevHash)
	c.hash = append(c.hash, ev.Hash)
}

// headRows are streams' new heads as columns.
type headRows struct {
	stream, hash []string
	version      []int64
}

func (h *headRows) add(last *events.Event) {
	h.stream, h.version, h.hash = append(h.stream, last.Stream), append(h.version, last.Version), append(h.hash, last.Hash)
}

// writeAll sends the writes of every append that may and the commit.
func (s *Store) writeAll(ctx context.Context, conn *pgxpool.Conn, batch []*appendReq) error {
	var ev eventRows
	var heads, newHeads headRows
	var keys struct {
		scope, name, stream []string
		batch               []int64
		fingerprint         [][]byte
	}
	var notices []string
	b := &pgx.Batch{}
	byVersion := map[string]map[int64]*events.Event{}
	for _, r := range batch {
		if !r.write {
			continue
		}
		mine := make(map[int64]*events.Event, len(r.out))
		byVersion[r.stream] = mine
		for i := range r.out {
			ev.add(&r.out[i], r.payloads[i])
			mine[r.out[i].Version] = &r.out[i]
		}
		last := r.out[len(r.out)-1]
		if r.newStream {
			newHeads.add(&last)
		} else {
			heads.add(&last)
		}
		for _, a := range r.aliases {
			b.Queue(`INSERT INTO stream_aliases (alias, stream) VALUES ($1, $2)`, a, r.stream)
		}
		if r.key.Name != "" {
			keys.scope, keys.name, keys.stream = append(keys.scope, r.key.Scope), append(keys.name, r.key.Name), append(keys.stream, r.stream)
			keys.batch, keys.fingerprint = append(keys.batch, last.Batch), append(keys.fingerprint, r.key.Fingerprint)
		}
		notices = append(notices, strconv.FormatInt(last.Version, 10)+" "+r.stream)
	}
	if len(notices) == 0 {
		b.Queue("COMMIT")
		return conn.SendBatch(ctx, b).Close()
	}
	b.Queue(insertEvents, ev.stream, ev.version, ev.batch, ev.typ, ev.schema, ev.data, ev.at, ev.key, ev.prev, ev.hash).Query(func(rows pgx.Rows) error {
		var st string
		var v, seq int64
		n := 0
		_, err := pgx.ForEachRow(rows, []any{&st, &v, &seq}, func() error {
			e := byVersion[st][v]
			if e == nil {
				return fmt.Errorf("insert returned %s version %d, not written by this batch", st, v)
			}
			e.Seq, n = seq, n+1
			return nil
		})
		if err == nil && n != len(ev.stream) {
			err = fmt.Errorf("insert returned %d of %d events", n, len(ev.stream))
		}
		return err
	})
	if len(heads.stream) > 0 {
		b.Queue(updateHeads, heads.stream, heads.version, heads.hash)
	}
	if len(newHeads.stream) > 0 {
		b.Queue(insertHeads, newHeads.stream, newHeads.version, newHeads.hash)
	}
	if len(keys.name) > 0 {
		b.Queue(upsertKeys, keys.scope, keys.name, keys.stream, keys.batch, keys.fingerprint, s.now())
	}
	b.Queue(notifyAll, channel, notices)
	b.Queue("COMMIT")
	return conn.SendBatch(ctx, b).Close()
}
