package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"tappbook/internal/events"
)

// Group commit: appends that arrive while a commit is under way wait for
// it, then go together in one transaction, as on SQLite. Each append
// keeps its own answer: it is checked against the head it finds (a
// conflict or a used key refuses it alone) and written under a savepoint
// of its own, so a statement PostgreSQL refuses rolls back that append
// alone and the others commit.

// maxBatch bounds how many appends one transaction carries.
const maxBatch = 64

// appendReq is one append waiting to be committed.
type appendReq struct {
	stream          string
	expectedVersion int64
	key             events.Key
	aliases         []string
	evs             []events.NewEvent
	payloads        []string

	res   events.AppendResult
	err   error
	out   []events.Event // the events as written, while not yet committed
	write bool           // it writes (not a refusal or a key's first answer)
	// newStream: the stream had no head (its first append).
	newStream bool
	done      chan struct{}
}

// committer is the queue of appends waiting for the commit under way.
type committer struct {
	busy  bool
	queue []*appendReq
}

// submit commits r, alone if no commit is under way, else with the others
// that wait meanwhile, and gives its answer once committed (or refused).
func (s *Store) submit(ctx context.Context, r *appendReq) (events.AppendResult, error) {
	r.done = make(chan struct{})
	s.gmu.Lock()
	if s.group.busy {
		s.group.queue = append(s.group.queue, r)
		s.gmu.Unlock()
		<-r.done
		return r.res, r.err
	}
	s.group.busy = true
	s.gmu.Unlock()
	s.commitBatch(ctx, []*appendReq{r})
	if s.waiting() {
		go s.drain()
	}
	<-r.done
	return r.res, r.err
}

// waiting says whether appends wait for a commit; if none do, no commit
// is under way any more. (A goroutine started after every commit only to
// find nothing waiting was a wake-up a deal at one table.)
func (s *Store) waiting() bool {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	if len(s.group.queue) == 0 {
		s.group.busy = false
		return false
	}
	return true
}

// drain commits what waits, a batch at a time, until nothing does.
func (s *Store) drain() {
	for {
		s.gmu.Lock()
		batch, rest := takeBatch(s.group.queue)
		s.group.queue = rest
		if len(batch) == 0 {
			s.group.busy = false
			s.gmu.Unlock()
			return
		}
		s.gmu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), s.appendTimeout)
		s.commitBatch(ctx, batch)
		cancel()
	}
}

// takeBatch takes up to maxBatch appends, at most one per stream and per
// key (a second waits for the next batch: it must see the first
// committed), in the order they came.
func takeBatch(queue []*appendReq) (batch, rest []*appendReq) {
	streams, keys := map[string]bool{}, map[string]bool{}
	for _, r := range queue {
		k := r.key.Scope + "\n" + r.key.Name
		if len(batch) == maxBatch || streams[r.stream] || r.key.Name != "" && keys[k] {
			rest = append(rest, r)
			continue
		}
		streams[r.stream] = true
		if r.key.Name != "" {
			keys[k] = true
		}
		batch = append(batch, r)
	}
	return batch, rest
}

// commitBatch runs the batch's transaction on one connection: the first
// round trip takes the locks and reads each key and head, the second
// writes every append that may and commits. Every append is answered.
func (s *Store) commitBatch(ctx context.Context, batch []*appendReq) {
	defer func() {
		for _, r := range batch {
			close(r.done)
		}
	}()
	fail := func(err error) {
		for _, r := range batch {
			r.res, r.err = events.AppendResult{}, err
		}
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		fail(err)
		return
	}
	start := time.Now()
	lost, err := s.batchTx(ctx, conn, batch)
	if lost == nil {
		conn.Release()
		if err != nil {
			fail(err)
		} else {
			s.observe(batch, time.Since(start))
		}
		return
	}
	// The commit may have been made: asked once the lost connection is
	// given back to the pool (with every other connection taken, the
	// question needs that one).
	conn.Release()
	for _, r := range batch {
		if r.write {
			r.res, r.err = s.settleCommit(r.stream, r.out, lost)
		}
	}
}

