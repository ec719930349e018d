package events

import (
	"errors"
	"fmt"
	"strings"
)

// ConflictError is a stale expected version: someone appended to the stream
// since the caller read it.
type ConflictError struct {
	Stream           string
	Expected, Actual int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("stream %s is at version %d, not the expected %d", e.Stream, e.Actual, e.Expected)
}

// ErrClosed is an append to a closed store.
var ErrClosed = errors.New("the event store is closed")

// ErrOutcomeUnknown is an append whose commit was sent to a database server
// that then did not answer, and could not be asked afterwards whether it
// committed. Sending it again with the same idempotency key is safe.
var ErrOutcomeUnknown = errors.New("the database did not say whether the write was saved")

// ErrUnavailable is a read or write the database server did not answer (a
// refused or lost connection, a server shutting down, no answer in time):
// nothing was written, and it may pass by itself. Only a store on a
// database server gives it; an unknown outcome is ErrOutcomeUnknown.
var ErrUnavailable = errors.New("the database is out of reach")

// Problem is the first event Verify found wrong.
type Problem struct {
	Seq     int64
	Stream  string
	Version int64
	Reason  string
}

func (p *Problem) Error() string {
	return chainSentence(p.Seq, p.Stream, p.Version, p.Reason)
}

// chainSentence says what is wrong with a stream's chain, at the event at
// fault; a stream with no event left (seq 0) is named alone, as "event 0,
// version 0" would name an event that never was.
func chainSentence(seq int64, stream string, version int64, why string) string {
	if seq == 0 {
		return fmt.Sprintf("stream %s: %s", stream, why)
	}
	return fmt.Sprintf("event %d (stream %s, version %d): %s", seq, stream, version, why)
}

// IsConflict reports whether err is a stale expected version.
func IsConflict(err error) bool {
	var ce *ConflictError
	return errors.As(err, &ce)
}

// KeyReusedError is an idempotency key used again, while it counts, for
// another request than the one it first came with.
type KeyReusedError struct {
	Name string
}

func (e *KeyReusedError) Error() string {
	return fmt.Sprintf("idempotency key %q was already used for a different request", e.Name)
}

// KeyError is an idempotency key that is not 1–255 printable ASCII
// characters.
type KeyError struct {
	Name string
}

func (e *KeyError) Error() string {
	return fmt.Sprintf("an idempotency key must be 1 to %d printable ASCII characters; this one has %d bytes", MaxKeyLen, len(e.Name))
}

// ChainError is the first event of a stream that breaks its hash chain,
// found as the stream is read (Replay, ReadStream) or appended to: a
// changed, missing or reordered event, or a head that does not point at
// the last event. The stream's history can no longer be trusted past it;
// it is never appended to.
type ChainError struct {
	Stream  string
	Version int64  // the event at fault (for a head, the last event read)
	Seq     int64  // its place in the whole store
	Why     string // what is wrong, in a sentence
}

func (e *ChainError) Error() string {
	return chainSentence(e.Seq, e.Stream, e.Version, e.Why)
}

// Refusal reports whether an append was refused before it wrote anything,
// so that the appends sharing its commit go on.
func Refusal(err error) bool {
	var kr *KeyReusedError
	var ce *ChainError
	return IsConflict(err) || errors.As(err, &kr) || errors.As(err, &ce)
}

// NotStoreError is a file that is not a tappbook database: not SQLite at
// all, or without the event store's tables.
type NotStoreError struct {
	Path string
	Why  string
}

func (e *NotStoreError) Error() string {
	return fmt.Sprintf("%s is not a tappbook database: %s", e.Path, e.Why)
}

// CorruptError is a database file SQLite finds damaged: what its
// integrity check, or a read, reported (SQLite names the pages at fault).
type CorruptError struct {
	Path     string
	Problems []string
	Hint     string // what else may be at fault, and what to do
}

func (e *CorruptError) Error() string {
	const shown = 3
	msg := strings.Join(e.Problems[:min(len(e.Problems), shown)], "; ")
	if n := len(e.Problems) - shown; n > 0 {
		msg += fmt.Sprintf("; and %d more", n)
	}
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return fmt.Sprintf("the database %s is damaged: %s", e.Path, msg)
}

// NewerSchemaError is a database at a schema version newer than this
// binary knows: a newer tappbook wrote it (a downgrade). It is not opened
// for writing.
type NewerSchemaError struct {
	Where        string // the file, or the database's redacted URL
	Found, Known int64
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("%s is at schema version %d, and this tappbook knows versions up to %d: a newer tappbook wrote it. Run that release or a newer one, or start this one on a backup made before the upgrade", e.Where, e.Found, e.Known)
}
