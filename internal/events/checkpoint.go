package events

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync/atomic"
)

// WAL checkpoints run on a connection of their own, off the commit path.
//
// A commit appends its pages to the WAL and syncs it; a checkpoint copies
// the WAL's pages into the database file and syncs that. SQLite's default
// (wal_autocheckpoint) runs the checkpoint inside the commit that makes the
// WAL pass 1,000 pages, so that commit, and every append waiting behind it,
// waits for it. The store turns that off on its write connection and a
// checkpointer goroutine copies the WAL after every checkpointAppends
// appended events instead, beside the writer: a PASSIVE checkpoint neither waits
// for nor blocks it. Durability is the WAL's, before and after: a
// checkpoint moves pages that are durable already, and one cut short is
// redone from the WAL on the next open.

const (
	// checkpointAppends is how many appended events the WAL takes between
	// two checkpoints: a few thousand pages at most, about SQLite's
	// default of 1,000 pages for events of a few pages each. A checkpoint syncs the file twice
	// whatever it copies, so it is not run after every commit.
	checkpointAppends = 1000
	// maxWALFrames bounds the WAL under a load that never pauses: a PASSIVE
	// checkpoint copies only what was committed when it began, and the WAL
	// starts again from its beginning only once a checkpoint has copied all
	// of it. Past this many pages (64 MB of 4 KB pages) the checkpointer
	// runs a RESTART checkpoint, which holds new commits back while it
	// finishes.
	maxWALFrames = 16384
)

// checkpointer copies the WAL into the database file after commits.
type checkpointer struct {
	db      *sql.DB
	every   int64        // checkpointAppends; fewer in tests
	appends atomic.Int64 // events committed since the last checkpoint began
	kick    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	// What the last checkpoint found and did, for tests: the pages in
	// the WAL and how many of them are in the file now.
	runs, frames, copied atomic.Int64
}

// startCheckpointer opens the checkpointer's connection to the database at
// path, with the store's settings, and starts it.
func startCheckpointer(path string, params url.Values) (*checkpointer, error) {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+params.Encode())
	if err != nil {
		return nil, fmt.Errorf("checkpointer: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("checkpointer: %w", err)
	}
	c := &checkpointer{db: db, every: checkpointAppends, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// committed tells the checkpointer that a commit added n events to the
// WAL. It never blocks.
func (c *checkpointer) committed(n int) {
	if c.appends.Add(int64(n)) < c.every {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.kick:
		case <-c.quit:
			return
		}
		c.appends.Store(0)
		// A checkpoint that fails leaves the WAL as it was, nothing lost;
		// the next one tries again. A disk that refuses it refuses commits
		// too, and Health says so.
		_, _ = c.checkpoint()
	}
}

// checkpoint copies what the WAL holds into the database file, and, when
// the WAL has grown past maxWALFrames, waits for the writer so that the
// WAL can start again from its beginning. It gives the pages the WAL holds.
func (c *checkpointer) checkpoint() (int, error) {
	ctx := context.Background()
	var busy, frames, copied int
	if err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return 0, fmt.Errorf("checkpoint: %w", err)
	}
	if frames > maxWALFrames {
		if err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(RESTART)`).Scan(&busy, &frames, &copied); err != nil {
			return 0, fmt.Errorf("checkpoint: %w", err)
		}
	}
	c.frames.Store(int64(frames))
	c.copied.Store(int64(copied))
	c.runs.Add(1)
	return frames, nil
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	close(c.quit)
	<-c.done
	return c.db.Close()
}
