package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"tappbook/internal/events"
	"time"
)

// writeStmts are the statements of a commit, parsed once on the one write
// connection. A transaction is begun and ended with plain BEGIN IMMEDIATE
// and COMMIT rather than through database/sql's Tx, which starts a
// goroutine for every transaction to watch its context: a sixth of a
// bare commit's time on this machine.
type writeStmts struct {
	begin, commit, rollback         *sql.Stmt
	key, useKey, head, last, insert *sql.Stmt
	newStream, moveHead, lastSeq    *sql.Stmt
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
		{&w.key, selectKey},
		{&w.useKey, upsertKey},
		{&w.head, `SELECT id, version, hash FROM streams WHERE stream = ?`},
		{&w.last, `SELECT seq, version, hash, recorded_at FROM events WHERE stream_id = ? ORDER BY version DESC LIMIT 1`},
		{&w.insert, insertEvent},
		{&w.newStream, `INSERT INTO streams (stream, version, hash) VALUES (?, ?, ?)`},
		{&w.moveHead, `UPDATE streams SET version = ?, hash = ? WHERE id = ?`},
		{&w.lastSeq, `SELECT IFNULL(MAX(seq), 0) FROM events`},
	} {
		if *p.dst, err = conn.PrepareContext(ctx, p.sql); err != nil {
			return err
		}
	}
	return nil
}

