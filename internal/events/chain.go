package events

import (
	"bytes"
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
	sum := w.sum([]byte(e.PrevHash), []byte(e.Stream), e.Version, []byte(e.Type), int64(e.SchemaVersion),
		[]byte(formatTime(e.RecordedAt)), e.Data)
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
	// streamBytes is stream, made bytes once for hashing.
	streamBytes []byte
}

// sum is the hex SHA-256 of the event's parts, each length-prefixed
// ("len:part;") so that no two different events hash the same text. at is
// the time as formatTime writes it (and the store keeps it).
func (w *walker) sum(prevHash, stream []byte, version int64, typ []byte, schemaVersion int64, at, data []byte) [64]byte {
	b := w.buf[:0]
	var num [20]byte
	for _, part := range [][]byte{prevHash, stream, strconv.AppendInt(num[:0], version, 10), typ} {
		b = appendPart(b, part)
	}
	b = appendPart(b, strconv.AppendInt(num[:0], schemaVersion, 10))
	b = appendPart(b, at)
	b = appendPart(b, data)
	w.buf = b
	var out [64]byte
	digest := sha256.Sum256(b)
	hex.Encode(out[:], digest[:])
	return out
}

func appendPart(b, part []byte) []byte {
	b = strconv.AppendInt(b, int64(len(part)), 10)
	b = append(b, ':')
	b = append(b, part...)
	return append(b, ';')
}

// step checks the next event read from the stream: the version after the
// last, its previous hash the last one's hash, its hash its own.
func (w *walker) step(seq, version int64, typ []byte, schemaVersion int64, at, data, prevHash, hash []byte) *ChainError {
	var prev []byte
	if w.version > 0 {
		prev = w.hash[:]
	}
	switch {
	case version != w.version+1:
		return &ChainError{Stream: w.stream, Version: version, Seq: seq,
			Why: fmt.Sprintf("version %d follows version %d: an event is missing or out of order", version, w.version)}
	case !bytes.Equal(prevHash, prev):
		return &ChainError{Stream: w.stream, Version: version, Seq: seq, Why: "its previous hash does not match the event before it"}
	}
	if w.streamBytes == nil {
		w.streamBytes = []byte(w.stream)
	}
	sum := w.sum(prevHash, w.streamBytes, version, typ, schemaVersion, at, data)
	if !bytes.Equal(sum[:], hash) {
		return &ChainError{Stream: w.stream, Version: version, Seq: seq, Why: "its content does not match its hash: it was changed after it was recorded"}
	}
	w.version, w.seq, w.hash = version, seq, sum
	return nil
}

// stepEvent is step for an event read whole.
func (w *walker) stepEvent(e Event) *ChainError {
	return w.step(e.Seq, e.Version, []byte(e.Type), int64(e.SchemaVersion), []byte(formatTime(e.RecordedAt)), e.Data, []byte(e.PrevHash), []byte(e.Hash))
}

// end checks the stream's stored head against its last event: a head
// ahead of the events means events were removed from the end.
func (w *walker) end(h Head, found bool) *ChainError {
	switch {
	case !found && w.version == 0:
		return nil // no such stream
	case !found:
		return &ChainError{Stream: w.stream, Version: w.version, Seq: w.seq, Why: "the stream has no head: it was not written by tappbook"}
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