// batchTx is the batch's transaction; lost is the error of a connection
// that failed once the commit may have been sent. It first writes every
// append in a few set-based statements and commits, one round trip; if
// PostgreSQL refuses a statement, the transaction is rolled back whole
// and made again with each append under a savepoint of its own, so that
// the one refused fails alone.
func (s *Store) batchTx(ctx context.Context, conn *pgxpool.Conn, batch []*appendReq) (lost, err error) {
	committed := false
	defer func() {
		if !committed && lost == nil {
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
	}()
	if err := s.begin(ctx, conn, batch); err != nil {
		return nil, beforeCommit(conn, err)
	}
	err = s.writeAll(ctx, conn, batch)
	switch {
	case err == nil:
		committed = true
		answerWritten(batch)
		return nil, nil
	case !refused(err):
		return closeLost(conn, err), nil
	}
	if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
		return nil, beforeCommit(conn, err)
	}
	for _, r := range batch {
		r.res, r.err, r.out, r.write = events.AppendResult{}, nil, nil, false
	}
	if err := s.begin(ctx, conn, batch); err != nil {
		return nil, beforeCommit(conn, err)
	}
	from := 0
	for {
		failed, err := s.writeFrom(ctx, conn, batch, from)
		switch {
		case err == nil:
			committed = true
			answerWritten(batch)
			return nil, nil
		case failed >= 0 && refused(err):
			// A statement refused: that append alone is rolled back,
			// the ones after it are sent again.
			batch[failed].write, batch[failed].err = false, err
			if _, rerr := conn.Exec(ctx, "ROLLBACK TO SAVEPOINT "+savepoint(failed)); rerr != nil {
				return nil, rerr
			}
			from = failed + 1
		default:
			return closeLost(conn, err), nil
		}
	}
}

// begin begins the transaction, reads the heads and keys and plans each
// append.
func (s *Store) begin(ctx context.Context, conn *pgxpool.Conn, batch []*appendReq) error {
	used, heads, err := s.readHeads(ctx, conn, batch)
	if err != nil {
		return err
	}
	for i, r := range batch {
		if err := s.plan(ctx, conn, r, used[i], heads[r.stream]); err != nil {
			return err
		}
	}
	return nil
}

// refused is a statement PostgreSQL refused, the session going on.
func refused(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Severity == "ERROR" && (!outOfReach(err) || pe.Code == readOnlyTransaction)
}

// closeLost closes a connection that failed once the commit may have been
// sent: a FATAL (the session ended) or a lost connection can come after
// COMMIT ran, in place of its answer. Not reused: closed, its goodbye
// bounded (the socket may hang).
func closeLost(conn *pgxpool.Conn, err error) error {
	closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
	conn.Conn().Close(closeCtx)
	cancel()
	return err
}

func answerWritten(batch []*appendReq) {
	for _, r := range batch {
		if r.write {
			r.res, r.err = events.AppendResult{Events: r.out}, nil
		}
	}
}

// beforeCommit is an error met before the commit was sent: on a
// connection that broke (whatever the driver says: a reset, a truncated
// answer) nothing was written, and the database is out of reach.
func beforeCommit(conn *pgxpool.Conn, err error) error {
	if conn.Conn().IsClosed() && !errors.Is(err, events.ErrUnavailable) {
		return &unreachable{err}
	}
	return err
}

// head is a stream's head and last event (its time la, the earliest the
// next append may stamp: events.StampTime) as the first round trip read
// them.
type head struct {
	hv, lseq, lv *int64
	hh, lh, la   *string
}

// lastAt is the time of the stream's last event, zero for none.
func (h *head) lastAt() (time.Time, error) {
	if h.la == nil {
		return time.Time{}, nil
	}
	return events.ParseTime(deref(h.lseq), []byte(*h.la))
}

