package events

import (
	"fmt"
	"iter"
	"time"
)

// What the engines share, so that each hashes, checks and reports the
// same way.

// ReadChained hands fn each event rows yields (one stream's, in version
// order) once it is checked against the stream's hash chain, then checks
// the stream's head, read with the events (found false: it has none),
// against the last: every engine's read of a stream. The first event that
// breaks them is a *ChainError, returned after fn has had every event
// before it; an error of rows or fn is returned as it is.
func ReadChained(stream string, head Head, found bool, rows iter.Seq2[Event, error], fn func(Event) error) error {
	w := walker{stream: stream}
	for ev, err := range rows {
		if err != nil {
			return err
		}
		if ce := w.step(ev); ce != nil {
			return ce
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	if ce := w.end(head, found); ce != nil {
		return ce
	}
	return nil
}

// EncodePayload is an event's data as the stores keep it: written by its
// own AppendJSON when it has one (a recorded deal), else by encoding/json.
func EncodePayload(data any) ([]byte, error) { return encode(data) }

// FormatTime writes a recorded time as the hash covers it and the stores
// keep it: RFC 3339, UTC, up to nanoseconds.
func FormatTime(t time.Time) string { return formatTime(t) }

// ParseTime reads a recorded time as FormatTime writes it, for event seq.
func ParseTime(seq int64, at []byte) (time.Time, error) {
	if t, ok := parseStoredTime(at); ok {
		return t, nil
	}
	return parseTime(seq, string(at))
}

// Head is where a stream stands: its last version and hash.
type Head struct {
	Version int64
	Hash    string
}

// VerifyChains walks the events read (in stored order) against the heads
// stored: the first event that breaks its stream's chain, or a head that
// does not point at its stream's last event, is the report's Problem.
// last is the last event read whole, to say where a read that failed
// broke off.
func VerifyChains(heads map[string]Head, read iter.Seq2[Event, error]) (rep VerifyReport, last Event, err error) {
	walkers := map[string]*walker{}
	fail := func(ce *ChainError) (VerifyReport, Event, error) {
		rep.Problem = &Problem{Seq: ce.Seq, Stream: ce.Stream, Version: ce.Version, Reason: ce.Why}
		return rep, last, nil
	}
	for ev, err := range read {
		if err != nil {
			return rep, last, err
		}
		rep.Events++
		last = ev
		w := walkers[ev.Stream]
		if w == nil {
			w = &walker{stream: ev.Stream}
			walkers[ev.Stream] = w
		}
		if ce := w.step(ev); ce != nil {
			return fail(ce)
		}
	}
	rep.Streams = len(walkers)
	for st, h := range heads {
		w := walkers[st]
		if w == nil {
			w = &walker{stream: st}
		}
		if ce := w.end(h, true); ce != nil {
			return fail(ce)
		}
	}
	for st, w := range walkers {
		if _, ok := heads[st]; !ok {
			return fail(w.end(Head{}, false))
		}
	}
	return rep, last, nil
}

// CheckImport checks a stream exported from a store before it is written:
// versions 1, 2, … of one stream, each event carrying the hash it must
// have along the chain. It gives the events as they are to be stored
// (previous hashes filled in, times in UTC).
func CheckImport(evs []Event) ([]Event, error) {
	if len(evs) == 0 {
		return nil, fmt.Errorf("no events")
	}
	stream := evs[0].Stream
	out := make([]Event, len(evs))
	prev := ""
	for i, e := range evs {
		want := e.Hash
		e.PrevHash, e.RecordedAt = prev, e.RecordedAt.UTC()
		if e.Stream != stream || e.Version != int64(i+1) {
			return nil, fmt.Errorf("event %d is version %d of %s", i+1, e.Version, e.Stream)
		}
		if want == "" {
			return nil, fmt.Errorf("event %d has no hash: only a whole hash chain is imported", e.Version)
		}
		if e.Hash = e.ComputeHash(); e.Hash != want {
			return nil, fmt.Errorf("event %d does not match its hash: the file was changed after export", e.Version)
		}
		e.IdempotencyKey = ""
		prev = e.Hash
		out[i] = e
	}
	return out, nil
}

// Check refuses a key an append or a look-up must not take: a name not of
// the allowed form (*KeyError), a scope too long, a name without a
// fingerprint.
func (k Key) Check() error { return k.check() }

// CheckHead checks a stream's stored head (found false: none) against its
// last event as stored (lastVersion 0: none), before an append: a head
// that does not point at the last event is a *ChainError, and the stream
// is not appended to.
func CheckHead(stream string, h Head, found bool, lastSeq, lastVersion int64, lastHash string) *ChainError {
	w := walker{stream: stream, seq: lastSeq, version: lastVersion}
	copy(w.hash[:], lastHash)
	return w.end(h, found)
}

// KeyExpired says whether a key used at usedAt no longer counts at now.
func KeyExpired(usedAt, now time.Time, ttl time.Duration) bool {
	return usedAt.Truncate(time.Millisecond).Before(now.Add(-ttl).Truncate(time.Millisecond))
}
