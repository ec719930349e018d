// Package memory is the event store kept in memory: the contract of
// internal/events without a database, for tests that need a store but no
// files. It keeps the same guarantees as the engines on disk, proved by the
// same suite (internal/events/storetest), except that nothing survives the
// process.
package memory

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"sync"
	"time"

	"tappbook/internal/events"
)

// Options tune a store; the zero value is the defaults.
type Options struct {
	Now    func() time.Time // the clock; time.Now by default
	KeyTTL time.Duration    // how long a key counts; events.DefaultKeyTTL by default
}

// Data is what a store holds. Opening a store on the same Data again is a
// restart: what was appended before is there.
type Data struct {
	mu      sync.Mutex // guards everything below, and every append
	all     []events.Event
	streams map[string][]int // a stream's events, as indexes into all
	aliases map[string]string
	keys    map[scopedName]usedKey
}

type scopedName struct{ scope, name string }

type usedKey struct {
	stream      string
	batch       int64
	fingerprint []byte
	at          time.Time
}

// Store is an open store on a Data.
type Store struct {
	d      *Data
	now    func() time.Time
	keyTTL time.Duration
	closed bool // under d.mu
}

// Open opens a store on d (new Data for an empty one) and lets the expired
// keys go, as the engines on disk do at start.
func Open(d *Data, opt Options) *Store {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.KeyTTL <= 0 {
		opt.KeyTTL = events.DefaultKeyTTL
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.streams == nil {
		d.streams, d.aliases, d.keys = map[string][]int{}, map[string]string{}, map[scopedName]usedKey{}
	}
	for k, u := range d.keys {
		if events.KeyExpired(u.at, opt.Now(), opt.KeyTTL) {
			delete(d.keys, k)
		}
	}
	return &Store{d: d, now: opt.Now, keyTTL: opt.KeyTTL}
}

// New is a store on new, empty Data.
func New() *Store { return Open(&Data{}, Options{}) }

var _ events.Engine = (*Store)(nil)

// Append adds events to a stream; see events.Appender.
func (s *Store) Append(ctx context.Context, stream string, expectedVersion int64, key events.Key, evs ...events.NewEvent) (events.AppendResult, error) {
	return s.AppendAliased(ctx, stream, expectedVersion, key, nil, evs...)
}

// AppendAliased is Append that also gives the stream other names.
func (s *Store) AppendAliased(_ context.Context, stream string, expectedVersion int64, key events.Key, aliases []string, evs ...events.NewEvent) (events.AppendResult, error) {
	if err := key.Check(); err != nil {
		return events.AppendResult{}, err
	}
	payloads := make([][]byte, len(evs))
	for i, e := range evs {
		p, err := events.EncodePayload(e.Data)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append to %s: encode %s: %w", stream, e.Type, err)
		}
		payloads[i] = p
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.closed {
		return events.AppendResult{}, events.ErrClosed
	}
	if first, ok, err := s.lookup(key); err != nil || ok {
		return events.AppendResult{Events: first, Duplicate: ok}, err
	}
	if v := s.version(stream); v != expectedVersion {
		return events.AppendResult{}, &events.ConflictError{Stream: stream, Expected: expectedVersion, Actual: v}
	}
	for _, a := range aliases {
		if _, taken := s.d.aliases[a]; taken {
			return events.AppendResult{}, fmt.Errorf("append to %s: the alias %s is taken", stream, a)
		}
	}
	for _, a := range aliases {
		s.d.aliases[a] = stream
	}
	out := make([]events.Event, len(evs))
	at := events.StampTime(s.now(), s.lastTime(stream))
	for i, e := range evs {
		out[i] = s.add(events.Event{Stream: stream, Version: expectedVersion + int64(i) + 1, Batch: expectedVersion + 1,
			Type: e.Type, SchemaVersion: e.SchemaVersion, Data: payloads[i], RecordedAt: at})
	}
	if key.Name != "" {
		out[0].IdempotencyKey = key.Name
		s.d.all[len(s.d.all)-len(out)].IdempotencyKey = key.Name
		s.d.keys[scopedName{key.Scope, key.Name}] = usedKey{stream, expectedVersion + 1, key.Fingerprint, s.now()}
	}
	return events.AppendResult{Events: out}, nil
}

// lastTime is the time of the stream's last event (zero for none), the
// earliest its next events may be stamped with (events.StampTime).
func (s *Store) lastTime(stream string) time.Time {
	idx := s.d.streams[stream]
	if len(idx) == 0 {
		return time.Time{}
	}
	return s.d.all[idx[len(idx)-1]].RecordedAt
}

// add chains an event to its stream's last one and keeps it.
func (s *Store) add(e events.Event) events.Event {
	if idx := s.d.streams[e.Stream]; len(idx) > 0 {
		e.PrevHash = s.d.all[idx[len(idx)-1]].Hash
	}
	e.Seq = int64(len(s.d.all)) + 1
	e.Hash = e.ComputeHash()
	s.d.streams[e.Stream] = append(s.d.streams[e.Stream], len(s.d.all))
	s.d.all = append(s.d.all, e)
	return e
}

// lookup finds a key that still counts and the events of its first append.
func (s *Store) lookup(k events.Key) ([]events.Event, bool, error) {
	if k.Name == "" {
		return nil, false, nil
	}
	u, ok := s.d.keys[scopedName{k.Scope, k.Name}]
	if !ok || events.KeyExpired(u.at, s.now(), s.keyTTL) {
		return nil, false, nil
	}
	if !bytes.Equal(u.fingerprint, k.Fingerprint) {
		return nil, false, &events.KeyReusedError{Name: k.Name}
	}
	var out []events.Event
	for _, i := range s.d.streams[u.stream] {
		if e := s.d.all[i]; e.Batch == u.batch {
			out = append(out, e)
		}
	}
	return out, true, nil
}

// snapshot is every event kept now: events are only ever appended, so the
// slice up to its length is a moment that later appends do not change.
func (s *Store) snapshot() []events.Event {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return s.d.all[:len(s.d.all):len(s.d.all)]
}

func (s *Store) version(stream string) int64 { return int64(len(s.d.streams[stream])) }

// FindKey gives the events of the first append made with a key that still
// counts.
func (s *Store) FindKey(_ context.Context, k events.Key) ([]events.Event, bool, error) {
	if err := k.Check(); err != nil {
		return nil, false, err
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return s.lookup(k)
}

// ReadStream gives a stream's events, its chain checked.
func (s *Store) ReadStream(ctx context.Context, stream string) ([]events.Event, error) {
	var out []events.Event
	err := s.Replay(ctx, stream, func(e events.Event) error { out = append(out, e); return nil })
	return out, err
}

// StreamVersion is a stream's version (0 for none).
func (s *Store) StreamVersion(_ context.Context, stream string) (int64, error) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return s.version(stream), nil
}

// Replay hands a stream's events to fn, its chain checked.
func (s *Store) Replay(_ context.Context, stream string, fn func(events.Event) error) error {
	s.d.mu.Lock()
	evs := make([]events.Event, 0, len(s.d.streams[stream]))
	for _, i := range s.d.streams[stream] {
		evs = append(evs, s.d.all[i])
	}
	s.d.mu.Unlock()
	var head events.Head // the last event's: this engine keeps no head apart
	if len(evs) > 0 {
		head = events.Head{Version: evs[len(evs)-1].Version, Hash: evs[len(evs)-1].Hash}
	}
	return events.ReadChained(stream, head, len(evs) > 0, each(evs), fn)
}

// Resolve gives the stream an alias names, or "".
func (s *Store) Resolve(_ context.Context, alias string) (string, error) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return s.d.aliases[alias], nil
}

