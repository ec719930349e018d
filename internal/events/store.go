// Package events is tappbook's append-only event store on SQLite: every fact
// recorded at the table is one immutable event in a stream (one game), in a
// hash chain that Verify can walk.
package events

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	// The SQLite driver, registered as "sqlite3"; its connection gives the
	// online backup API.
	"github.com/mattn/go-sqlite3"
	"github.com/pressly/goose/v3"

	"tappbook/migrations"
)

// Event is one stored fact.
type Event struct {
	Seq            int64           // global order
	Stream         string          // the game
	Version        int64           // 1, 2, … within the stream
	Batch          int64           // version of the first event of the command that appended it
	Type           string          // stable type name, e.g. "hand.recorded"
	SchemaVersion  int             // version of the payload's shape
	Data           json.RawMessage // the payload; amounts in it are decimal strings
	RecordedAt     time.Time
	IdempotencyKey string // on the first event of a batch, when the command had one
	PrevHash       string
	Hash           string
}

// NewEvent is an event to append.
type NewEvent struct {
	Type          string
	SchemaVersion int
	Data          any // marshalled to JSON
}

// ConflictError is a stale expected version: someone appended to the stream
// since the caller read it.
type ConflictError struct {
	Stream           string
	Expected, Actual int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("stream %s is at version %d, not the expected %d", e.Stream, e.Actual, e.Expected)
}

// Options tune a store; the zero value is what tappbook runs with.
type Options struct {
	Now         func() time.Time // the clock; time.Now by default
	ReadConns   int              // size of the read pool; 4 by default
	BusyTimeout time.Duration    // how long a connection waits for a lock; 5 s by default
	// CommitDelay is the longest a commit waits for busy clients to join
	// it (see run); 300 µs by default, negative for none.
	CommitDelay time.Duration
}

// Store is the event store. It writes through one connection (SQLite has
// one writer; a pool of writers would only queue on the lock) and reads
// through a small pool, which WAL lets run beside the writer.
type Store struct {
	write *sql.DB
	read  *sql.DB
	now   func() time.Time

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
	conn        *sql.Conn       // the one write connection, held for good
	stmts       writeStmts      // prepared once on it
	heads       map[string]head // streams' heads as committed
	recent      map[string]time.Time
	timer       *time.Timer
	commitDelay time.Duration
}

// writeStmts are the statements of a commit, parsed once on the one write
// connection. A transaction is begun and ended with plain BEGIN IMMEDIATE
// and COMMIT rather than through database/sql's Tx, which starts a
// goroutine for every transaction to watch its context: a sixth of a
// bare commit's time on this machine.
type writeStmts struct {
	begin, commit, rollback     *sql.Stmt
	key, head, insert, moveHead *sql.Stmt
}

