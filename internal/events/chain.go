package events

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
)

// ComputeHash is the hash an event must carry, given its PrevHash: it
// covers the previous event's hash and everything the event says, so that
// changing, dropping or reordering any event breaks the chain.
func (e Event) ComputeHash() string {
	// One buffer of the size sum needs (each part, its length and two
	// marks), not one grown part by part: every append hashes.
	w := walker{buf: make([]byte, 0, len(e.PrevHash)+len(e.Stream)+len(e.Type)+len(e.Data)+32+7*24)}
	sum := w.sum(e.PrevHash, e.Stream, e.Version, e.Type, int64(e.SchemaVersion), e.RecordedAt, e.Data)
	return string(sum[:])
}

// walker follows one stream's hash chain as its events are read, and says
// which event first breaks it.
type walker struct {
	stream  string
	version int64    // the last event's, 0 before the first
	seq     int64    // the last event's
	hash    [64]byte // the last event's hash, in hex
	buf     []byte   // reused for hashing
}

// sum is the hex SHA-256 of the event's parts, each length-prefixed
// ("len:part;") so that no two different events hash the same text; the
// time as formatTime writes it (and the store keeps it).
func (w *walker) sum(prevHash, stream string, version int64, typ string, schemaVersion int64, at time.Time, data []byte) [64]byte {
	b := w.buf[:0]
	var num [20]byte
	b = appendPart(b, prevHash)
	b = appendPart(b, stream)
	b = appendPart(b, strconv.AppendInt(num[:0], version, 10))
	b = appendPart(b, typ)
	b = appendPart(b, strconv.AppendInt(num[:0], schemaVersion, 10))
	var stamp [40]byte
	b = appendPart(b, at.UTC().AppendFormat(stamp[:0], time.RFC3339Nano))
	b = appendPart(b, data)
	w.buf = b
	var out [64]byte
	digest := sha256.Sum256(b)
	hex.Encode(out[:], digest[:])
	return out
}

func appendPart[P string | []byte](b []byte, part P) []byte {
	b = strconv.AppendInt(b, int64(len(part)), 10)
	b = append(b, ':')
	b = append(b, part...)
	return append(b, ';')
}

// step checks the next event read from the stream: the version after the
// last, its previous hash the last one's hash, its hash its own.
func (w *walker) step(e Event) *ChainError {
	switch {
	case e.Version != w.version+1:
		return &ChainError{Stream: w.stream, Version: e.Version, Seq: e.Seq,
			Why: fmt.Sprintf("version %d follows version %d: an event is missing or out of order", e.Version, w.version)}
	case w.version == 0 && e.PrevHash != "", w.version > 0 && e.PrevHash != string(w.hash[:]): // compared, not copied
		return &ChainError{Stream: w.stream, Version: e.Version, Seq: e.Seq, Why: "its previous hash does not match the event before it"}
	}
	sum := w.sum(e.PrevHash, w.stream, e.Version, e.Type, int64(e.SchemaVersion), e.RecordedAt, e.Data)
	if string(sum[:]) != e.Hash {
		return &ChainError{Stream: w.stream, Version: e.Version, Seq: e.Seq, Why: "its content does not match its hash: it was changed after it was recorded"}
	}
	w.version, w.seq, w.hash = e.Version, e.Seq, sum
	return nil
}

// end checks the stream's stored head against its last event: a head
// ahead of the events means events were removed from the end.
func (w *walker) end(h Head, found bool) *ChainError {
	switch {
	case !found && w.version == 0:
		return nil // no such stream
	case !found:
		return &ChainError{Stream: w.stream, Version: w.version, Seq: w.seq, Why: "the stream has no head: it was not written by tappbook"}
	case w.version == 0:
		// No event of the stream is left to name: the sentence names the
		// stream alone (Problem.Error), and says it is gone whole.
		return &ChainError{Stream: w.stream,
			Why: fmt.Sprintf("its head is at version %d, but none of its events is left: all of them were removed", h.Version)}
	case h.Version != w.version:
		return &ChainError{Stream: w.stream, Version: w.version, Seq: w.seq,
			Why: fmt.Sprintf("the stream's head is version %d, but its last event is version %d: events were removed", h.Version, w.version)}
	case h.Hash != string(w.hash[:]):
		return &ChainError{Stream: w.stream, Version: w.version, Seq: w.seq, Why: "the stream's head names another hash than its last event's: the head or the event was changed"}
	}
	return nil
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// VerifyReport says what Verify checked.
type VerifyReport struct {
	Events  int
	Streams int
	Problem *Problem // nil when the chain is whole
}
