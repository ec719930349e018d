package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	// Observer, when not nil, hears of every group commit (its size and
	// the COMMIT's time): /metrics.
	Observer events.CommitObserver
	// ReadOnly opens an existing database to read and check it (verify,
	// backup, export): nothing is made or migrated, every write is
	// refused, no lock is taken, and a server may run beside it.
	ReadOnly bool
	// Serve runs a server's start protocol (lease.go): the folder checked,
	// no new file beside what a vanished one left, one server per file.
	Serve bool
	// Log is where the store says what it did to the file (migrations)
	// and why it stopped writing: the server's log, in its format.
	// slog.Default() by default.
	Log *slog.Logger
}

// Store is the event store, made of parts with one job each; each part
// says how it is locked.
type Store struct {
	path  string        // as given to Open; immutable
	opt   Options       // as opened, defaults filled in; immutable
	files guard         // the file and its -wal as opened (guard.go); immutable
	read  *sql.DB       // the read pool, which WAL lets run beside the writer; database/sql locks it
	w     *committer    // the one write connection and group commit (commit.go); its own mutex
	ckpt  *checkpointer // copies the WAL into the file (checkpoint.go); atomics and channels
	state status        // health and the fail-stop (failstop.go); atomics and a sync.Once
	lease lease         // the file held for a server (lease.go); immutable, let go last by Close
}

