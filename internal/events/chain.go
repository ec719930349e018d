package events

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ComputeHash is the hash an event must carry, given its PrevHash: it
// covers the previous event's hash and everything the event says, so that
// changing, dropping or reordering any event breaks the chain.
func (e Event) ComputeHash() string {
	h := sha256.New()
	for _, part := range []string{
		e.PrevHash, e.Stream, strconv.FormatInt(e.Version, 10), e.Type,
		strconv.Itoa(e.SchemaVersion), formatTime(e.RecordedAt), string(e.Data),
	} {
		// Length-prefixed, so that no two different events hash the same text.
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// VerifyReport says what Verify checked.
type VerifyReport struct {
	Events  int
	Streams int
	Problem *Problem // nil when the chain is whole
}

// Verify walks every stream's hash chain in order and names the first event
// that does not match: a changed payload, a missing or reordered event, or a
// stream head that does not point at its last event.
func (s *Store) Verify(ctx context.Context) (VerifyReport, error) {
	var rep VerifyReport
	heads := map[string]struct {
		version int64
		hash    string
	}{}
	rows, err := s.read.QueryContext(ctx, `SELECT stream, version, hash FROM streams`)
	if err != nil {
		return rep, fmt.Errorf("verify: read heads: %w", classify(s.path, err))
	}
	for rows.Next() {
		var st string
		var v int64
		var h string
		if err := rows.Scan(&st, &v, &h); err != nil {
			rows.Close()
			return rep, fmt.Errorf("verify: read heads: %w", err)
		}
		heads[st] = struct {
			version int64
			hash    string
		}{v, h}
	}
	rows.Close()

	type tail struct {
		version int64
		hash    string
		seq     int64
	}
	seen := map[string]tail{}
	fail := func(ev Event, reason string) error {
		if rep.Problem == nil {
			rep.Problem = &Problem{Seq: ev.Seq, Stream: ev.Stream, Version: ev.Version, Reason: reason}
		}
		return errStop
	}
	var last Event // the last event read whole, to name where a damaged file breaks off
	err = s.ReadFrom(ctx, 0, func(ev Event) error {
		rep.Events++
		last = ev
		prev := seen[ev.Stream]
		switch {
		case ev.Version != prev.version+1:
			return fail(ev, fmt.Sprintf("version %d follows version %d: an event is missing or out of order", ev.Version, prev.version))
		case ev.PrevHash != prev.hash:
			return fail(ev, "its previous hash does not match the event before it")
		case ev.ComputeHash() != ev.Hash:
			return fail(ev, "its content does not match its hash: it was changed after it was recorded")
		}
		seen[ev.Stream] = tail{ev.Version, ev.Hash, ev.Seq}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		var ce *CorruptError
		if errors.As(classify(s.path, err), &ce) {
			ce.Problems[0] = fmt.Sprintf("after event %d (stream %s, version %d), %s", last.Seq, last.Stream, last.Version, ce.Problems[0])
			return rep, ce
		}
		return rep, fmt.Errorf("verify: %w", err)
	}
	if rep.Problem != nil {
		return rep, nil
	}
	rep.Streams = len(seen)
	for st, h := range heads {
		t := seen[st]
		if t.version != h.version || t.hash != h.hash {
			rep.Problem = &Problem{Seq: t.seq, Stream: st, Version: t.version,
				Reason: fmt.Sprintf("the stream's head is version %d, but its last event is version %d: events were removed", h.version, t.version)}
			return rep, nil
		}
	}
	if len(heads) != len(seen) {
		for st, t := range seen {
			if _, ok := heads[st]; !ok {
				rep.Problem = &Problem{Seq: t.seq, Stream: st, Version: t.version, Reason: "the stream has no head: it was not written by tappbook"}
				return rep, nil
			}
		}
	}
	return rep, nil
}
