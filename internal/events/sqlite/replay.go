package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"tappbook/internal/events"
)

// Replay calls fn with each of a stream's events in order, as a fold reads
// them (see replayColumns), each with its hash. ev.Data is lent to fn: it is valid until fn
// returns, and fn copies what it keeps of it.
//
// It checks the stream's hash chain as it reads, and its head at the end:
// the first event that breaks them is a *events.ChainError, returned after fn has
// had every event before it (a fold then holds the history up to the last
// trustworthy event).
func (s *Store) Replay(ctx context.Context, stream string, fn func(events.Event) error) error {
	sc := replayScanner{names: map[string]string{}, stream: stream}
	// From the events table, not through stream_events: the name is
	// known, and the view joins it into every row.
	err := s.readChained(ctx, stream, `SELECT `+replayColumns+`, prev_hash, hash FROM events`, sc.scanChained, fn)
	if err != nil {
		var ce *events.ChainError
		if errors.As(err, &ce) {
			return err
		}
		return fmt.Errorf("replay %s: %w", stream, err)
	}
	return nil
}

// ReplayAll calls fn with every event of every stream in the order they
// were stored, as Replay reads them and with its batch (ev.Data is lent to fn), in one read
// transaction: a snapshot that appends made meanwhile do not change. last
// says the event is its stream's last one in that snapshot, so a fold can
// be handed on and dropped there. One pass in stored order reads the table
// front to back, instead of seeking every event through the stream index.
func (s *Store) ReplayAll(ctx context.Context, fn func(ev events.Event, last bool) error) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	defer tx.Rollback()
	// The events are read from their table, not through stream_events:
	// their streams' names and heads are looked up here by id, not joined
	// in by SQLite row by row. An event whose stream's row is missing has
	// the name "" there, and here.
	streams := map[int64]streamEnd{}
	sc := replayScanner{names: map[string]string{}}
	rows, err := tx.QueryContext(ctx, `SELECT id, stream, version FROM streams`)
	if err != nil {
		return fmt.Errorf("replay all: heads: %w", err)
	}
	for rows.Next() {
		var id int64
		var h streamEnd
		if err := rows.Scan(&id, &h.stream, &h.version); err != nil {
			rows.Close()
			return fmt.Errorf("replay all: heads: %w", err)
		}
		streams[id] = h
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("replay all: heads: %w", err)
	}
	// The driver watches a cancellable context at every row it steps;
	// checking it here every few thousand rows costs nothing.
	// Unlike Replay it reads each event's batch: verify decides every
	// command again, and a command is the events of one batch.
	rows, err = tx.QueryContext(context.WithoutCancel(ctx), `SELECT seq, stream_id, version, batch, type, schema_version, data, recorded_at FROM events ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	defer rows.Close()
	var id, batch int64
	for n := 1; rows.Next(); n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return fmt.Errorf("replay all: %w", ctx.Err())
		}
		if err := rows.Scan(&sc.seq, &id, &sc.version, &batch, &sc.typ, &sc.schemaVersion, &sc.data, &sc.at); err != nil {
			return fmt.Errorf("replay all: %w", err)
		}
		h := streams[id]
		ev, err := sc.event(h.stream)
		if err != nil {
			return fmt.Errorf("replay all: %w", err)
		}
		ev.Batch = batch
		if err := fn(ev, h.version == ev.Version); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	return nil
}

// streamEnd is a stream's name and last version, as ReplayAll looks them up.
type streamEnd struct {
	stream  string
	version int64
}

// replayColumns are what a fold reads of an event, and the sequence number
// for reports. The batch and key are left out (ReadStream has them): a fold
// never looks at them, and reading them was a third of the cost of a
// replay.
const replayColumns = `seq, version, type, schema_version, data, recorded_at`

// replayScanner reads replayed rows without allocating for what repeats: a
// replay reads the same few type names over and over, so each is
// made a string once, and the payload is lent to the caller rather than
// copied. Most of a replay's time went to allocating and collecting these.
type replayScanner struct {
	names          map[string]string // type names met so far
	stream         string            // Replay's
	typ, data, at  sql.RawBytes
	prevHash, hash sql.RawBytes // read by Replay only
	lastHash       string       // the last event's hash, Replay's
	seq, version   int64
	schemaVersion  int64 // int64: database/sql sets an int through reflection
}

// scanChained reads replayColumns and the hashes. An event's previous
// hash is the string made for the event before it when they match, as in
// a whole chain they do: one string a replayed event, not two.
func (sc *replayScanner) scanChained(rows *sql.Rows) (events.Event, error) {
	if err := rows.Scan(&sc.seq, &sc.version, &sc.typ, &sc.schemaVersion, &sc.data, &sc.at, &sc.prevHash, &sc.hash); err != nil {
		return events.Event{}, err
	}
	ev, err := sc.event(sc.stream)
	ev.PrevHash = sc.lastHash
	if string(sc.prevHash) != sc.lastHash {
		ev.PrevHash = string(sc.prevHash)
	}
	// The hash goes with the event: a fold keeps the last one as the head
	// that phones witness.
	ev.Hash = string(sc.hash)
	sc.lastHash = ev.Hash
	return ev, err
}

func (sc *replayScanner) event(stream string) (events.Event, error) {
	ev := events.Event{Seq: sc.seq, Stream: stream, Version: sc.version, Type: sc.name(sc.typ),
		SchemaVersion: int(sc.schemaVersion), Data: json.RawMessage(sc.data)}
	var err error
	ev.RecordedAt, err = events.ParseTime(ev.Seq, sc.at)
	return ev, err
}

func (sc *replayScanner) name(b []byte) string {
	if s, ok := sc.names[string(b)]; ok { // no allocation for the look-up
		return s
	}
	s := string(b)
	sc.names[s] = s
	return s
}
