package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"tappbook/internal/events"
	"time"

	// The SQLite driver, registered as "sqlite3"; backup.go uses its
	// connection for the online backup API.
	_ "github.com/mattn/go-sqlite3"
	"github.com/pressly/goose/v3"

	"tappbook/migrations"
)

// Options tune a store; the zero value is what tappbook runs with.
type Options struct {
	Now         func() time.Time // the clock; time.Now by default
	ReadConns   int              // size of the read pool; 4 by default
	BusyTimeout time.Duration    // how long a connection waits for a lock; 5 s by default
	// CommitDelay is the longest a commit waits for busy clients to join
	// it (see run); 300 µs by default, negative for none.
	CommitDelay time.Duration
	// KeyTTL is how long an idempotency key counts; after it, the key
	// matches nothing and may be used again. events.DefaultKeyTTL by default.
	KeyTTL time.Duration
	// MaxPages caps the file at so many pages (PRAGMA max_page_count): a
	// quota, past which writes fail with events.ErrDiskFull as on a full disk.
	// 0 for none.
	MaxPages int64
}

// Store is the event store. It writes through one connection (SQLite has
// one writer; a pool of writers would only queue on the lock) and reads
// through a small pool, which WAL lets run beside the writer.
type Store struct {
	write *sql.DB
	read  *sql.DB
	path  string
	// file is the database file as opened: a commit that finds another
	// file (or none) at path went to a file no restart will find.
	file os.FileInfo
	// walFile is its -wal as opened (nil if there was none to watch): deleted
	// while the server runs, the commits still in it are in no file a
	// restart reads.
	walPath string
	walFile os.FileInfo
	// realPath is path with its links resolved at open.
	realPath string
	gone     atomic.Pointer[time.Time] // since when events.Health found it gone
	rescue   sync.Mutex                // one keepWhatTheLogHolds at a time, and rescued
	rescued  rescue                    // what it last kept
	// setAside is where the store's own -wal was moved when another file
	// took the path ("" if not); asideFailed: moving one aside failed, and
	// was said. Both under rescue.
	setAside    string
	asideFailed bool
	commits     atomic.Int64  // transactions committed
	watched     chan struct{} // closed when watchFile has returned
	now         func() time.Time
	// readOnly: opened by OpenReadOnly, with no write connection.
	readOnly bool
	// health is nil while writes succeed (see events.Health).
	health atomic.Pointer[events.Health]
	// keyTTL is Options.KeyTTL.
	keyTTL time.Duration

	// Group commit (see submit): one commit at a time, by an appender
	// itself or by the writer goroutine, carries every append waiting in
	// the queue in one transaction (one fsync), and answers each only
	// after the commit is durable.
	mu      sync.Mutex
	queue   []*appendReq
	busy    bool          // a commit is under way or the writer has the queue
	closed  bool          // Close was called: no new appends
	idle    *sync.Cond    // signalled when busy ends, for Close
	arrived chan struct{} // an append queued: for a commit waiting for siblings
	work    chan struct{} // the writer goroutine is to commit the queue
	quit    chan struct{}
	done    chan struct{}

	// The committer's alone: only whoever is busy touches them.
	conn        *sql.Conn              // the one write connection, held for good
	stmts       writeStmts             // prepared once on it
	heads       map[string]events.Head // streams' heads as committed
	recent      map[string]time.Time
	timer       *time.Timer
	commitDelay time.Duration

	// ckpt copies the WAL into the file after commits (checkpoint.go).
	ckpt *checkpointer
}