const insertEvent = `INSERT INTO events
	(stream_id, version, seq, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func (w *writeStmts) close() {
	for _, st := range []*sql.Stmt{w.begin, w.commit, w.rollback, w.key, w.useKey, w.head, w.last, w.insert, w.newStream, w.moveHead, w.lastSeq} {
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
	// A write the disk refused is events.ErrDiskFull, and every outcome is kept
	// for events.Health.
	defer func() {
		err = diskFailure(err)
		s.noteWrite(err)
	}()
	if _, err := s.w.stmts.begin.ExecContext(ctx); err != nil {
		return err
	}
	done := false
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
		if !done {
			s.w.stmts.rollback.ExecContext(ctx) // nothing to roll back if SQLite already did
		}
	}()
	if err = fn(); err == nil {
		// The file at path, deleted or replaced while the server ran, is
		// not the one this connection writes: nothing is committed to a
		// file no restart finds (rolled back below), and the store stops.
		err = s.checkFiles()
	}
	if err == nil {
		start := time.Now()
		_, err = s.w.stmts.commit.ExecContext(ctx)
		s.w.commitTook = time.Since(start)
	}
	done = err == nil
	if done {
		// And once more after the commit, for a file moved meanwhile:
		// then it is not acknowledged, whatever became of it.
		err = s.checkFiles()
	}
	return err
}

// committer is group commit (see submit): one commit at a time, by the
// appender that leads it, carries every append waiting in the queue in one
// transaction (one fsync), and answers each only after the commit is
// durable. mu guards queue, busy and closed; the rest is touched only by
// whoever is busy (the leader, or exclusive's caller).
type committer struct {
	db      *sql.DB // the write pool: one connection
	mu      sync.Mutex
	queue   []*appendReq
	busy    bool          // a commit is under way, or its leader hands over to the next
	closed  bool          // Close was called: no new appends
	idle    *sync.Cond    // signalled when busy ends, for Close and exclusive
	arrived chan struct{} // an append queued: for a commit waiting for siblings

	// Whoever is busy's alone.
	conn        *sql.Conn            // the one write connection, held for good
	stmts       writeStmts           // prepared once on it
	heads       map[string]head      // streams' heads as committed
	seq         int64                // the last event's seq as committed; 0: read it from the database
	recent      map[string]time.Time // streams that committed lately (run)
	timer       *time.Timer
	commitDelay time.Duration
	commitTook  time.Duration // the last COMMIT's, for Options.Observer
}

func newCommitter(db *sql.DB, delay time.Duration) *committer {
	c := &committer{db: db, arrived: make(chan struct{}, 1),
		heads: map[string]head{}, recent: map[string]time.Time{}, timer: time.NewTimer(time.Hour), commitDelay: delay}
	c.timer.Stop()
	c.idle = sync.NewCond(&c.mu)
	return c
}

// stop refuses new appends and waits for the commit under way and the
// appends queued for it. It says whether this call stopped it (false: it
// was stopped already).
func (c *committer) stop() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.closed = true
	for c.busy {
		c.idle.Wait()
	}
	return true
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
	key             events.Key
	aliases         []string
	evs             []events.NewEvent
	payloads        [][]byte
	reply           chan appendResp
}

type appendResp struct {
	res  events.AppendResult
	err  error
	lead bool // not an answer: the append's goroutine now leads the next commit
}

// submit commits an append, or queues it for the next commit, and gives
// its answer once it is durable.
//
// Leader-based group commit (as LevelDB's write groups, or PostgreSQL's
// WAL flush): an append that finds no commit under way leads one, on its
// own goroutine, so a lone client's deal goes from its request to the disk
// and back without waking anyone (a goroutine woken on another core costs a
// good part of a commit on a virtual machine). Appends that arrive
// meanwhile queue; when the commit is done, its leader hands the lead to
// the first of them, which commits all that are waiting by then, on its
// own goroutine, and so on until the queue is empty. One goroutine is
// woken per commit (the next leader) besides the answers.
func (s *Store) submit(r *appendReq) appendResp {
	if s.opt.ReadOnly {
		return appendResp{err: events.ErrReadOnly}
	}
	if s.state.stopped.Load() != nil {
		return appendResp{err: s.failStop(nil)}
	}
	s.w.mu.Lock()
	if s.w.closed {
		s.w.mu.Unlock()
		return appendResp{err: events.ErrClosed}
	}
	if s.w.busy {
		s.w.queue = append(s.w.queue, r)
		s.w.mu.Unlock()
		select {
		case s.w.arrived <- struct{}{}: // a commit waiting for siblings looks again
		default:
		}
		if resp := <-r.reply; !resp.lead {
			return resp // committed (or refused) by another leader
		}
		s.run(s.take(nil)) // r is first in the queue: it is in this batch
	} else {
		s.w.busy = true
		s.w.mu.Unlock()
		s.run([]*appendReq{r})
	}
	s.release()
	return <-r.reply
}

// release ends a commit: the first append that queued meanwhile leads the
// next, else nobody is busy any more.
func (s *Store) release() {
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	if len(s.w.queue) > 0 {
		// Never blocks: a queued append's reply is empty until it is
		// answered, and only the commit that takes it from the queue does.
		s.w.queue[0].reply <- appendResp{lead: true}
		return
	}
	s.w.busy = false
	s.w.idle.Broadcast()
}

// exclusive runs fn as the only writer: after the commits under way, before
// the appends that queue meanwhile.
func (s *Store) exclusive(fn func() error) error {
	if s.opt.ReadOnly {
		return events.ErrReadOnly
	}
	s.w.mu.Lock()
	for s.w.busy && !s.w.closed {
		s.w.idle.Wait()
	}
	if s.w.closed {
		s.w.mu.Unlock()
		return events.ErrClosed
	}
	s.w.busy = true
	s.w.mu.Unlock()
	defer s.release()
	return fn()
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
	if expect := expectedSiblings(s.w.recent, batch, time.Now()); expect > 0 && s.w.commitDelay > 0 {
		s.w.timer.Reset(s.w.commitDelay)
	wait:
		for expect > 0 && len(batch) < maxBatch {
			select {
			case <-s.w.arrived:
				n := len(batch)
				batch = s.take(batch)
				for _, r := range batch[n:] {
					if _, ok := s.w.recent[r.stream]; ok {
						expect--
					}
				}
			case <-s.w.timer.C:
				break wait
			}
		}
		s.w.timer.Stop()
	}
	s.commit(batch)
	now := time.Now()
	for _, r := range batch {
		s.w.recent[r.stream] = now
	}
}

// take moves appends from the queue to the batch, up to maxBatch.
func (s *Store) take(batch []*appendReq) []*appendReq {
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	n := min(len(s.w.queue), maxBatch-len(batch))
	batch = append(batch, s.w.queue[:n]...)
	rest := copy(s.w.queue, s.w.queue[n:])
	clear(s.w.queue[rest:]) // let answered appends go
	s.w.queue = s.w.queue[:rest]
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
	// A refused append (a stale version, a key reused for another request)
	// is found before it writes anything, so appends share a transaction
	// without savepoints.
	// An unexpected error in the middle of one rolls everything back and
	// the appends are committed again one by one, so that only the faulty
	// one fails.
	resps, tx, err := s.commitAll(batch)
	if errors.Is(err, events.ErrFileGone) {
		// Not one of them is acknowledged, whichever went first: all are told.
		for _, r := range batch {
			r.reply <- appendResp{err: err}
		}
		return
	}
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
	for st, h := range tx.heads {
		s.w.heads[st] = h
	}
	s.w.seq = tx.seq
	for i, r := range batch {
		r.reply <- resps[i]
	}
	s.observe(batch)
	if s.ckpt.finishDue() {
		s.finishCheckpoint() // checkpoint.go
	}
}

// commitAll runs the appends in one transaction and commits it; on any
// error (or panic) nothing is written and the heads and seq known in
// memory are forgotten.
func (s *Store) commitAll(batch []*appendReq) ([]appendResp, *txState, error) {
	ctx := context.Background()
	resps := make([]appendResp, len(batch))
	tx := &txState{heads: map[string]head{}, seq: s.w.seq}
	err := s.transaction(ctx, func() error {
		if tx.seq == 0 {
			if err := s.w.stmts.lastSeq.QueryRowContext(ctx).Scan(&tx.seq); err != nil {
				return err
			}
		}
		for i, r := range batch {
			resps[i].res, resps[i].err = s.appendTx(ctx, r, tx)
			if resps[i].err != nil && !events.Refusal(resps[i].err) {
				return resps[i].err
			}
		}
		return nil
	})
	if err != nil {
		clear(s.w.heads) // read them again from the database
		s.w.seq = 0
		return nil, nil, fmt.Errorf("append: %w", err)
	}
	events := 0
	for _, r := range batch {
		events += len(r.evs)
	}
	s.ckpt.committed(events)
	return resps, tx, nil
}

// txState is what a commit's transaction has written so far: the heads of
// the streams it appended to and the last seq it gave.
type txState struct {
	heads map[string]head
	seq   int64
}

// head is a stream's head, its id (0 for a stream not yet stored) and its
// last event's time, the earliest the next append may stamp
// (events.StampTime).
type head struct {
	id int64
	events.Head
	at time.Time
}

// observe tells Options.Observer of a commit made, once its appends were
// answered.
func (s *Store) observe(batch []*appendReq) {
	if s.opt.Observer == nil {
		return
	}
	n := 0
	for _, r := range batch {
		n += len(r.evs)
	}
	s.opt.Observer.Committed(len(batch), n, s.w.commitTook)
}