// Open opens (creating it if need be) the database at path, checks that
// SQLite finds every page whole (PRAGMA quick_check; a damaged file is a
// *events.CorruptError and is not opened) and applies the migrations.
//
// The settings, and why:
//   - journal_mode=WAL: readers do not block the writer or each other.
//   - synchronous=FULL: a commit is on disk (fsync of the WAL) before it is
//     acknowledged, so an acknowledged deal survives a power cut, not only a
//     crash of the process.
//   - busy_timeout: a connection waits for a lock instead of failing at once.
//   - _txlock=immediate: write transactions take the write lock at BEGIN, so
//     two of them never both read and then fail to upgrade.
//   - mode=rw on every connection after the first: none creates a file, so
//     none makes an empty database where the file was deleted.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	if opt.ReadOnly {
		return openReadOnly(ctx, path, false)
	}
	opt = opt.withDefaults()
	var l lease
	if opt.Serve {
		var err error
		if l, err = take(path); err != nil {
			return nil, err
		}
	}
	write, err := openWriter(ctx, path, opt)
	if err != nil {
		l.release()
		return nil, err
	}
	s := &Store{path: path, opt: opt, w: newCommitter(write, opt.CommitDelay), lease: l}
	if err := s.start(ctx); err != nil {
		defer l.release()
		s.w.stmts.close()
		if s.ckpt != nil {
			s.ckpt.db.Close()
		}
		if s.w.conn != nil {
			s.w.conn.Close()
		}
		write.Close()
		if s.read != nil {
			s.read.Close()
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	go s.ckpt.run()
	return s, nil
}

func (opt Options) withDefaults() Options {
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
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return opt
}

// openWriter opens the write pool (one connection), checks the file and
// migrates it, and lets expired keys go. A -wal beside the file before it
// is opened may be another file's (see withLogHint): the file is then
// checked on a read-only connection first, as a write connection closed
// on a damaged view would copy that log into the file for good.
func openWriter(ctx context.Context, path string, opt Options) (*sql.DB, error) {
	walBefore := exists(realPath(path) + "-wal")
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
	write, err := sql.Open("sqlite3", dsn(path, dsnParams(opt.BusyTimeout)))
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
	if err := migrate(ctx, write, path, opt.Log); err != nil {
		write.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	// Expired idempotency keys match nothing: let them go, so that the keys
	// kept stay those of the last day, not of the whole history.
	if _, err := write.ExecContext(ctx, purgeKeys, keyTime(opt.Now().Add(-opt.KeyTTL))); err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s: forget expired keys: %w", path, err)
	}
	return write, nil
}

// start notes the files as opened, opens the read pool and the
// checkpointer, and prepares the write connection.
func (s *Store) start(ctx context.Context) error {
	file, err := identify(s.path)
	if err != nil {
		return err
	}
	walPath := realPath(s.path) + "-wal" // SQLite keeps it beside the file a link leads to
	wal, _ := identify(walPath)          // there is one after the migrations' writes
	s.files = guard{path: s.path, walPath: walPath, file: file, wal: wal}
	params := dsnParams(s.opt.BusyTimeout)
	params.Set("mode", "rw")
	// Each connection keeps a page cache of its own, in C memory outside
	// Go's limit, 2 MB by default. The checkpointer copies the log's frames
	// without it; the readers fold a game once, after which memory holds
	// it, so theirs need hold little more than the trees' upper pages.
	// The writer keeps the default: its appends and idempotency keys land
	// all over the trees.
	params.Set("_cache_size", strconv.Itoa(-checkpointerCacheKiB))
	if s.ckpt, err = startCheckpointer(dsn(s.path, params), s.lookAtFiles); err != nil {
		return err
	}
	params.Set("_cache_size", strconv.Itoa(-readerCacheKiB))
	params.Set("_txlock", "deferred")
	params.Set("_query_only", "1")
	if s.read, err = sql.Open("sqlite3", dsn(s.path, params)); err != nil {
		return err
	}
	s.read.SetMaxOpenConns(s.opt.ReadConns)
	s.read.SetMaxIdleConns(s.opt.ReadConns)
	if s.w.conn, err = s.w.db.Conn(ctx); err != nil {
		return err
	}
	if err := s.w.stmts.prepare(ctx, s.w.conn); err != nil {
		return err
	}
	// Commits never checkpoint: the checkpointer does, beside them.
	if _, err := s.w.conn.ExecContext(ctx, "PRAGMA wal_autocheckpoint = 0"); err != nil {
		return err
	}
	if s.opt.MaxPages > 0 {
		// Per connection: set on the one that writes, held for good.
		_, err = s.w.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", s.opt.MaxPages))
	}
	return err
}

// The page caches of the connections beside the writer, in KiB (PRAGMA
// cache_size; see start). 4 readers at SQLite's default of 2 MB held
// about 8 MB of a server's resident memory, outside Go's limit.
const (
	readerCacheKiB       = 512
	checkpointerCacheKiB = 64
)

// lookAtFiles is the checkpointer's look at the files every second: a file
// deleted or replaced while nothing is written stops the store, and is
// copied, before a kill can lose what only this process still holds.
func (s *Store) lookAtFiles() { _ = s.checkFiles() }

// dsn is the connection string of the database at path.
func dsn(path string, params url.Values) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + params.Encode()
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

// migrate applies the embedded SQL migrations in order, each in its own
// transaction, and logs each one it applies. goose does this with an
// embedded FS and is well kept; a hand-written runner would only repeat it.
// A database at a schema newer than this binary knows (a downgrade) is
// refused before anything is written: this binary would write it in a shape
// the newer one does not expect.
func migrate(ctx context.Context, db *sql.DB, path string, log *slog.Logger) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS)
	if err != nil {
		return err
	}
	var found sql.NullInt64 // none: a new database, no version table yet
	if err := db.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version`).Scan(&found); err != nil && !strings.Contains(err.Error(), "no such table") {
		return err
	}
	sources := p.ListSources()
	if known := sources[len(sources)-1].Version; found.Int64 > known {
		return &events.NewerSchemaError{Where: path, Found: found.Int64, Known: known}
	}
	res, err := p.Up(ctx)
	for _, r := range res {
		log.Info("migrated the database", "db", path, "schema_version", r.Source.Version, "migration", filepath.Base(r.Source.Path))
	}
	return err
}

// Close refuses new appends, waits for the commit under way and the
// appends queued for it, stops the checkpointer, and closes
// every connection. After a fail-stop the -wal at the path may be another
// file's: the last connection then leaves it where it is (SQLite would
// otherwise delete it by name).
func (s *Store) Close() error {
	if s.opt.ReadOnly {
		return s.read.Close()
	}
	if !s.w.stop() {
		return nil
	}
	defer s.lease.release() // after every connection: no second server meets this one's checkpoint
	return s.closeConns()
}

// Abandon closes the store and, when it made its file (Fresh), removes
// that file and SQLite's files beside it before letting the lock go: a
// first import that fails leaves nothing behind, and no other process can
// have written the file meanwhile (it held the lock throughout). A file
// that was at the path before is only closed: it is the operator's.
func (s *Store) Abandon() error {
	if s.opt.ReadOnly || !s.lease.fresh {
		return s.Close()
	}
	if !s.w.stop() {
		return nil
	}
	defer s.lease.release()
	err := s.closeConns()
	for _, p := range []string{s.path + "-wal", s.path + "-shm", s.path} {
		if rmErr := os.Remove(p); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			err = errors.Join(err, rmErr)
		}
	}
	return err
}

// closeConns stops the checkpointer and closes every connection.
func (s *Store) closeConns() error {
	s.ckpt.stop()
	var keep error
	if s.state.stopped.Load() != nil {
		keep = keepLogOnClose(s.w.conn)
	}
	s.w.stmts.close()
	// The write connection last: only the last connection to close
	// checkpoints and removes the -wal.
	return errors.Join(keep, s.ckpt.db.Close(), s.read.Close(), s.w.conn.Close(), s.w.db.Close())
}

// Fresh says whether a serving store made its file: no file was at the
// path, and it made a new, empty one.
func (s *Store) Fresh() bool { return s.lease.fresh }
