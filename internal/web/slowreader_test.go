package web

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// A phone that asks for a long evening's whole history and then never reads
// the answer delays nobody: readers render a snapshot with no lock held, so
// the other phones go on recording into the same game.
func TestSlowReaderDelaysNobody(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "slow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, _ := longEvening(t, st, 6000)
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	// The slow reader: asks for every deal (several MB) and reads one line.
	// A small receive window, so that the answer cannot all fit in the
	// buffers between the two.
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	conn, err := d.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /api/games/"+id+"/hands HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	status, err := bufio.NewReaderSize(conn, 16).ReadString('\n')
	if err != nil || !strings.Contains(status, "200") {
		t.Fatalf("the slow reader's answer: %q %v", status, err)
	}
	// Its answer now fills the socket buffers and the handler waits to
	// write the rest, for as long as the reader does not read.

	client := &http.Client{Timeout: 30 * time.Second} // a failure detector, not a measure
	for i := range 20 {
		resp, err := client.Post(srv.URL+"/api/games/"+id+"/hands", "application/json", strings.NewReader(`{"contract":"pass"}`))
		if err != nil {
			t.Fatalf("record %d while a reader is stalled: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("record %d: %d", i, resp.StatusCode)
		}
	}
}

// longEvening stores a Zuger evening of n deals the fast way: decided and
// folded in memory, appended in a few batches. It gives the game's id and
// its read-only id.
func longEvening(t testing.TB, st *sqlite.Store, n int) (id, readID string) {
	t.Helper()
	ctx := context.Background()
	id, readID = "aaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbb"
	s := tapp.New(id)
	var batch []events.NewEvent
	apply := func(c tapp.Command) {
		ps, err := tapp.Decide(s, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			batch = append(batch, events.NewEvent{Type: p.EventType(), SchemaVersion: tapp.SchemaVersion, Data: p})
		}
		s = evolved(t, s, ps, nil)
	}
	flush := func() {
		var aliases []string
		if s.Version == int64(len(batch)) {
			aliases = []string{readID} // the first batch starts the game
		}
		if _, err := st.AppendAliased(ctx, id, s.Version-int64(len(batch)), events.Key{}, aliases, batch...); err != nil {
			t.Fatal(err)
		}
		batch = nil
	}
	apply(tapp.Start{ID: id, ReadID: readID, Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}})
	for i := range n {
		p, tr := 40+i%60, 2+i%5
		apply(tapp.RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Ben", Points: &p, Tricks: &tr}})
		if len(batch) == 500 {
			flush()
		}
	}
	flush()
	return id, readID
}
