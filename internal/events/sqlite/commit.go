package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	moveHead                        *sql.Stmt
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
		{&w.head, `SELECT version, hash FROM streams WHERE stream = ?`},
		{&w.last, `SELECT seq, version, hash FROM events WHERE stream = ? ORDER BY version DESC LIMIT 1`},
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
	for _, st := range []*sql.Stmt{w.begin, w.commit, w.rollback, w.key, w.useKey, w.head, w.last, w.insert, w.moveHead} {
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
		// The file at path, deleted or replaced while the server ran, is
		// not the one this connection writes: nothing is committed to a
		// file no restart finds (rolled back below).
		err = s.stillTheFile()
	}
	if err == nil {
		_, err = s.stmts.commit.ExecContext(ctx)
	}
	done = err == nil
	if done {
		s.commits.Add(1) // a rescue under way must look again (keepWhatTheLogHolds)
	}
	if done {
		// And once more after the commit, for a file moved meanwhile:
		// then it is not acknowledged, whatever became of it.
		err = s.stillTheFile()
	}
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
	key             events.Key
	aliases         []string
	evs             []events.NewEvent
	payloads        [][]byte
	reply           chan appendResp
}

type appendResp struct {
	res events.AppendResult
	err error
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
	if s.readOnly {
		return appendResp{err: events.ErrReadOnly}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return appendResp{err: events.ErrClosed}
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
	if s.readOnly {
		return events.ErrReadOnly
	}
	s.mu.Lock()
	for s.busy && !s.closed {
		s.idle.Wait()
	}
	if s.closed {
		s.mu.Unlock()
		return events.ErrClosed
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
	// A refused append (a stale version, a key reused for another request)
	// is found before it writes anything, so appends share a transaction
	// without savepoints.
	// An unexpected error in the middle of one rolls everything back and
	// the appends are committed again one by one, so that only the faulty
	// one fails.
	resps, heads, err := s.commitAll(batch)
	if errors.Is(err, events.ErrFileGone) {
		s.keepWhatTheLogHolds(err, true)
		// Not one of them is kept, whichever went first: all are told.
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
	for st, h := range heads {
		s.heads[st] = h
	}
	for i, r := range batch {
		r.reply <- resps[i]
	}
	if s.ckpt.finishDue() {
		s.finishCheckpoint() // checkpoint.go
	}
}

// commitAll runs the appends in one transaction and commits it; on any
// error (or panic) nothing is written and the heads known in memory are
// forgotten.
func (s *Store) commitAll(batch []*appendReq) ([]appendResp, map[string]events.Head, error) {
	ctx := context.Background()
	resps := make([]appendResp, len(batch))
	heads := map[string]events.Head{} // the heads as this transaction leaves them
	err := s.transaction(ctx, func() error {
		for i, r := range batch {
			resps[i].res, resps[i].err = s.appendTx(ctx, r, heads)
			if resps[i].err != nil && !events.Refusal(resps[i].err) {
				return resps[i].err
			}
		}
		return nil
	})
	if err != nil {
		clear(s.heads) // read them again from the database
		return nil, nil, fmt.Errorf("append: %w", err)
	}
	events := 0
	for _, r := range batch {
		events += len(r.evs)
	}
	s.ckpt.committed(events)
	return resps, heads, nil
}