// ReplayAll hands every event to fn in stored order, from one snapshot.
func (s *Store) ReplayAll(_ context.Context, fn func(ev events.Event, last bool) error) error {
	all := s.snapshot()
	heads := map[string]int64{}
	for _, e := range all {
		heads[e.Stream] = e.Version
	}
	for _, e := range all {
		if err := fn(e, e.Version == heads[e.Stream]); err != nil {
			return err
		}
	}
	return nil
}

// Verify walks every stream's chain, appends waiting meanwhile (memory
// would otherwise append faster than the walk reads).
func (s *Store) Verify(_ context.Context) (events.VerifyReport, error) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	all := s.d.all
	heads := map[string]events.Head{}
	for _, e := range all {
		heads[e.Stream] = events.Head{Version: e.Version, Hash: e.Hash}
	}
	rep, _, err := events.VerifyChains(heads, each(all))
	return rep, err
}

// CheckIntegrity has no database to ask: memory is whole.
func (s *Store) CheckIntegrity(context.Context, bool) error { return nil }

// Import writes a stream exported from any engine, as it was.
func (s *Store) Import(_ context.Context, evs []events.Event, aliases []string) error {
	if len(evs) == 0 {
		return fmt.Errorf("import: no events")
	}
	stream := evs[0].Stream
	checked, err := events.CheckImport(evs)
	if err != nil {
		return fmt.Errorf("import %s: %w", stream, err)
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.closed {
		return events.ErrClosed
	}
	if s.version(stream) > 0 {
		return fmt.Errorf("import %s: the game is already in this database", stream)
	}
	for _, a := range aliases {
		if _, taken := s.d.aliases[a]; taken {
			return fmt.Errorf("import %s: the alias %s is taken", stream, a)
		}
	}
	for _, a := range aliases {
		s.d.aliases[a] = stream
	}
	for _, e := range checked {
		e.Seq = int64(len(s.d.all)) + 1
		s.d.streams[stream] = append(s.d.streams[stream], len(s.d.all))
		s.d.all = append(s.d.all, e)
	}
	return nil
}

// Health is always OK: memory has no disk to fill.
func (s *Store) Health() events.Health { return events.Health{OK: true} }

// Close refuses further appends; the Data stays for a reopen.
func (s *Store) Close() error {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.closed = true
	return nil
}

// each yields evs.
func each(evs []events.Event) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		for _, e := range evs {
			if !yield(e, nil) {
				return
			}
		}
	}
}
