// Package events is tappbook's append-only event store on SQLite: every fact
// recorded at the table is one immutable event in a stream (one game), in a
// hash chain that Verify can walk.
//
// One concern a file: store.go opens the database (options, settings,
// migrations, Close); commit.go is group commit (the one write connection,
// its queue and transactions); append.go is an append inside a commit;
// read.go and replay.go read events back (replay is the fold's fast path);
// chain.go is the hash chain and Verify; import.go and backup.go copy
// streams and databases in and out; errors.go holds the errors callers test.
package events

import (
	"encoding/json"
	"time"
)

// Event is one stored fact.
type Event struct {
	Seq            int64           // global order
	Stream         string          // the game
	Version        int64           // 1, 2, … within the stream
	Batch          int64           // version of the first event of the command that appended it
	Type           string          // stable type name, e.g. "hand.recorded"
	SchemaVersion  int             // version of the payload's shape
	Data           json.RawMessage // the payload; amounts in it are decimal strings
	RecordedAt     time.Time
	IdempotencyKey string // on the first event of a batch, when the command had one
	PrevHash       string
	Hash           string
}

// NewEvent is an event to append.
type NewEvent struct {
	Type          string
	SchemaVersion int
	Data          any // marshalled to JSON, or written by its AppendJSON(b []byte) ([]byte, error)
}

// AppendResult is what an append wrote, or, for a repeated idempotency key,
// what the first append with that key wrote.
type AppendResult struct {
	Events    []Event
	Duplicate bool
}
