package events

import (
	"fmt"
	"time"
)

// What another engine (internal/events/postgres) shares with this one, so
// that both hash, check and report the same way.

// Chain follows one stream's hash chain as its events are read, and names
// the first event that breaks it.
type Chain struct{ w walker }

// NewChain starts following a stream.
func NewChain(stream string) *Chain { return &Chain{w: walker{stream: stream}} }

// Step checks the next event read: the version after the last, its
// previous hash the last one's hash, its hash its own.
func (c *Chain) Step(e Event) *ChainError { return c.w.stepEvent(e) }

// StepRaw is Step for an event read as bytes (no copies): at is the
// recorded time as FormatTime writes it.
func (c *Chain) StepRaw(seq, version int64, typ []byte, schemaVersion int64, at, data, prevHash, hash []byte) *ChainError {
	return c.w.step(seq, version, typ, schemaVersion, at, data, prevHash, hash)
}

// End checks the stream's stored head (found false: none) against the
// last event read.
func (c *Chain) End(version int64, hash string, found bool) *ChainError {
	return c.w.end(Head{version, hash}, found)
}

// Version is the last event's version read whole, 0 before the first.
func (c *Chain) Version() int64 { return c.w.version }

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
func VerifyChains(heads map[string]Head, read func(fn func(Event) error) error) (rep VerifyReport, last Event, err error) {
	walkers := map[string]*walker{}
	fail := func(ce *ChainError) error {
		rep.Problem = &Problem{Seq: ce.Seq, Stream: ce.Stream, Version: ce.Version, Reason: ce.Why}
		return errStop
	}
	err = read(func(ev Event) error {
		rep.Events++
		last = ev
		w := walkers[ev.Stream]
		if w == nil {
			w = &walker{stream: ev.Stream}
			walkers[ev.Stream] = w
		}
		if ce := w.stepEvent(ev); ce != nil {
			return fail(ce)
		}
		return nil
	})
	if err != nil && err != errStop {
		return rep, last, err
	}
	if rep.Problem != nil {
		return rep, last, nil
	}
	rep.Streams = len(walkers)
	for st, h := range heads {
		w := walkers[st]
		if w == nil {
			w = &walker{stream: st}
		}
		if ce := w.end(h, true); ce != nil {
			fail(ce)
			return rep, last, nil
		}
	}
	for st, w := range walkers {
		if _, ok := heads[st]; !ok {
			fail(w.end(Head{}, false))
			return rep, last, nil
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