// readHeads begins the transaction, takes the locks (keys first, then
// streams, each in one order: two batches never wait for each other in a
// circle) and reads each key and head: a statement each, whatever the
// batch's size, in one round trip.
func (s *Store) readHeads(ctx context.Context, conn *pgxpool.Conn, batch []*appendReq) ([]*usedKey, map[string]*head, error) {
	var keyLocks, streamLocks, scopes, names []string
	for _, r := range batch {
		if r.key.Name != "" {
			keyLocks = append(keyLocks, r.key.Scope+"\n"+r.key.Name)
			scopes, names = append(scopes, r.key.Scope), append(names, r.key.Name)
		}
		streamLocks = append(streamLocks, r.stream)
	}
	slices.Sort(keyLocks)
	slices.Sort(streamLocks)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	// The batch's statements take arrays (unnest), so PostgreSQL would
	// plan each afresh on every execution (a custom plan is always
	// cheaper for a known array); planning was most of a one-append
	// commit's CPU. Their plans do not depend on the arrays: the plan
	// made once per connection serves every batch.
	b.Queue("SET LOCAL plan_cache_mode = force_generic_plan")
	if len(keyLocks) > 0 {
		b.Queue(lockAll, lockKey, keyLocks)
	}
	b.Queue(lockAll, lockStream, streamLocks)
	found := map[string]*usedKey{}
	if len(names) > 0 {
		b.Queue(selectKeys, scopes, names).Query(func(rows pgx.Rows) error {
			var sc, n string
			var u usedKey // scanned into, then copied: ForEachRow scans into the same places
			_, err := pgx.ForEachRow(rows, []any{&sc, &n, &u.stream, &u.batch, &u.fingerprint, &u.usedAt}, func() error {
				c := u
				c.found = true
				found[sc+"\n"+n] = &c
				return nil
			})
			return err
		})
	}
	heads := map[string]*head{}
	b.Queue(selectHeads, streamLocks).Query(func(rows pgx.Rows) error {
		var st string
		var h head // scanned into, then copied
		_, err := pgx.ForEachRow(rows, []any{&st, &h.hv, &h.hh, &h.lseq, &h.lv, &h.lh, &h.la}, func() error {
			c := h
			heads[st] = &c
			return nil
		})
		return err
	})
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, err
	}
	used := make([]*usedKey, len(batch))
	for i, r := range batch {
		used[i] = &usedKey{}
		if u := found[r.key.Scope+"\n"+r.key.Name]; r.key.Name != "" && u != nil {
			used[i] = u
		}
		if heads[r.stream] == nil {
			return nil, nil, fmt.Errorf("read the heads: none for %s", r.stream)
		}
	}
	return used, heads, nil
}

// plan answers an append whose key already answered, refuses one that
// does not fit its head, and makes the events of the others.
func (s *Store) plan(ctx context.Context, q querier, r *appendReq, used *usedKey, hd *head) error {
	if r.key.Name != "" {
		first, ok, err := used.answer(ctx, q, r.key, s.now(), s.keyTTL)
		var kr *events.KeyReusedError
		switch {
		case errors.As(err, &kr):
			r.err = err
			return nil
		case err != nil:
			return err
		case ok:
			r.res = events.AppendResult{Events: first, Duplicate: true}
			return nil
		}
	}
	h := events.Head{Version: deref(hd.hv), Hash: deref(hd.hh)}
	if ce := events.CheckHead(r.stream, h, hd.hv != nil, deref(hd.lseq), deref(hd.lv), deref(hd.lh)); ce != nil {
		r.err = ce
		return nil
	}
	if h.Version != r.expectedVersion {
		r.err = &events.ConflictError{Stream: r.stream, Expected: r.expectedVersion, Actual: h.Version}
		return nil
	}
	r.newStream = hd.hv == nil
	last, err := hd.lastAt()
	if err != nil {
		return fmt.Errorf("append to %s: read head: %w", r.stream, err)
	}
	at := events.StampTime(s.now(), last)
	prevHash := h.Hash
	r.out = make([]events.Event, len(r.evs))
	for i, e := range r.evs {
		ev := events.Event{Stream: r.stream, Version: h.Version + 1 + int64(i), Batch: h.Version + 1,
			Type: e.Type, SchemaVersion: e.SchemaVersion, Data: json.RawMessage(r.payloads[i]),
			RecordedAt: at, PrevHash: prevHash}
		if i == 0 {
			ev.IdempotencyKey = r.key.Name
		}
		ev.Hash = ev.ComputeHash()
		r.out[i] = ev
		prevHash = ev.Hash
	}
	r.write = true
	return nil
}

