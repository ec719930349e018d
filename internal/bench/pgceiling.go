package bench

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// PostgreSQL's ceiling of recording over HTTP: a bare net/http handler
// that reads a deal's body, inserts a row of about a deal's size into the
// same PostgreSQL, group-committed as the store commits (what arrives
// while a commit is under way goes in the next, one transaction, one
// round trip), and answers 201 once it is durable. No server that answers
// after a durable commit on that database can record faster.

// pgGroupInserter group-commits single-row inserts on one connection.
type pgGroupInserter struct {
	conn    *pgx.Conn
	payload string

	mu    sync.Mutex
	busy  bool
	queue []chan error
}

func newPGGroupInserter(ctx context.Context, url string) (*pgGroupInserter, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["synchronous_commit"] = "on"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE bench_group (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)`); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return &pgGroupInserter{conn: conn, payload: strings.Repeat("x", 400)}, nil
}

// insert writes one row and returns once it is durable: the first caller
// to find no commit under way commits its row and then, batch after batch,
// whatever queued meanwhile.
func (g *pgGroupInserter) insert() error {
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
	go g.drain()
	return err
}

func (g *pgGroupInserter) drain() {
	for {
		g.mu.Lock()
		batch := g.queue
		if len(batch) > maxRows {
			batch = batch[:maxRows]
		}
		g.queue = g.queue[len(batch):]
		if len(batch) == 0 {
			g.busy = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		err := g.commit(len(batch))
		for _, r := range batch {
			r <- err
		}
	}
}

// maxRows bounds a commit, as the store's batch is bounded.
const maxRows = 64

// commit inserts n rows in one transaction, in one round trip.
func (g *pgGroupInserter) commit(n int) error {
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	for range n {
		b.Queue(`INSERT INTO bench_group (body) VALUES ($1)`, g.payload)
	}
	b.Queue("COMMIT")
	return g.conn.SendBatch(context.Background(), b).Close()
}

func (g *pgGroupInserter) close(ctx context.Context) {
	_, _ = g.conn.Exec(ctx, `DROP TABLE bench_group`)
	g.conn.Close(ctx)
}

// servePGCeiling serves POST /group on a loopback port until stop.
func servePGCeiling(g *pgGroupInserter) (base string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /group", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if err := g.insert(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"ok":true}` + "\n"))
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}
