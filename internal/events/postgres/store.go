// Package postgres is tappbook's event store on PostgreSQL: the same
// events, hash chains, keys and guarantees as the SQLite store
// (internal/events), in a database that several servers share.
//
// One concern a file: store.go opens and closes (options, pool,
// migrations); append.go is an append, group.go commits the appends that
// wait together (one transaction, a savepoint each); read.go reads
// streams back, checking their chains; verify.go verifies, checks, imports
// and backs up; watch.go is LISTEN/NOTIFY, which tells every server of the
// appends every other one makes; errors.go maps PostgreSQL's errors to the
// store's.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"golang.org/x/sync/singleflight"

	"tappbook/internal/events"
	pgmigrations "tappbook/migrations/postgres"
)

// Options tune a store; the zero value is what tappbook runs with.
type Options struct {
	Now    func() time.Time // the clock; time.Now by default
	KeyTTL time.Duration    // how long an idempotency key counts; events.DefaultKeyTTL by default
	// MaxConns bounds the pool; 10 by default.
	MaxConns int32
	// AppendTimeout bounds an append, from taking a connection to the
	// commit's answer: a database that stops answering fails the append
	// (and lets Close go on) instead of holding it; 30 s by default.
	AppendTimeout time.Duration
	// ReadOnly opens an existing store to read and check it: nothing is
	// migrated, and every transaction is read-only (PostgreSQL refuses
	// writes), appends are refused with events.ErrReadOnly.
	ReadOnly bool
	// Observer, when not nil, hears of every group commit (its size and
	// the transaction's time): /metrics.
	Observer events.CommitObserver
	// Log is where the store says what it did to the database
	// (migrations): the server's log, in its format. slog.Default() by
	// default.
	Log *slog.Logger
}

// withDefaults fills in what opt leaves out.
func (opt Options) withDefaults() Options {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.KeyTTL <= 0 {
		opt.KeyTTL = events.DefaultKeyTTL
	}
	if opt.MaxConns <= 0 {
		opt.MaxConns = 10
	}
	if opt.AppendTimeout <= 0 {
		opt.AppendTimeout = 30 * time.Second
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return opt
}

// Store is the event store on a PostgreSQL database.
type Store struct {
	pool     *pgxpool.Pool
	url      string
	now      func() time.Time
	keyTTL   time.Duration
	readOnly bool
	observer events.CommitObserver // Options.Observer; immutable
	health   atomic.Pointer[events.Health]
	// appendTimeout bounds an append (Options.AppendTimeout).
	appendTimeout time.Duration
	// unreachable: health is degraded because the database was out of
	// reach (not full), which a Ping that is answered ends.
	unreachable atomic.Bool

	// mu: appends hold it shared, Close exclusively, so that Close waits
	// for the appends under way and no append starts after it.
	mu     sync.RWMutex
	closed bool

	watch watcher

	// gmu guards group, the appends waiting for the commit under way.
	gmu   sync.Mutex
	group committer

	// pingPool is Ping's own connection (at most one), apart from the
	// appends' pool; pings ask it once for every caller waiting at the
	// moment, so that health checks never open more than it.
	pingPool *pgxpool.Pool
	pings    singleflight.Group
}

var _ events.Engine = (*Store)(nil)
var _ events.Watcher = (*Store)(nil)

// IsURL says whether a --db value names a PostgreSQL database rather than
// a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Open connects to the database at url (postgres://user@host:port/db?…),
// applies the migrations (several servers starting at once take turns) and
// lets expired idempotency keys go.
func Open(ctx context.Context, url string, opt Options) (*Store, error) {
	opt = opt.withDefaults()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	cfg.MaxConns = opt.MaxConns
	// An acknowledged append is on disk: whatever the server's default,
	// this store's commits wait for the WAL flush.
	cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "on"
	if opt.ReadOnly {
		// Set once connected, not as a startup parameter: a URL with
		// target_session_attrs=read-write (a primary and its standby)
		// checks transaction_read_only as it connects, and would find
		// every server read-only.
		cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
			_, err := c.Exec(ctx, `SET default_transaction_read_only = on`)
			return err
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	pingCfg := cfg.Copy()
	pingCfg.MaxConns, pingCfg.MinConns = 1, 0
	pingPool, err := pgxpool.NewWithConfig(ctx, pingCfg) // connects on the first ping
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	s := &Store{pool: pool, url: url, now: opt.Now, keyTTL: opt.KeyTTL, readOnly: opt.ReadOnly, observer: opt.Observer, appendTimeout: opt.AppendTimeout,
		pingPool: pingPool}
	if opt.ReadOnly {
		if err := s.checkSchema(ctx); err != nil {
			pool.Close()
			pingPool.Close()
			return nil, err
		}
		return s, nil
	}
	if err := migrate(ctx, pool, Redact(url), opt.Log); err != nil {
		pool.Close()
		pingPool.Close()
		return nil, fmt.Errorf("migrate %s: %w", Redact(url), err)
	}
	if _, err := pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE used_at < $1`, opt.Now().Add(-opt.KeyTTL)); err != nil {
		pool.Close()
		pingPool.Close()
		return nil, fmt.Errorf("open %s: forget expired keys: %w", Redact(url), err)
	}
	return s, nil
}

// migrate applies the embedded migrations through database/sql, which
// goose speaks, holding PostgreSQL's session lock so that two servers
// starting together do not both migrate, and logs each one it applies. A
// database at a schema newer than this binary knows (a downgrade) is
// refused before anything is written.
func migrate(ctx context.Context, pool *pgxpool.Pool, where string, log *slog.Logger) error {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, pgmigrations.FS, goose.WithSessionLocker(locker))
	if err != nil {
		return err
	}
	var versioned bool // false: a new database, no version table yet
	var found int64
	if err := pool.QueryRow(ctx, `SELECT to_regclass('goose_db_version') IS NOT NULL`).Scan(&versioned); err != nil {
		return err
	}
	if versioned {
		if err := pool.QueryRow(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version`).Scan(&found); err != nil {
			return err
		}
	}
	sources := p.ListSources()
	if known := sources[len(sources)-1].Version; found > known {
		return &events.NewerSchemaError{Where: where, Found: found, Known: known}
	}
	res, err := p.Up(ctx)
	for _, r := range res {
		log.Info("migrated the database", "db", where, "schema_version", r.Source.Version, "migration", path.Base(r.Source.Path))
	}
	return err
}

// checkSchema refuses a database without the event store's tables.
func (s *Store) checkSchema(ctx context.Context) error {
	for _, t := range []string{"events", "streams", "stream_aliases", "idempotency_keys"} {
		var ok bool
		if err := s.pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, t).Scan(&ok); err != nil {
			return fmt.Errorf("open %s: %w", Redact(s.url), err)
		}
		if !ok {
			return &events.NotStoreError{Path: Redact(s.url), Why: fmt.Sprintf("it has no %s table", t)}
		}
	}
	return nil
}

// Close waits for the appends under way, stops watching and closes the
// pool; appends after it are refused with events.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.watch.close()
	s.pool.Close()
	s.pingPool.Close()
	return nil
}

// Redact leaves a password out of a URL shown in messages.
func Redact(url string) string {
	at := strings.LastIndex(url, "@")
	scheme := strings.Index(url, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return url
	}
	userinfo := url[scheme+3 : at]
	if i := strings.Index(userinfo, ":"); i >= 0 {
		return url[:scheme+3] + userinfo[:i] + ":xxxxx" + url[at:]
	}
	return url
}

var errNoEvents = errors.New("no events")