func (w *writeStmts) prepare(ctx context.Context, conn *sql.Conn) error {
	var err error
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.begin, `BEGIN IMMEDIATE`},
		{&w.commit, `COMMIT`},
		{&w.rollback, `ROLLBACK`},
		{&w.key, `SELECT stream, batch FROM events WHERE idempotency_key = ?`},
		{&w.head, `SELECT version, hash FROM streams WHERE stream = ?`},
		{&w.insert, `INSERT INTO events
			(stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&w.moveHead, `INSERT INTO streams (stream, version, hash) VALUES (?, ?, ?)
			ON CONFLICT (stream) DO UPDATE SET version = excluded.version, hash = excluded.hash`},
	} {
		if *p.dst, err = conn.PrepareContext(ctx, p.sql); err != nil {
			return err
		}
	}
	return nil
}

func (w *writeStmts) close() {
	for _, st := range []*sql.Stmt{w.begin, w.commit, w.rollback, w.key, w.head, w.insert, w.moveHead} {
		if st != nil {
			st.Close()
		}
	}
}

// transaction runs fn between BEGIN IMMEDIATE and COMMIT on the write
// connection, and rolls back if fn fails or panics (the panic is returned
// as an error, so that no transaction is left open and no appender waits).
// Only whoever is busy calls it.
func (s *Store) transaction(ctx context.Context, fn func() error) (err error) {
	if _, err := s.stmts.begin.ExecContext(ctx); err != nil {
		return err
	}
	done := false
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
		if !done {
			s.stmts.rollback.ExecContext(ctx) // nothing to roll back if SQLite already did
		}
	}()
	if err = fn(); err == nil {
		_, err = s.stmts.commit.ExecContext(ctx)
	}
	done = err == nil
	return err
}

// maxBatch bounds how many appends one commit carries.
const maxBatch = 64

// siblingWindow is how lately a stream must have committed to count as a
// busy client worth waiting for; defaultCommitDelay bounds the wait.
const (
	siblingWindow      = 2 * time.Millisecond
	defaultCommitDelay = 300 * time.Microsecond
)

type appendReq struct {
	stream          string
	expectedVersion int64
	key             string
	aliases         []string
	evs             []NewEvent
	payloads        [][]byte
	reply           chan appendResp
}

type appendResp struct {
	res AppendResult
	err error
}

// ErrClosed is an append to a closed store.
var ErrClosed = errors.New("the event store is closed")

// Open opens (creating it if need be) the database at path and applies the
// migrations.
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
	params := dsnParams(opt.BusyTimeout)
	write, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	if err := write.PingContext(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	params.Set("_txlock", "deferred")
	params.Set("_query_only", "1")
	read, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params.Encode())
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s for reading: %w", path, err)
	}
	read.SetMaxOpenConns(opt.ReadConns)
	read.SetMaxIdleConns(opt.ReadConns)
	s := &Store{write: write, read: read, now: opt.Now, arrived: make(chan struct{}, 1),
		work: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		heads: map[string]head{}, recent: map[string]time.Time{}, timer: time.NewTimer(time.Hour), commitDelay: opt.CommitDelay}
	s.timer.Stop()
	s.idle = sync.NewCond(&s.mu)
	if s.conn, err = write.Conn(ctx); err == nil {
		err = s.stmts.prepare(ctx, s.conn)
	}
	if err != nil {
		s.stmts.close()
		if s.conn != nil {
			s.conn.Close()
		}
		write.Close()
		read.Close()
		return nil, fmt.Errorf("open %s: prepare: %w", path, err)
	}
	go s.writer()
	return s, nil
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
	s.stmts.close()
	return errors.Join(s.conn.Close(), s.read.Close(), s.write.Close())
}

// DB gives the read pool, for tools that inspect the database (the schema
// test, backup).
func (s *Store) DB() *sql.DB { return s.read }

// AppendResult is what an append wrote, or, for a repeated idempotency key,
// what the first append with that key wrote.
type AppendResult struct {
	Events    []Event
	Duplicate bool
}

// Append adds events to a stream in one transaction, all or none. The
// stream must be at expectedVersion (0 for a new stream), else it returns a
// *ConflictError. A non-empty key makes the append idempotent: when an
// append with the same key was already made, Append writes nothing and
// returns that append's events with Duplicate set.
func (s *Store) Append(ctx context.Context, stream string, expectedVersion int64, key string, evs ...NewEvent) (AppendResult, error) {
	return s.AppendAliased(ctx, stream, expectedVersion, key, nil, evs...)
}

// AppendAliased is Append that also gives the stream other names (such as a
// read-only link), in the same transaction.
func (s *Store) AppendAliased(ctx context.Context, stream string, expectedVersion int64, key string, aliases []string, evs ...NewEvent) (AppendResult, error) {
	if len(evs) == 0 {
		return AppendResult{}, fmt.Errorf("append to %s: no events", stream)
	}
	payloads := make([][]byte, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(e.Data)
		if err != nil {
			return AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		payloads[i] = b
	}
	r := &appendReq{stream: stream, expectedVersion: expectedVersion, key: key, aliases: aliases,
		evs: evs, payloads: payloads, reply: make(chan appendResp, 1)}
	if err := ctx.Err(); err != nil {
		return AppendResult{}, err
	}
	// Once queued, the append is committed or refused as a whole; the answer
	// is awaited even if the caller gave up, so that it never lies.
	resp := s.submit(r)
	return resp.res, resp.err
}

// submit commits an append, or queues it for the commit under way, and
// gives its answer once it is durable.
//
// An append that finds no commit under way commits itself, on its own
// goroutine: a lone client's deal goes from its request to the disk and
// back without waking anyone (a goroutine woken on another core costs a
// good part of a commit on a virtual machine). Appends that arrive
// meanwhile queue; the committer then hands the queue to the writer
// goroutine, which commits it batch after batch, each with all that are
// waiting by then, until it is empty.
func (s *Store) submit(r *appendReq) appendResp {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return appendResp{err: ErrClosed}
	}
	if s.busy {
		s.queue = append(s.queue, r)
		s.mu.Unlock()
		select {
		case s.arrived <- struct{}{}: // a commit waiting for siblings looks again
		default:
		}
		return <-r.reply
	}
	s.busy = true
	s.mu.Unlock()
	s.run([]*appendReq{r})
	s.release()
	return <-r.reply
}

// release ends being busy: the writer goroutine takes over what queued
// meanwhile.
func (s *Store) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) > 0 {
		s.work <- struct{}{} // never blocks: the writer is idle while another is busy
		return
	}
	s.busy = false
	s.idle.Broadcast()
}

// exclusive runs fn as the only writer: after the commits under way, before
// the appends that queue meanwhile.
func (s *Store) exclusive(fn func() error) error {
	s.mu.Lock()
	for s.busy && !s.closed {
		s.idle.Wait()
	}
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.busy = true
	s.mu.Unlock()
	defer s.release()
	return fn()
}

// writer commits the queue it is handed until it is empty.
func (s *Store) writer() {
	defer close(s.done)
	for {
		select {
		case <-s.work:
		case <-s.quit:
			return
		}
		for {
			s.mu.Lock()
			if len(s.queue) == 0 {
				s.busy = false
				s.idle.Broadcast()
				s.mu.Unlock()
				break
			}
			s.mu.Unlock()
			s.run(s.take(nil))
		}
	}
}

// run commits a batch, first waiting a moment for busy clients to join it.
//
// Commit delay: a stream that committed a moment ago (within
// siblingWindow) is a busy client that will likely append again at once.
// When such streams are missing from the batch, the committer waits up to
// commitDelay for them, so that one fsync carries them all (PostgreSQL's
// commit_delay with commit_siblings). A lone client never waits, and
// nobody is answered before the commit is durable.
func (s *Store) run(batch []*appendReq) {
	if expect := expectedSiblings(s.recent, batch, time.Now()); expect > 0 && s.commitDelay > 0 {
		s.timer.Reset(s.commitDelay)
	wait:
		for expect > 0 && len(batch) < maxBatch {
			select {
			case <-s.arrived:
				n := len(batch)
				batch = s.take(batch)
				for _, r := range batch[n:] {
					if _, ok := s.recent[r.stream]; ok {
						expect--
					}
				}
			case <-s.timer.C:
				break wait
			}
		}
		s.timer.Stop()
	}
	s.commit(batch)
	now := time.Now()
	for _, r := range batch {
		s.recent[r.stream] = now
	}
}

// take moves appends from the queue to the batch, up to maxBatch.
func (s *Store) take(batch []*appendReq) []*appendReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := min(len(s.queue), maxBatch-len(batch))
	batch = append(batch, s.queue[:n]...)
	rest := copy(s.queue, s.queue[n:])
	clear(s.queue[rest:]) // let answered appends go
	s.queue = s.queue[:rest]
	return batch
}

// expectedSiblings forgets streams that have been quiet for longer than
// siblingWindow and counts the others that are not in the batch.
func expectedSiblings(recent map[string]time.Time, batch []*appendReq, now time.Time) int {
	n := 0
	for st, at := range recent {
		if now.Sub(at) > siblingWindow {
			delete(recent, st)
			continue
		}
		n++
	}
	for _, r := range batch {
		if _, ok := recent[r.stream]; ok {
			n--
			delete(recent, r.stream) // counted once, even with two appends in the batch
		}
	}
	return n
}

// commit runs a batch of appends in one transaction. Nobody is answered
// before the commit is durable; if it fails, everyone is.
func (s *Store) commit(batch []*appendReq) {
	// A refused append (a stale version, a repeated key) is found before it
	// writes anything, so appends share a transaction without savepoints.
	// An unexpected error in the middle of one rolls everything back and
	// the appends are committed again one by one, so that only the faulty
	// one fails.
	resps, heads, err := s.commitAll(batch)
	if err != nil && len(batch) > 1 {
		for _, r := range batch {
			s.commit([]*appendReq{r})
		}
		return
	}
	if err != nil {
		batch[0].reply <- appendResp{err: err}
		return
	}
	for st, h := range heads {
		s.heads[st] = h
	}
	for i, r := range batch {
		r.reply <- resps[i]
	}
}

// commitAll runs the appends in one transaction and commits it; on any
// error (or panic) nothing is written and the heads known in memory are
// forgotten.
func (s *Store) commitAll(batch []*appendReq) ([]appendResp, map[string]head, error) {
	ctx := context.Background()
	resps := make([]appendResp, len(batch))
	heads := map[string]head{} // the heads as this transaction leaves them
	err := s.transaction(ctx, func() error {
		for i, r := range batch {
			resps[i].res, resps[i].err = s.appendTx(ctx, r, heads)
			if resps[i].err != nil && !IsConflict(resps[i].err) {
				return resps[i].err
			}
		}
		return nil
	})
	if err != nil {
		clear(s.heads) // read them again from the database
		return nil, nil, fmt.Errorf("append: %w", err)
	}
	return resps, heads, nil
}

// head is where a stream stands: its last version and hash.
type head struct {
	version int64
	hash    string
}

// headOf gives a stream's head as the transaction sees it: from the
// transaction's own appends, then the heads in memory, then the database.
func (s *Store) headOf(ctx context.Context, stream string, pending map[string]head) (head, error) {
	if h, ok := pending[stream]; ok {
		return h, nil
	}
	if h, ok := s.heads[stream]; ok {
		return h, nil
	}
	var h head
	err := s.stmts.head.QueryRowContext(ctx, stream).Scan(&h.version, &h.hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return head{}, err
	}
	return h, nil
}

// appendTx is one append inside the commit's transaction.
// It writes nothing when it refuses the append (stale version, known key),
// and records the stream's new head in pending.
func (s *Store) appendTx(ctx context.Context, r *appendReq, pending map[string]head) (AppendResult, error) {
	stream, expectedVersion, key, aliases, evs, payloads := r.stream, r.expectedVersion, r.key, r.aliases, r.evs, r.payloads
	if key != "" {
		var keyStream string
		var batch int64
		err := s.stmts.key.QueryRowContext(ctx, key).Scan(&keyStream, &batch)
		switch {
		case err == nil:
			first, err := readBatch(ctx, s.conn, keyStream, batch)
			if err != nil {
				return AppendResult{}, fmt.Errorf("append to %s: read the first answer for key %q: %w", stream, key, err)
			}
			return AppendResult{Events: first, Duplicate: true}, nil
		case !errors.Is(err, sql.ErrNoRows):
			return AppendResult{}, fmt.Errorf("append to %s: look up key: %w", stream, err)
		}
	}

	h, err := s.headOf(ctx, stream, pending)
	if err != nil {
		return AppendResult{}, fmt.Errorf("append to %s: read head: %w", stream, err)
	}
	version, prevHash := h.version, h.hash
	if version != expectedVersion {
		return AppendResult{}, &ConflictError{Stream: stream, Expected: expectedVersion, Actual: version}
	}

	at := s.now().UTC().Truncate(time.Microsecond)
	batch := version + 1
	out := make([]Event, len(evs))
	for i, e := range evs {
		ev := Event{
			Stream: stream, Version: version + 1 + int64(i), Batch: batch,
			Type: e.Type, SchemaVersion: e.SchemaVersion, Data: payloads[i],
			RecordedAt: at, PrevHash: prevHash,
		}
		if i == 0 {
			ev.IdempotencyKey = key
		}
		ev.Hash = ev.computeHash()
		res, err := s.stmts.insert.ExecContext(ctx,
			ev.Stream, ev.Version, ev.Batch, ev.Type, ev.SchemaVersion, string(ev.Data),
			formatTime(ev.RecordedAt), nullable(ev.IdempotencyKey), ev.PrevHash, ev.Hash)
		if err != nil {
			return AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		if ev.Seq, err = res.LastInsertId(); err != nil {
			return AppendResult{}, fmt.Errorf("append %s to %s: %w", e.Type, stream, err)
		}
		prevHash = ev.Hash
		out[i] = ev
	}
	last := out[len(out)-1]
	if _, err := s.stmts.moveHead.ExecContext(ctx, stream, last.Version, last.Hash); err != nil {
		return AppendResult{}, fmt.Errorf("append to %s: move head: %w", stream, err)
	}
	pending[stream] = head{last.Version, last.Hash}
	for _, a := range aliases {
		if _, err := s.conn.ExecContext(ctx, `INSERT INTO stream_aliases (alias, stream) VALUES (?, ?)`, a, stream); err != nil {
			return AppendResult{}, fmt.Errorf("append to %s: alias: %w", stream, err)
		}
	}
	return AppendResult{Events: out}, nil
}

// FindKey returns the events appended with an idempotency key, if any.
func (s *Store) FindKey(ctx context.Context, key string) ([]Event, bool, error) {
	var stream string
	var batch int64
	err := s.read.QueryRowContext(ctx, `SELECT stream, batch FROM events WHERE idempotency_key = ?`, key).Scan(&stream, &batch)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("find key %q: %w", key, err)
	}
	evs, err := readBatch(ctx, s.read, stream, batch)
	return evs, err == nil, err
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

const selectEvents = `SELECT seq, stream, version, batch, type, schema_version, data, recorded_at,
	COALESCE(idempotency_key, ''), prev_hash, hash FROM events`

func readBatch(ctx context.Context, q querier, stream string, batch int64) ([]Event, error) {
	return collect(q.QueryContext(ctx, selectEvents+` WHERE stream = ? AND batch = ? ORDER BY version`, stream, batch))
}

// ReadStream returns a stream's events in order (none for an unknown stream).
func (s *Store) ReadStream(ctx context.Context, stream string) ([]Event, error) {
	evs, err := collect(s.read.QueryContext(ctx, selectEvents+` WHERE stream = ? ORDER BY version`, stream))
	if err != nil {
		return nil, fmt.Errorf("read stream %s: %w", stream, err)
	}
	return evs, nil
}

// Replay calls fn with each of a stream's events in order, as a fold reads
// them (see replayColumns). ev.Data is lent to fn: it is valid until fn
// returns, and fn copies what it keeps of it.
func (s *Store) Replay(ctx context.Context, stream string, fn func(Event) error) error {
	rows, err := s.read.QueryContext(ctx, `SELECT `+replayColumns+` FROM events WHERE stream = ? ORDER BY version`, stream)
	if err != nil {
		return fmt.Errorf("replay %s: %w", stream, err)
	}
	defer rows.Close()
	sc := replayScanner{names: map[string]string{stream: stream}}
	for rows.Next() {
		ev, err := sc.scan(rows)
		if err != nil {
			return fmt.Errorf("replay %s: %w", stream, err)
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("replay %s: %w", stream, err)
	}
	return nil
}

// ReplayAll calls fn with every event of every stream in the order they
// were stored, as Replay reads them (ev.Data is lent to fn), in one read
// transaction: a snapshot that appends made meanwhile do not change. last
// says the event is its stream's last one in that snapshot, so a fold can
// be handed on and dropped there. One pass in stored order reads the table
// front to back, instead of seeking every event through the stream index.
func (s *Store) ReplayAll(ctx context.Context, fn func(ev Event, last bool) error) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	defer tx.Rollback()
	heads := map[string]int64{}
	sc := replayScanner{names: map[string]string{}}
	rows, err := tx.QueryContext(ctx, `SELECT stream, version FROM streams`)
	if err != nil {
		return fmt.Errorf("replay all: heads: %w", err)
	}
	for rows.Next() {
		var st string
		var v int64
		if err := rows.Scan(&st, &v); err != nil {
			rows.Close()
			return fmt.Errorf("replay all: heads: %w", err)
		}
		heads[st] = v
		sc.names[st] = st
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("replay all: heads: %w", err)
	}
	// The driver watches a cancellable context at every row it steps;
	// checking it here every few thousand rows costs nothing.
	rows, err = tx.QueryContext(context.WithoutCancel(ctx), `SELECT `+replayColumns+` FROM events ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	defer rows.Close()
	for n := 1; rows.Next(); n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return fmt.Errorf("replay all: %w", ctx.Err())
		}
		ev, err := sc.scan(rows)
		if err != nil {
			return fmt.Errorf("replay all: %w", err)
		}
		if err := fn(ev, ev.Version == heads[ev.Stream]); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("replay all: %w", err)
	}
	return nil
}