// Open opens (creating it if need be) the database at path, checks that
// SQLite finds every page whole (PRAGMA quick_check; a damaged file is a
// *CorruptError and is not opened) and applies the migrations.
//
// The settings, and why:
//   - journal_mode=WAL: readers do not block the writer or each other.
//   - synchronous=FULL: a commit is on disk (fsync of the WAL) before it is
//     acknowledged, so an acknowledged deal survives a power cut, not only a
//     crash of the process.
//   - busy_timeout: a connection waits for a lock instead of failing at once.
//   - _txlock=immediate: write transactions take the write lock at BEGIN, so
//     two of them never both read and then fail to upgrade.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.ReadConns <= 0 {
		opt.ReadConns = 4
	}
	if opt.BusyTimeout <= 0 {
		opt.BusyTimeout = 5 * time.Second
	}
	if opt.CommitDelay == 0 {
		opt.CommitDelay = defaultCommitDelay
	}
	if opt.KeyTTL <= 0 {
		opt.KeyTTL = events.DefaultKeyTTL
	}
	// A -wal beside the file before it is opened may be another file's (see
	// CorruptError.Hint). The file is then checked on a read-only
	// connection first: a write connection closed on a damaged view would
	// copy that log into the file for good.
	real := realPath(path)
	walBefore := exists(real + "-wal")
	checked := false
	if walBefore {
		switch err := checkReadOnly(ctx, path); {
		case err == nil:
			checked = true
		case errors.As(err, new(*events.CorruptError)):
			return nil, withLogHint(err, path)
		}
		// Not checked read-only (no -shm to read the log through, say): on
		// the write connection, as without a log.
	}
	params := dsnParams(opt.BusyTimeout)
	write, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	if err := write.PingContext(ctx); err != nil {
		write.Close()
		return nil, withPath("open", path, classify(path, err))
	}
	// A damaged file is not written to: it would only spread the damage,
	// and the copy at hand is what a recovery starts from.
	if !checked {
		if err := checkIntegrity(ctx, write, path, false); err != nil {
			write.Close()
			if walBefore {
				err = withLogHint(err, path)
			}
			return nil, err
		}
	}
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	// Expired idempotency keys match nothing: let them go, so that the keys
	// kept stay those of the last day, not of the whole history.
	if _, err := write.ExecContext(ctx, purgeKeys, keyTime(opt.Now().Add(-opt.KeyTTL))); err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s: forget expired keys: %w", path, err)
	}
	// The file exists now; a connection opened later never creates one
	// (a reader's would otherwise make an empty database where the file
	// was deleted, for the next start to open as if new).
	params.Set("mode", "rw")
	ckptParams := dsnParams(opt.BusyTimeout)
	ckptParams.Set("mode", "rw")
	file, err := os.Stat(path)
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Where the file really is: SQLite keeps the -wal there, and a rescued
	// copy goes there too, where LeftBehind looks for both once it is gone.
	walPath := real + "-wal"
	walFile, _ := os.Stat(walPath) // there is one after the migrations' writes
	params.Set("_txlock", "deferred")
	params.Set("_query_only", "1")
	read, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params.Encode())
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s for reading: %w", path, err)
	}
	read.SetMaxOpenConns(opt.ReadConns)
	read.SetMaxIdleConns(opt.ReadConns)
	s := &Store{write: write, read: read, path: path, realPath: real, file: file, walPath: walPath, walFile: walFile, now: opt.Now, arrived: make(chan struct{}, 1),
		work: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		heads: map[string]events.Head{}, recent: map[string]time.Time{}, timer: time.NewTimer(time.Hour), commitDelay: opt.CommitDelay, keyTTL: opt.KeyTTL}
	s.timer.Stop()
	s.idle = sync.NewCond(&s.mu)
	if s.conn, err = write.Conn(ctx); err == nil {
		err = s.stmts.prepare(ctx, s.conn)
	}
	if err == nil {
		// Commits never checkpoint: the checkpointer does, beside them.
		_, err = s.conn.ExecContext(ctx, "PRAGMA wal_autocheckpoint = 0")
	}
	if err == nil {
		s.ckpt, err = startCheckpointer(path, ckptParams)
	}
	if err == nil && opt.MaxPages > 0 {
		// Per connection: set on the one that writes, held for good.
		_, err = s.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", opt.MaxPages))
	}
	if err != nil {
		s.stmts.close()
		if s.ckpt != nil {
			s.ckpt.close()
		}
		if s.conn != nil {
			s.conn.Close()
		}
		write.Close()
		read.Close()
		return nil, fmt.Errorf("open %s: prepare: %w", path, err)
	}
	go s.writer()
	s.watched = make(chan struct{})
	go func() {
		defer close(s.watched)
		s.watchFile(s.quit)
	}()
	return s, nil
}

// checkReadOnly checks a file, through the log beside it, on a read-only
// connection, which never writes the log into the file nor deletes it.
func checkReadOnly(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+readOnlyParams().Encode())
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		return withPath("open", path, classify(path, err))
	}
	return checkIntegrity(ctx, db, path, false)
}

// withLogHint says, of a damaged file found with a -wal beside it, that the
// log may be another file's.
func withLogHint(err error, path string) error {
	var ce *events.CorruptError
	if errors.As(err, &ce) {
		ce.Hint = fmt.Sprintf("if the file was replaced while a server had it open, %s is the old file's, which SQLite reads on top of this one: move it and %s aside (keep them) and start again",
			besideFile(path, "-wal"), besideFile(path, "-shm"))
	}
	return err
}

// dsnParams are the connection settings Open explains.
func dsnParams(busy time.Duration) url.Values {
	params := url.Values{}
	params.Set("_journal_mode", "WAL")
	params.Set("_synchronous", "FULL")
	params.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	params.Set("_foreign_keys", "1")
	params.Set("_txlock", "immediate")
	return params
}

// OpenRaw opens a database file with exactly the settings the store uses,
// for measuring what SQLite itself does on this disk (tappbook bench).
func OpenRaw(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+dsnParams(5*time.Second).Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, db.Ping()
}

// migrate applies the embedded SQL migrations in order, each in its own
// transaction, recording the applied version. goose does this with an
// embedded FS and is well kept; a hand-written runner would only repeat it.
func migrate(ctx context.Context, db *sql.DB) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS)
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return err
}

// Close refuses new appends, waits for the commit under way and the
// appends queued for it, stops the writer and closes the database.
func (s *Store) Close() error {
	if s.readOnly {
		return s.read.Close()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	for s.busy {
		s.idle.Wait()
	}
	s.mu.Unlock()
	close(s.quit)
	<-s.done
	<-s.watched
	// Stopped within a look of the file going: what it held is kept, and
	// the connections are left open until the process ends: closing them
	// would let SQLite copy the log into a file that is not the store's
	// any more, and delete whatever -wal is at the path, by its name.
	if err := s.stillTheFile(); err != nil {
		s.keepWhatTheLogHolds(err, true)
		s.ckpt.stop()
		return nil
	}
	s.stmts.close()
	return errors.Join(s.ckpt.close(), s.conn.Close(), s.read.Close(), s.write.Close())
}

// DB gives the read pool, for tools that inspect the database (the schema
// test, backup).
func (s *Store) DB() *sql.DB { return s.read }
