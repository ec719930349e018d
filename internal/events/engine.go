package events

import "context"

// Engine is the event store as tappbook uses it, whatever database keeps
// it: this package's SQLite Store (one file, one server) or PostgreSQL
// (internal/events/postgres: one database, several servers). Both keep
// the same guarantees, proved by one test suite (internal/events/storetest):
// an append is durable before it is answered; among appends racing at one
// expected version exactly one wins and the others get a *ConflictError;
// a key makes an append idempotent, bound to its request's fingerprint and
// expiring; every stream is a hash chain of the same hash (ComputeHash), so
// an export from one engine imports into the other; the database itself
// refuses to change or delete an event; and reading a stream checks its
// chain (*ChainError).
type Engine interface {
	// Append adds events to a stream, all or none, at expectedVersion
	// (0 for a new stream); see Store.Append.
	Append(ctx context.Context, stream string, expectedVersion int64, key Key, evs ...NewEvent) (AppendResult, error)
	// AppendAliased is Append that also gives the stream other names.
	AppendAliased(ctx context.Context, stream string, expectedVersion int64, key Key, aliases []string, evs ...NewEvent) (AppendResult, error)
	// FindKey gives the events of the first append made with a key that
	// still counts.
	FindKey(ctx context.Context, k Key) ([]Event, bool, error)
	// ReadStream gives a stream's events, its chain checked.
	ReadStream(ctx context.Context, stream string) ([]Event, error)
	// StreamVersion is a stream's version as stored (0 for none).
	StreamVersion(ctx context.Context, stream string) (int64, error)
	// Replay hands a stream's events to fn (ev.Data lent), its chain checked.
	Replay(ctx context.Context, stream string, fn func(Event) error) error
	// ReplayAll hands every event of every stream to fn, from one snapshot.
	ReplayAll(ctx context.Context, fn func(ev Event, last bool) error) error
	// ReadFrom hands fn every event from a sequence number on, in order.
	ReadFrom(ctx context.Context, from int64, fn func(Event) error) error
	// Resolve gives the stream an alias names, or "".
	Resolve(ctx context.Context, alias string) (string, error)
	// Streams lists every stream, oldest first.
	Streams(ctx context.Context) ([]string, error)
	// Verify walks every stream's chain and names the first event wrong.
	Verify(ctx context.Context) (VerifyReport, error)
	// CheckIntegrity lets the database check itself as far as it can.
	CheckIntegrity(ctx context.Context, full bool) error
	// Import writes a stream exported from any engine, as it was.
	Import(ctx context.Context, evs []Event, aliases []string) error
	// Backup writes a consistent copy of the whole store to a new SQLite
	// file at dest, which verify, export and serve read like any other.
	Backup(ctx context.Context, dest string) error
	// Health says whether the last write succeeded.
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

var _ Engine = (*Store)(nil)