// replayColumns are what a fold reads of an event, and the sequence number
// and stream for reports. The batch, key and hashes are left out
// (ReadStream has them): a fold never looks at them, and reading them was a
// third of the cost of a replay.
const replayColumns = `seq, stream, version, type, schema_version, data, recorded_at`

// replayScanner reads replayed rows without allocating for what repeats: a
// replay reads the same few stream and type names over and over, so each is
// made a string once, and the payload is lent to the caller rather than
// copied. Most of a replay's time went to allocating and collecting these.
type replayScanner struct {
	names                 map[string]string // stream and type names met so far
	stream, typ, data, at sql.RawBytes
	seq, version          int64
	schemaVersion         int
}

func (sc *replayScanner) scan(rows *sql.Rows) (Event, error) {
	if err := rows.Scan(&sc.seq, &sc.stream, &sc.version, &sc.typ, &sc.schemaVersion, &sc.data, &sc.at); err != nil {
		return Event{}, err
	}
	ev := Event{Seq: sc.seq, Stream: sc.name(sc.stream), Version: sc.version, Type: sc.name(sc.typ),
		SchemaVersion: sc.schemaVersion, Data: json.RawMessage(sc.data)}
	if t, ok := parseStoredTime(sc.at); ok {
		ev.RecordedAt = t
		return ev, nil
	}
	var err error
	ev.RecordedAt, err = parseTime(ev.Seq, string(sc.at))
	return ev, err
}

