package events

import "context"

// The store's contract, in the small pieces its users need. Every engine
// (internal/events/sqlite: one file, one server; internal/events/postgres:
// one database, several servers; internal/events/memory: tests) keeps the
// same guarantees, proved by one suite (internal/events/storetest): an
// append is durable before it is answered; among appends racing at one
// expected version exactly one wins and the others get a *ConflictError; a
// key makes an append idempotent, bound to its request's fingerprint and
// expiring; every stream is a hash chain of the same hash (ComputeHash), so
// an export from one engine imports into another; and reading a stream
// checks its chain (*ChainError).

// Appender records commands' events.
type Appender interface {
	// Append adds events to a stream, all or none, at expectedVersion (0
	// for a new stream). A key already used for the same request gives the
	// first answer again (Duplicate), for another request a
	// *KeyReusedError.
	Append(ctx context.Context, stream string, expectedVersion int64, key Key, evs ...NewEvent) (AppendResult, error)
	// AppendAliased is Append that also gives the stream other names.
	AppendAliased(ctx context.Context, stream string, expectedVersion int64, key Key, aliases []string, evs ...NewEvent) (AppendResult, error)
	// FindKey gives the events of the first append made with a key that
	// still counts.
	FindKey(ctx context.Context, k Key) ([]Event, bool, error)
}

// StreamReader reads one stream at a time, its chain checked.
type StreamReader interface {
	// ReadStream gives a stream's events (none for an unknown stream).
	ReadStream(ctx context.Context, stream string) ([]Event, error)
	// StreamVersion is a stream's version as stored (0 for none).
	StreamVersion(ctx context.Context, stream string) (int64, error)
	// Replay hands a stream's events to fn (ev.Data lent).
	Replay(ctx context.Context, stream string, fn func(Event) error) error
	// Resolve gives the stream an alias names, or "".
	Resolve(ctx context.Context, alias string) (string, error)
}

// Auditor walks the whole store, for verify.
type Auditor interface {
	// ReplayAll hands every event of every stream to fn, from one snapshot
	// (ev.Data lent), each with its batch; last marks a stream's last event.
	ReplayAll(ctx context.Context, fn func(ev Event, last bool) error) error
	// Verify walks every stream's chain and names the first event wrong.
	Verify(ctx context.Context) (VerifyReport, error)
	// CheckIntegrity lets the database check itself as far as it can.
	CheckIntegrity(ctx context.Context, full bool) error
}

// Importer writes a stream exported from any engine, as it was.
type Importer interface {
	Import(ctx context.Context, evs []Event, aliases []string) error
}

// Engine is the whole store as a server runs it.
type Engine interface {
	Appender
	StreamReader
	Auditor
	Importer
	// Health says whether the store can write now; it only reads state.
	Health() Health
	// Close waits for the appends under way and closes the store.
	Close() error
}

// Watcher is an engine that several servers share: it tells each of them
// of the appends every server makes, its own included, so that what a
// server holds in memory follows and its live pages are told.
type Watcher interface {
	// Watch calls fn with a stream and its new version after appends
	// anywhere, until stop is called or the store is closed. A version of 0
	// means the notices may have been interrupted: any stream may have
	// changed.
	Watch(fn func(stream string, version int64)) (stop func())
}

// Pinger is an engine on a database server, which can be out of reach
// while nothing is written: /healthz asks it.
type Pinger interface {
	// Ping says whether the database answers now.
	Ping(ctx context.Context) error
}
