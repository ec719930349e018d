package sqlite

import (
	"context"
	"os"
	"strings"
	"tappbook/internal/events"
	"testing"
	"time"
)

// bigEvent is an event of a few pages, so that a few hundred commits pass
// SQLite's default checkpoint threshold of 1,000 WAL pages.
func bigEvent(n int) events.NewEvent {
	return events.NewEvent{Type: "test.happened", SchemaVersion: 1, Data: payload{N: n, Amount: strings.Repeat("9", 9000)}}
}

// No commit checkpoints: with the checkpointer held back, a WAL of far
// more than 1,000 pages (SQLite's wal_autocheckpoint default, which would
// have copied and restarted it inside a commit) is still all there, and
// every commit told the checkpointer what it added.
func TestCommitsLeaveCheckpointsToTheCheckpointer(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	s.ckpt.stop()
	s.ckpt.db.Close()
	held := &checkpointer{kick: make(chan struct{}, 1)}
	held.every.Store(1 << 40)
	s.ckpt = held
	defer func() {
		var err error
		if s.ckpt, err = startCheckpointer(dsn(path, dsnParams(time.Second)), func() {}); err != nil {
			t.Fatal(err)
		}
		go s.ckpt.run()
	}()
	for i := range 400 {
		if _, err := s.Append(ctx, "game", int64(i), events.Key{}, bigEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := held.appends.Load(); n != 400 {
		t.Fatalf("the commits told the checkpointer of %d events, want 400", n)
	}
	var busy, frames, copied int
	if err := s.read.QueryRowContext(ctx, `PRAGMA wal_checkpoint(NOOP)`).Scan(&busy, &frames, &copied); err != nil {
		t.Fatal(err)
	}
	if frames < 1200 || copied != 0 {
		t.Fatalf("the WAL holds %d pages, %d of them copied: a commit checkpointed", frames, copied)
	}
}

// The checkpointer copies the WAL into the file by itself once enough has
// been appended: after the appends that pass its threshold, a checkpoint
// follows that finds every page of the WAL copied, and what it copied
// reads back.
func TestCheckpointerCopiesTheWAL(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	s.ckpt.every.Store(100)
	for i := range 100 {
		if _, err := s.Append(ctx, "game", int64(i), events.Key{}, bigEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	// Liveness, not speed: the bound only keeps a broken checkpointer
	// from hanging the test.
	// The events' pages (two or more each) are in the file once copied.
	for deadline := time.Now().Add(30 * time.Second); fileSize(path) < 200*4096; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint after 100 events: the file has %d bytes", fileSize(path))
		}
	}
	evs, err := s.ReadStream(ctx, "game")
	if err != nil || len(evs) != 100 {
		t.Fatal(len(evs), err)
	}
}

// The write connection does not checkpoint on its own.
func TestWriteConnectionAutocheckpointOff(t *testing.T) {
	s, _ := openTemp(t)
	var n int
	if err := s.w.conn.QueryRowContext(context.Background(), `PRAGMA wal_autocheckpoint`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("wal_autocheckpoint = %d on the write connection", n)
	}
}

// Under steady appends the WAL starts again from its beginning after each
// checkpoint, so its file stays the size of one checkpoint's worth of
// pages: left to the checkpointer alone, which never catches the last
// commit, it grew with every append (and a commit that lengthens the file
// is a slow one).
func TestWALStartsAgain(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	for i := range 3000 {
		if _, err := s.Append(ctx, "game", int64(i), events.Key{}, ev(i)); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	// 3,000 appends write some 12,000 pages (48 MB); a checkpoint's worth
	// is about checkpointFrames (4 MB).
	if fi.Size() > 4*checkpointFrames*4096 {
		t.Fatalf("the WAL file holds %.1f MB after 3,000 appends: it never started again", float64(fi.Size())/1e6)
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
