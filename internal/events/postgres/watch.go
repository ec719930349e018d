package postgres

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// watcher listens on its own connection for the appends every server
// makes (NOTIFY in the append's transaction, delivered on commit) and
// hands them to the functions watching.
type watcher struct {
	mu      sync.Mutex
	fns     map[int]func(stream string, version int64)
	next    int
	cancel  context.CancelFunc
	stopped chan struct{}
}

// Watch calls fn with a stream and its new version after every append to
// the database, by any server (this one's included), until stop is called
// or the store is closed. After the listening connection was lost and
// made again, fn is called with ("", 0): appends may have been missed.
func (s *Store) Watch(fn func(stream string, version int64)) (stop func()) {
	w := &s.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fns == nil {
		w.fns = map[int]func(string, int64){}
	}
	id := w.next
	w.next++
	w.fns[id] = fn
	if w.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		w.cancel, w.stopped = cancel, make(chan struct{})
		ready := make(chan struct{})
		go w.listen(ctx, s.url, ready)
		// The first LISTEN is in place before Watch returns, so that no
		// append made after it is missed.
		select {
		case <-ready:
		case <-time.After(10 * time.Second):
		}
	}
	return func() {
		w.mu.Lock()
		delete(w.fns, id)
		w.mu.Unlock()
	}
}

// listen keeps a connection listening until ctx ends, making it again
// (after a pause) when it is lost.
func (w *watcher) listen(ctx context.Context, url string, ready chan struct{}) {
	defer close(w.stopped)
	first := true
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, url)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+channel)
		}
		if err == nil {
			if first {
				close(ready)
				first = false
			} else {
				w.deliver("", 0) // what happened meanwhile is unknown
			}
			for err == nil {
				var n *notice
				n, err = waitFor(ctx, conn)
				if err == nil {
					w.deliver(n.stream, n.version)
				}
			}
		}
		if conn != nil {
			conn.Close(context.Background())
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

type notice struct {
	stream  string
	version int64
}

// waitFor reads the next notice of an append: "VERSION STREAM".
func waitFor(ctx context.Context, conn *pgx.Conn) (*notice, error) {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return nil, err
		}
		v, stream, ok := strings.Cut(n.Payload, " ")
		version, err := strconv.ParseInt(v, 10, 64)
		if ok && err == nil {
			return &notice{stream: stream, version: version}, nil
		}
	}
}

func (w *watcher) deliver(stream string, version int64) {
	w.mu.Lock()
	fns := make([]func(string, int64), 0, len(w.fns))
	for _, fn := range w.fns {
		fns = append(fns, fn)
	}
	w.mu.Unlock()
	for _, fn := range fns {
		fn(stream, version)
	}
}

// close stops listening and waits for the listener to end.
func (w *watcher) close() {
	w.mu.Lock()
	cancel, stopped := w.cancel, w.stopped
	w.mu.Unlock()
	if cancel != nil {
		cancel()
		<-stopped
	}
}