func (sc *replayScanner) name(b []byte) string {
	if s, ok := sc.names[string(b)]; ok { // no allocation for the look-up
		return s
	}
	s := string(b)
	sc.names[s] = s
	return s
}

// parseStoredTime reads recorded_at as formatTime writes it, UTC with up to
// nine fractional digits ("2026-11-22T20:15:04.123456Z"), several times
// faster than time.Parse; anything else is left to time.Parse.
func parseStoredTime(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[len(b)-1] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if frac := b[19 : len(b)-1]; len(frac) > 0 {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		v, ok := num(20, len(frac)-1)
		if !ok {
			return time.Time{}, false
		}
		for range 10 - len(frac) {
			v *= 10
		}
		nsec = v
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // 31 April and the like: time.Date would roll over
		return time.Time{}, false
	}
	return t, true
}

// ReadFrom calls fn for every event with a sequence number of at least from,
// in order, until fn returns an error: for replaying everything.
func (s *Store) ReadFrom(ctx context.Context, from int64, fn func(Event) error) error {
	rows, err := s.read.QueryContext(ctx, selectEvents+` WHERE seq >= ? ORDER BY seq`, from)
	if err != nil {
		return fmt.Errorf("read events from %d: %w", from, err)
	}
	defer rows.Close()
	for rows.Next() {
		ev, err := scan(rows)
		if err != nil {
			return fmt.Errorf("read events from %d: %w", from, err)
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return rows.Err()
}

// StreamVersion is a stream's current version (0 when it has no events).
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	var v int64
	err := s.read.QueryRowContext(ctx, `SELECT version FROM streams WHERE stream = ?`, stream).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, err
}

func collect(rows *sql.Rows, err error) ([]Event, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		ev, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

func scan(rows *sql.Rows) (Event, error) {
	var ev Event
	var data, at string
	if err := rows.Scan(&ev.Seq, &ev.Stream, &ev.Version, &ev.Batch, &ev.Type, &ev.SchemaVersion,
		&data, &at, &ev.IdempotencyKey, &ev.PrevHash, &ev.Hash); err != nil {
		return Event{}, err
	}
	ev.Data = json.RawMessage(data)
	var err error
	ev.RecordedAt, err = parseTime(ev.Seq, at)
	return ev, err
}

// parseTime reads the stored recorded_at of event seq.
func parseTime(seq int64, at string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return time.Time{}, fmt.Errorf("event %d: recorded_at %q: %w", seq, at, err)
	}
	return t, nil
}

// computeHash covers the previous event's hash and everything the event
// says, so that changing, dropping or reordering any event breaks the chain.
func (e Event) computeHash() string {
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

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Problem is the first event Verify found wrong.
type Problem struct {
	Seq     int64
	Stream  string
	Version int64
	Reason  string
}

func (p *Problem) Error() string {
	return fmt.Sprintf("event %d (stream %s, version %d): %s", p.Seq, p.Stream, p.Version, p.Reason)
}

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
		return rep, fmt.Errorf("verify: read heads: %w", err)
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
	err = s.ReadFrom(ctx, 0, func(ev Event) error {
		rep.Events++
		prev := seen[ev.Stream]
		switch {
		case ev.Version != prev.version+1:
			return fail(ev, fmt.Sprintf("version %d follows version %d: an event is missing or out of order", ev.Version, prev.version))
		case ev.PrevHash != prev.hash:
			return fail(ev, "its previous hash does not match the event before it")
		case ev.computeHash() != ev.Hash:
			return fail(ev, "its content does not match its hash: it was changed after it was recorded")
		}
		seen[ev.Stream] = tail{ev.Version, ev.Hash, ev.Seq}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
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

var errStop = errors.New("stop")

// Resolve gives the stream an alias names, or "" when none.
func (s *Store) Resolve(ctx context.Context, alias string) (string, error) {
	var stream string
	err := s.read.QueryRowContext(ctx, `SELECT stream FROM stream_aliases WHERE alias = ?`, alias).Scan(&stream)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve alias: %w", err)
	}
	return stream, nil
}

// Streams lists every stream, oldest first. The heads table names them all;
// each one's first event, found by the (stream, version) index, gives the
// order, so listing does not scan the events.
func (s *Store) Streams(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT h.stream FROM streams h
		JOIN events e ON e.stream = h.stream AND e.version = 1 ORDER BY e.seq`)
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			return nil, fmt.Errorf("list streams: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// Import writes the events of one stream exported from another store, as
// they were: their versions, batches, times and payloads. The stream must be
// new; each event's hash is computed afresh and must equal the exported
// one, so a file changed after export is refused. aliases are the stream's
// other names, written with it.
func (s *Store) Import(ctx context.Context, evs []Event, aliases []string) error {
	if len(evs) == 0 {
		return fmt.Errorf("import: no events")
	}
	stream := evs[0].Stream
	err := s.exclusive(func() error {
		return s.transaction(ctx, func() error { return s.importTx(ctx, stream, evs, aliases) })
	})
	if err != nil {
		return fmt.Errorf("import %s: %w", stream, err)
	}
	return nil
}

func (s *Store) importTx(ctx context.Context, stream string, evs []Event, aliases []string) error {
	var exists int
	if err := s.conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM streams WHERE stream = ?`, stream).Scan(&exists); err != nil {
		return err
	}
	if exists > 0 {
		return fmt.Errorf("the game is already in this database")
	}
	prev := ""
	for i, e := range evs {
		want := e.Hash
		e.PrevHash, e.RecordedAt = prev, e.RecordedAt.UTC()
		if e.Stream != stream || e.Version != int64(i+1) {
			return fmt.Errorf("event %d is version %d of %s", i+1, e.Version, e.Stream)
		}
		if e.Hash = e.computeHash(); want != "" && e.Hash != want {
			return fmt.Errorf("event %d does not match its hash: the file was changed after export", e.Version)
		}
		if _, err := s.conn.ExecContext(ctx, `INSERT INTO events
			(stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
			e.Stream, e.Version, e.Batch, e.Type, e.SchemaVersion, string(e.Data), formatTime(e.RecordedAt), e.PrevHash, e.Hash); err != nil {
			return fmt.Errorf("event %d: %w", e.Version, err)
		}
		prev = e.Hash
	}
	last := evs[len(evs)-1]
	if _, err := s.conn.ExecContext(ctx, `INSERT INTO streams (stream, version, hash) VALUES (?, ?, ?)`, stream, last.Version, prev); err != nil {
		return err
	}
	for _, a := range aliases {
		if _, err := s.conn.ExecContext(ctx, `INSERT INTO stream_aliases (alias, stream) VALUES (?, ?)`, a, stream); err != nil {
			return fmt.Errorf("alias: %w", err)
		}
	}
	return nil
}

// Backup copies the live database to dest with SQLite's online backup API:
// a consistent snapshot, while the server keeps reading and writing.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if _, err := os.Stat(dest); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", dest)
	}
	destDB, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: dest}).EscapedPath())
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	defer destDB.Close()
	dc, err := destDB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	defer dc.Close()
	sc, err := s.read.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer sc.Close()
	return dc.Raw(func(d any) error {
		return sc.Raw(func(src any) error {
			b, err := d.(*sqlite3.SQLiteConn).Backup("main", src.(*sqlite3.SQLiteConn), "main")
			if err != nil {
				return fmt.Errorf("backup to %s: %w", dest, err)
			}
			// One step copies every page under one read transaction: a
			// consistent snapshot; WAL lets writers go on meanwhile.
			if _, err := b.Step(-1); err != nil {
				b.Finish()
				return fmt.Errorf("backup to %s: %w", dest, err)
			}
			return b.Finish()
		})
	})
}

// IsConflict reports whether err is a stale expected version.
func IsConflict(err error) bool {
	var ce *ConflictError
	return errors.As(err, &ce)
}
