package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"
)

// WAL checkpoints run on a connection of their own, off the commit path.
//
// A commit appends its pages to the WAL and syncs it; a checkpoint copies
// the WAL's pages into the database file and syncs that. SQLite's default
// (wal_autocheckpoint) runs the checkpoint inside the commit that makes the
// WAL pass 1,000 pages, so that commit, and every append waiting behind it,
// waits while the whole WAL is copied. The store turns that off on its
// write connection. A checkpointer goroutine copies the WAL after about
// checkpointFrames pages instead, beside the writer (a PASSIVE checkpoint
// neither waits for nor blocks it).
//
// The WAL starts again from its beginning only at a commit that finds all
// of it copied, and under steady writing the checkpointer never catches
// the last commit; the WAL would grow without end, and a commit that makes
// the file longer syncs its size too: appends of one table went at half
// the rate. So once the checkpointer has copied the bulk, the committer
// copies the few pages committed since, between two commits, on its own
// connection (finishCheckpoint): the next commit starts the WAL again, in
// the file's blocks as they are. Durability is the WAL's, before and after:
// a checkpoint moves pages that are durable already, and one cut short is
// redone from the WAL on the next open.

// checkpointFrames is how many pages the WAL takes between two
// checkpoints, SQLite's own default. The checkpointer counts appended
// events, not pages, so it learns from each pass how many pages an event
// has taken (a lone table's commit writes a few pages per deal, a commit
// of many tables fewer) and waits for as many events as make about this
// many pages. A checkpoint syncs the file whatever it copies, so it is not
// run after every commit.
const checkpointFrames = 1000

// The events between two checkpoints, whatever a pass learns.
const minCheckpointEvents, maxCheckpointEvents = 50, 5000

// checkpointer copies the WAL into the database file after commits, and
// looks at the files every watchEvery (look). Its connection is its own;
// the rest is atomics and channels.
type checkpointer struct {
	db      *sql.DB
	look    func()
	every   atomic.Int64 // events between two checkpoints (checkpointFrames' worth)
	appends atomic.Int64 // events committed since the last checkpoint began
	kick    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	// finish: a pass has copied the bulk of the WAL, and the committer
	// is to copy the rest (finishCheckpoint).
	finish atomic.Bool
}

// startCheckpointer opens the checkpointer's connection (dsn: the store's
// settings); run starts it.
func startCheckpointer(dsn string, look func()) (*checkpointer, error) {
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("checkpointer: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("checkpointer: %w", err)
	}
	c := &checkpointer{db: db, look: look, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	c.every.Store(checkpointFrames / 4)
	return c, nil
}

// committed tells the checkpointer that a commit added n events to the
// WAL. It never blocks.
func (c *checkpointer) committed(n int) {
	if c.appends.Add(int64(n)) < c.every.Load() {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// watchEvery is how often the checkpointer looks at the files.
const watchEvery = time.Second

func (c *checkpointer) run() {
	defer close(c.done)
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-c.kick:
		case <-tick.C:
			c.look()
			continue
		case <-c.quit:
			return
		}
		// A checkpoint that fails leaves the WAL as it was, nothing lost;
		// the next one tries again. A disk that refuses it refuses commits
		// too, and events.Health says so.
		events := c.appends.Swap(0)
		frames, err := c.checkpoint()
		if err != nil {
			continue
		}
		if frames > 0 && events > 0 {
			c.every.Store(min(max(checkpointFrames*events/int64(frames), minCheckpointEvents), maxCheckpointEvents))
		}
		// What was committed while the pass ran is copied by another pass,
		// shorter each time, until little is left for the committer to
		// finish between two commits.
		for range maxCatchUpPasses {
			if c.appends.Load() <= finishEvents {
				break
			}
			c.appends.Store(0)
			if _, err := c.checkpoint(); err != nil {
				break
			}
		}
		c.finish.Store(true)
	}
}

// A pass is followed by up to maxCatchUpPasses more while more than
// finishEvents events were committed during the last one: the committer's
// finishing copy (finishCheckpoint), on the commit path, is then short.
const maxCatchUpPasses, finishEvents = 3, 32

// checkpoint copies what the WAL holds into the database file. It gives
// the pages the WAL holds.
func (c *checkpointer) checkpoint() (int, error) {
	var busy, frames, copied int
	if err := c.db.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return 0, fmt.Errorf("checkpoint: %w", err)
	}
	return frames, nil
}

// finishDue reports, once per pass, that the committer is to finish it.
func (c *checkpointer) finishDue() bool { return c.finish.CompareAndSwap(true, false) }

// finishCheckpoint copies into the file what the WAL gained since the
// checkpointer's last pass, on the write connection between two commits,
// so that the next commit starts the WAL again from its beginning. Only
// the committer calls it. One that fails leaves the WAL as it was.
func (s *Store) finishCheckpoint() {
	var busy, frames, copied int
	_ = s.w.conn.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied)
}

// stop ends the checkpointer's passes and looks; the store closes its
// connection.
func (c *checkpointer) stop() {
	close(c.quit)
	<-c.done
}