func savepoint(i int) string { return "a" + strconv.Itoa(i) }

// writeFrom sends the writes of the batch's appends from the from'th on,
// each under its savepoint, and the commit; failed is the append whose
// statement was refused (-1 if none was).
func (s *Store) writeFrom(ctx context.Context, conn *pgxpool.Conn, batch []*appendReq, from int) (failed int, err error) {
	b := &pgx.Batch{}
	done := from - 1 // the last append whose writes all succeeded
	for i := from; i < len(batch); i++ {
		r := batch[i]
		if !r.write {
			continue
		}
		b.Queue("SAVEPOINT " + savepoint(i))
		s.queueWrites(b, r)
		b.Queue("RELEASE SAVEPOINT " + savepoint(i)).Exec(func(pgconn.CommandTag) error { done = i; return nil })
	}
	b.Queue("COMMIT")
	err = conn.SendBatch(ctx, b).Close()
	if err == nil {
		return -1, nil
	}
	for i := done + 1; i < len(batch); i++ {
		if batch[i].write {
			return i, err
		}
	}
	return -1, err // the commit itself
}

// queueWrites queues an append's events, the stream's new head, its
// aliases, its key (in the same transaction as the events it answers:
// both are durable, or neither; an expired key's row is taken over) and
// the notice every listening server gets when (and only if) it commits.
func (s *Store) queueWrites(b *pgx.Batch, r *appendReq) {
	for i := range r.out {
		ev := &r.out[i]
		b.Queue(`INSERT INTO events (stream, version, batch, type, schema_version, data, recorded_at, idempotency_key, prev_hash, hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq`,
			ev.Stream, ev.Version, ev.Batch, ev.Type, ev.SchemaVersion, r.payloads[i],
			events.FormatTime(ev.RecordedAt), nullable(ev.IdempotencyKey), ev.PrevHash, ev.Hash).QueryRow(func(row pgx.Row) error {
			return row.Scan(&ev.Seq)
		})
	}
	last := r.out[len(r.out)-1]
	if r.newStream {
		b.Queue(`INSERT INTO streams (stream, version, hash) VALUES ($1, $2, $3)`, r.stream, last.Version, last.Hash)
	} else {
		b.Queue(`UPDATE streams SET version = $2, hash = $3 WHERE stream = $1`, r.stream, last.Version, last.Hash)
	}
	for _, a := range r.aliases {
		b.Queue(`INSERT INTO stream_aliases (alias, stream) VALUES ($1, $2)`, a, r.stream)
	}
	if r.key.Name != "" {
		b.Queue(`INSERT INTO idempotency_keys (scope, name, stream, batch, fingerprint, used_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (scope, name) DO UPDATE SET stream = excluded.stream, batch = excluded.batch,
			fingerprint = excluded.fingerprint, used_at = excluded.used_at`,
			r.key.Scope, r.key.Name, r.stream, last.Batch, r.key.Fingerprint, s.now())
	}
	b.Queue(`SELECT pg_notify($1, $2)`, channel, strconv.FormatInt(last.Version, 10)+" "+r.stream)
}

// observe tells Options.Observer of a commit made: the appends it wrote.
func (s *Store) observe(batch []*appendReq, took time.Duration) {
	if s.observer == nil {
		return
	}
	appends, evs := 0, 0
	for _, r := range batch {
		if r.write {
			appends++
			evs += len(r.out)
		}
	}
	if appends > 0 {
		s.observer.Committed(appends, evs, took)
	}
}
