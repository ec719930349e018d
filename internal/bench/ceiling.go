package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
)

// The ceilings of recording over HTTP: bare net/http handlers that read a
// deal's body, make it durable in raw SQLite (the store's settings) and
// answer 201, nothing else. No server that answers after a durable commit
// can record faster on this machine.

// GroupInserter writes single-row INSERTs of about a deal's size, and
// commits all that wait at a moment in one durable transaction, as the
// store's group commit does: the first caller to find no commit under way
// commits its own row; rows that arrive meanwhile queue, and a committer
// goroutine commits the queue batch after batch. Each caller returns only
// after its row's commit is durable.
type GroupInserter struct {
	conn    *sql.Conn
	db      *sql.DB
	insert  *sql.Stmt
	payload string

	mu    sync.Mutex
	busy  bool
	queue []chan error
	work  chan struct{}
	quit  chan struct{}
	done  chan struct{}
}

// NewGroupInserter makes a table to insert into in a new database at path.
func NewGroupInserter(path string) (*GroupInserter, error) {
	db, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	g := &GroupInserter{db: db, payload: strings.Repeat("x", 400), work: make(chan struct{}, 1),
		quit: make(chan struct{}), done: make(chan struct{})}
	if _, err = db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`); err == nil {
		if g.conn, err = db.Conn(ctx); err == nil {
			g.insert, err = g.conn.PrepareContext(ctx, `INSERT INTO t (v) VALUES (?)`)
		}
	}
	if err != nil {
		if g.conn != nil {
			g.conn.Close()
		}
		db.Close()
		return nil, err
	}
	go g.committer()
	return g, nil
}

// Insert writes one row and returns once it is durable.
func (g *GroupInserter) Insert() error {
	reply := make(chan error, 1)
	g.mu.Lock()
	if g.busy {
		g.queue = append(g.queue, reply)
		g.mu.Unlock()
		return <-reply
	}
	g.busy = true
	g.mu.Unlock()
	err := g.commit(1)
	g.mu.Lock()
	if len(g.queue) > 0 {
		g.work <- struct{}{}
	} else {
		g.busy = false
	}
	g.mu.Unlock()
	return err
}

func (g *GroupInserter) committer() {
	defer close(g.done)
	for {
		select {
		case <-g.work:
		case <-g.quit:
			return
		}
		for {
			g.mu.Lock()
			batch := g.queue
			g.queue = nil
			if len(batch) == 0 {
				g.busy = false
				g.mu.Unlock()
				break
			}
			g.mu.Unlock()
			err := g.commit(len(batch))
			for _, r := range batch {
				r <- err
			}
		}
	}
}

// commit inserts n rows in one transaction.
func (g *GroupInserter) commit(n int) error {
	ctx := context.Background()
	if _, err := g.conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	for range n {
		if _, err := g.insert.ExecContext(ctx, g.payload); err != nil {
			_, _ = g.conn.ExecContext(ctx, `ROLLBACK`)
			return err
		}
	}
	_, err := g.conn.ExecContext(ctx, `COMMIT`)
	return err
}

// Close stops the committer and closes the database.
func (g *GroupInserter) Close() error {
	close(g.quit)
	<-g.done
	return errors.Join(g.insert.Close(), g.conn.Close(), g.db.Close())
}

// ceilingHandler answers POST /one with one raw durable transaction per
// request, POST /group with a group-committed row, and POST /store/{table}
// with the deal appended to the table's stream by tappbook's own event
// store (its schema, hash chain, group commit and checkpoints, no game),
// each in its own database in dir.
func ceilingHandler(dir string) (http.Handler, func() error, error) {
	one, err := NewRawInserter(filepath.Join(dir, "ceiling-one.db"))
	if err != nil {
		return nil, nil, fmt.Errorf("ceiling: %w", err)
	}
	group, err := NewGroupInserter(filepath.Join(dir, "ceiling-group.db"))
	if err != nil {
		one.Close()
		return nil, nil, fmt.Errorf("ceiling: %w", err)
	}
	store, err := newStoreAppender(filepath.Join(dir, "ceiling-store.db"))
	if err != nil {
		group.Close()
		one.Close()
		return nil, nil, fmt.Errorf("ceiling: %w", err)
	}
	answer := func(insert func() error) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if err := insert(); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"ok":true}` + "\n"))
		}
	}
	mux := http.NewServeMux()
	mux.Handle("POST /one", answer(one.Insert))
	mux.Handle("POST /group", answer(group.Insert))
	mux.HandleFunc("POST /store/{table}", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		answer(func() error { return store.append(r.PathValue("table"), body) })(w, r)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	return mux, func() error { return errors.Join(store.st.Close(), group.Close(), one.Close()) }, nil
}

// ServeCeiling serves the ceiling handlers on ln, with their databases in
// dir, until ctx ends: what tappbook-bench starts as a process of its
// own beside `tappbook serve`.
func ServeCeiling(ctx context.Context, ln net.Listener, dir string) error {
	h, closeDBs, err := ceilingHandler(dir)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	err = srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, closeDBs())
}

// storeAppender appends each table's deals to a stream of its own in
// tappbook's event store, as a recorded deal's event, with nothing of the
// game around it: the storage part of recording.
type storeAppender struct {
	st       *sqlite.Store
	mu       sync.Mutex
	versions map[string]int64
}

func newStoreAppender(path string) (*storeAppender, error) {
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	return &storeAppender{st: st, versions: map[string]int64{}}, nil
}

// append stores body, a posted deal, as the data of the table's next event.
func (a *storeAppender) append(table string, body []byte) error {
	stream := "ceiling-table-" + table
	a.mu.Lock()
	v := a.versions[stream]
	a.mu.Unlock()
	data := json.RawMessage(`{"hand":1,"record":` + string(body) + `,"pad":"` + strings.Repeat("x", 360) + `"}`)
	if _, err := a.st.Append(context.Background(), stream, v, events.Key{}, events.NewEvent{Type: "hand.recorded", SchemaVersion: 1, Data: data}); err != nil {
		return err
	}
	a.mu.Lock()
	a.versions[stream] = v + 1
	a.mu.Unlock()
	return nil
}

// openRaw opens a database file with the settings the store writes with
// (internal/events/sqlite, Open): what SQLite itself does on this disk.
func openRaw(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+
		"?_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000&_foreign_keys=1&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, db.Ping()
}
