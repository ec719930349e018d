package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden schema")

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

type payload struct {
	N      int    `json:"n"`
	Amount string `json:"amount"`
}

func ev(n int) NewEvent {
	return NewEvent{Type: "test.happened", SchemaVersion: 1, Data: payload{N: n, Amount: fmt.Sprintf("%d.50", n)}}
}

func TestAppendReadAndReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.Append(ctx, "game-a", 0, "", ev(1), ev(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "game-b", 0, "", ev(10)); err != nil {
		t.Fatal(err)
	}
	res, err := s.Append(ctx, "game-a", 2, "", ev(3))
	if err != nil {
		t.Fatal(err)
	}
	if res.Events[0].Version != 3 || res.Events[0].Seq != 4 || res.Duplicate {
		t.Fatalf("third event of game-a: %+v", res.Events[0])
	}
	s.Close()

	s2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.ReadStream(ctx, "game-a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("after reopening, game-a has %d events, want 3", len(got))
	}
	for i, e := range got {
		var p payload
		if err := json.Unmarshal(e.Data, &p); err != nil {
			t.Fatal(err)
		}
		if e.Version != int64(i+1) || p.N != i+1 || p.Amount != fmt.Sprintf("%d.50", i+1) || e.Type != "test.happened" || e.SchemaVersion != 1 {
			t.Fatalf("event %d read back as %+v / %+v", i+1, e, p)
		}
		if time.Since(e.RecordedAt) > time.Minute || e.Hash == "" {
			t.Fatalf("event %d: recorded_at %v, hash %q", i+1, e.RecordedAt, e.Hash)
		}
	}
	if got[1].PrevHash != got[0].Hash || got[0].PrevHash != "" {
		t.Fatal("the hash chain does not link the stream's events")
	}
	var seqs []int64
	if err := s2.ReadFrom(ctx, 2, func(e Event) error { seqs = append(seqs, e.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(seqs) != "[2 3 4]" {
		t.Fatalf("ReadFrom(2) gave %v", seqs)
	}
	if v, _ := s2.StreamVersion(ctx, "game-a"); v != 3 {
		t.Fatalf("game-a version %d", v)
	}
	if evs, _ := s2.ReadStream(ctx, "nobody"); len(evs) != 0 {
		t.Fatal("an unknown stream has events")
	}
	rep, err := s2.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 4 || rep.Streams != 2 {
		t.Fatalf("verify a clean store: %+v, %v", rep, err)
	}
}

func TestConcurrentAppendsOneWins(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, "", ev(0)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for i := range 20 {
		wg.Go(func() {
			_, err := s.Append(ctx, "g", 1, "", ev(i))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case IsConflict(err):
				conflicts++
			default:
				t.Errorf("goroutine %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || conflicts != 19 {
		t.Fatalf("%d won and %d got a conflict; want 1 and 19", wins, conflicts)
	}
	got, _ := s.ReadStream(ctx, "g")
	for i, e := range got {
		if e.Version != int64(i+1) {
			t.Fatalf("versions have a gap or duplicate: %d at %d", e.Version, i)
		}
	}
	if len(got) != 2 {
		t.Fatalf("stream has %d events, want 2", len(got))
	}
}

func TestIdempotencyKey(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	first, err := s.Append(ctx, "g", 0, "k-1", ev(1), ev(2))
	if err != nil {
		t.Fatal(err)
	}
	// A retry with the same key, even one that would conflict, writes
	// nothing and gets the first answer.
	again, err := s.Append(ctx, "g", 0, "k-1", ev(1), ev(2))
	if err != nil {
		t.Fatal(err)
	}
	if !again.Duplicate || len(again.Events) != 2 || again.Events[0].Hash != first.Events[0].Hash || again.Events[1].Seq != first.Events[1].Seq {
		t.Fatalf("retry gave %+v, want the first answer %+v", again, first)
	}
	got, _ := s.ReadStream(ctx, "g")
	if len(got) != 2 {
		t.Fatalf("after a retry the stream has %d events, want 2", len(got))
	}
	if evs, ok, err := s.FindKey(ctx, "k-1"); err != nil || !ok || len(evs) != 2 {
		t.Fatalf("FindKey: %v %v %v", evs, ok, err)
	}
	if _, ok, _ := s.FindKey(ctx, "k-2"); ok {
		t.Fatal("FindKey found a key never used")
	}
}

func TestEventsCannotBeChangedOrDeleted(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, "", ev(1)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE events SET data = '{"n":2}' WHERE seq = 1`,
		`DELETE FROM events WHERE seq = 1`,
	} {
		_, err := s.conn.ExecContext(ctx, q)
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: want the append-only refusal, got %v", q, err)
		}
	}
}

// tamper runs SQL on the raw database with the guarding triggers dropped, as
// someone editing the file would.
func tamper(t *testing.T, s *Store, queries ...string) {
	t.Helper()
	ctx := context.Background()
	for _, q := range append([]string{`DROP TRIGGER events_no_update`, `DROP TRIGGER events_no_delete`}, queries...) {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestVerifyCatchesTampering(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		queries []string
		seq     int64
		reason  string
	}{
		{"changed payload", []string{`UPDATE events SET data = '{"n":2,"amount":"99.50"}' WHERE seq = 3`}, 3, "changed"},
		{"deleted row", []string{`DELETE FROM events WHERE seq = 2`}, 3, "missing or out of order"},
		{"deleted last row", []string{`DELETE FROM events WHERE seq = 5`}, 4, "removed"},
		{"reordered rows", []string{`UPDATE events SET seq = 100 WHERE seq = 2`, `UPDATE events SET seq = 2 WHERE seq = 3`, `UPDATE events SET seq = 3 WHERE seq = 100`}, 2, "missing or out of order"},
		{"swapped versions", []string{`UPDATE events SET version = 100 WHERE seq = 2`, `UPDATE events SET version = 2 WHERE seq = 3`, `UPDATE events SET version = 3 WHERE seq = 2`}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := openTemp(t)
			for i := range 5 {
				if _, err := s.Append(ctx, "g", int64(i), "", ev(i+1)); err != nil {
					t.Fatal(err)
				}
			}
			tamper(t, s, c.queries...)
			rep, err := s.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Problem == nil {
				t.Fatal("Verify found nothing wrong")
			}
			if rep.Problem.Seq != c.seq || !strings.Contains(rep.Problem.Reason, c.reason) {
				t.Fatalf("Verify named %v, want event %d (%s)", rep.Problem, c.seq, c.reason)
			}
		})
	}
}

// The schema after every migration equals the committed golden copy, so a
// migration that changes more (or less) than intended is seen in review.
func TestSchemaGolden(t *testing.T) {
	s, _ := openTemp(t)
	rows, err := s.DB().Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			t.Fatal(err)
		}
		b.WriteString(q + ";\n\n")
	}
	golden := filepath.Join("testdata", "schema.golden.sql")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/events -run TestSchemaGolden -update to write it)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("schema differs from %s:\n%s", golden, b.String())
	}
}

// Many writers on many streams at once: their appends share commits (group
// commit), every one is answered, and every stream is whole and in order.
func TestGroupCommitManyWriters(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	for w := range 40 {
		wg.Go(func() {
			stream := fmt.Sprintf("game-%d", w)
			for v := range 25 {
				if _, err := s.Append(ctx, stream, int64(v), fmt.Sprintf("k-%d-%d", w, v), ev(v)); err != nil {
					t.Errorf("%s version %d: %v", stream, v+1, err)
					return
				}
			}
		})
	}
	wg.Wait()
	rep, err := s.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 40*25 || rep.Streams != 40 {
		t.Fatalf("after concurrent writers: %+v %v", rep, err)
	}
	// A refused append in a shared commit leaves the others in it alone.
	var ok, conflicts atomic.Int32
	for w := range 40 {
		wg.Go(func() {
			_, err := s.Append(ctx, fmt.Sprintf("game-%d", w), int64(25-w%2), "", ev(99))
			switch {
			case err == nil:
				ok.Add(1)
			case IsConflict(err):
				conflicts.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 20 || conflicts.Load() != 20 {
		t.Fatalf("%d appended, %d conflicts; want 20 and 20", ok.Load(), conflicts.Load())
	}
	if rep, _ := s.Verify(ctx); rep.Problem != nil || rep.Events != 40*25+20 {
		t.Fatalf("after mixed commits: %+v", rep)
	}
}

func TestAppendAfterClose(t *testing.T) {
	s, _ := openTemp(t)
	s.Close()
	if _, err := s.Append(context.Background(), "g", 0, "", ev(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}
}

// A panic while committing (here: the clock) fails that append with an
// error and leaves the store working: the transaction is rolled back and
// nobody waits forever.
func TestPanicInACommit(t *testing.T) {
	ctx := context.Background()
	var explode atomic.Bool
	s, err := Open(ctx, filepath.Join(t.TempDir(), "p.db"), Options{Now: func() time.Time {
		if explode.CompareAndSwap(true, false) {
			panic("clock broke")
		}
		return time.Now()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Append(ctx, "g", 0, "", ev(1)); err != nil {
		t.Fatal(err)
	}
	explode.Store(true)
	if _, err := s.Append(ctx, "g", 1, "", ev(2)); err == nil || !strings.Contains(err.Error(), "clock broke") {
		t.Fatalf("append during a panic: %v", err)
	}
	if _, err := s.Append(ctx, "g", 1, "", ev(2)); err != nil {
		t.Fatalf("append after a panic: %v", err)
	}
	if rep, err := s.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 2 {
		t.Fatalf("after a panic: %+v %v", rep, err)
	}
}

// Closing while writers append (some committing themselves, some queued
// for the writer goroutine): Close waits for the commit under way and the
// queue, every append is answered, and an append acknowledged is stored;
// after Close, appends are refused.
func TestCloseWhileAppending(t *testing.T) {
	ctx := context.Background()
	for round := range 5 {
		s, path := openTemp(t)
		var wg sync.WaitGroup
		var acked [8]atomic.Int64
		for w := range acked {
			wg.Go(func() {
				for v := int64(0); ; v++ {
					_, err := s.Append(ctx, fmt.Sprintf("g%d", w), v, "", ev(int(v)))
					if errors.Is(err, ErrClosed) {
						return
					}
					if err != nil {
						t.Errorf("round %d: %v", round, err)
						return
					}
					acked[w].Store(v + 1)
				}
			})
		}
		time.Sleep(time.Duration(5+round*5) * time.Millisecond)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		again, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for w := range acked {
			v, err := again.StreamVersion(ctx, fmt.Sprintf("g%d", w))
			if err != nil || v != acked[w].Load() {
				t.Fatalf("round %d: stream g%d at version %d (%v), %d acknowledged", round, w, v, err, acked[w].Load())
			}
		}
		again.Close()
	}
}

// An append that fails in the middle of a shared commit (here: an alias
// another append in flight already took) fails alone; the appends sharing
// its commit are committed, and the store stays whole.
func TestFailureInASharedCommit(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for round := range 10 {
		var wg sync.WaitGroup
		var failed atomic.Int32
		for w := range 12 {
			wg.Go(func() {
				alias := fmt.Sprintf("alias-%d-%d", round, w)
				if w < 2 {
					alias = fmt.Sprintf("taken-%d", round) // two appends want it
				}
				_, err := s.AppendAliased(ctx, fmt.Sprintf("r%d-s%d", round, w), 0, "", []string{alias}, ev(w))
				if err != nil {
					failed.Add(1)
				}
			})
		}
		wg.Wait()
		if failed.Load() != 1 {
			t.Fatalf("round %d: %d appends failed, want exactly the one whose alias was taken", round, failed.Load())
		}
	}
	rep, err := s.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 10*11 {
		t.Fatalf("after failures in shared commits: %+v %v", rep, err)
	}
	// The heads known in memory were dropped and read again: appends go on.
	if _, err := s.Append(ctx, "r0-s5", 1, "", ev(1)); err != nil {
		t.Fatal(err)
	}
}

// The writer waits for a stream that committed a moment ago and is not in
// the batch yet; a quiet stream, or one already in the batch, is not
// waited for, and a stream quiet for longer than the window is forgotten.
func TestExpectedSiblings(t *testing.T) {
	now := time.Now()
	recent := map[string]time.Time{
		"busy":  now.Add(-siblingWindow / 2),
		"here":  now.Add(-siblingWindow / 4),
		"quiet": now.Add(-2 * siblingWindow),
	}
	batch := []*appendReq{{stream: "here"}, {stream: "here"}, {stream: "new"}}
	if n := expectedSiblings(recent, batch, now); n != 1 {
		t.Fatalf("expected %d siblings, want 1 (busy)", n)
	}
	if _, ok := recent["quiet"]; ok {
		t.Fatal("a stream quiet for longer than the window is still remembered")
	}
	if n := expectedSiblings(map[string]time.Time{}, batch, now); n != 0 {
		t.Fatalf("a lone client waits for %d others", n)
	}
}

// Replay gives a stream's events as ReadStream does, less the hashes (the
// payload lent to fn, which copies what it keeps); and
// ReplayAll gives every stream's events in stored order from one snapshot,
// marking each stream's last event, while appends made meanwhile are not
// seen.
func TestReplayAndReplayAll(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, a := range []struct {
		stream string
		from   int64
		n      int
	}{{"a", 0, 2}, {"b", 0, 1}, {"a", 2, 1}, {"b", 1, 1}} {
		evs := []NewEvent{}
		for i := range a.n {
			evs = append(evs, ev(int(a.from)+i+1))
		}
		if _, err := s.Append(ctx, a.stream, a.from, "", evs...); err != nil {
			t.Fatal(err)
		}
	}
	full, _ := s.ReadStream(ctx, "a")
	var got []Event
	keep := func(e Event) error {
		e.Data = bytes.Clone(e.Data) // lent only until fn returns
		got = append(got, e)
		return nil
	}
	if err := s.Replay(ctx, "a", keep); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(full) {
		t.Fatalf("replayed %d events, want %d", len(got), len(full))
	}
	for i, e := range got {
		f := full[i]
		if e.Version != f.Version || e.Type != f.Type || string(e.Data) != string(f.Data) || !e.RecordedAt.Equal(f.RecordedAt) || e.Stream != "a" {
			t.Fatalf("replayed %+v, stored %+v", e, f)
		}
	}

	var seen []string
	var seq int64
	err := s.ReplayAll(ctx, func(e Event, last bool) error {
		if e.Seq <= seq {
			return fmt.Errorf("sequence number %d after %d", e.Seq, seq)
		}
		seq = e.Seq
		if len(seen) == 0 { // written after the snapshot began: not seen
			if _, err := s.Append(ctx, "a", 3, "", ev(4)); err != nil {
				return err
			}
			if _, err := s.Append(ctx, "c", 0, "", ev(1)); err != nil {
				return err
			}
		}
		seen = append(seen, fmt.Sprintf("%s%d%v", e.Stream, e.Version, last))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[a1false a2false b1false a3true b2true]"; fmt.Sprint(seen) != want {
		t.Fatalf("ReplayAll saw %v, want %s", seen, want)
	}
	stop := errors.New("stop")
	if err := s.ReplayAll(ctx, func(Event, bool) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("ReplayAll returned %v, want fn's error", err)
	}
}

// The replay's own reader of recorded_at gives what time.Parse gives for
// every time formatTime writes, and leaves anything else to time.Parse.
func TestParseStoredTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		at := time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).Truncate(time.Duration(1) * []time.Duration{1, 1000, 1e6, 1e9}[rng.IntN(4)])
		s := formatTime(at)
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseStoredTime([]byte(s))
		if !ok || got != want {
			t.Fatalf("%s: got %v (%v), want %v", s, got, ok, want)
		}
	}
	for _, bad := range []string{"", "2026-11-22T20:15:04", "2026-11-22T20:15:04+01:00", "2026-02-30T20:15:04Z",
		"2026-11-22T24:15:04Z", "2026-11-22 20:15:04Z", "2026-11-22T20:15:04.Z", "2026-11-22T20:15:04.1234567890Z", "2026-1x-22T20:15:04Z"} {
		if got, ok := parseStoredTime([]byte(bad)); ok {
			t.Errorf("%q read as %v", bad, got)
		}
	}
}

// Import runs as the only writer between commits: beside appenders it
// neither waits forever nor breaks their streams, a stream that exists is
// refused with nothing written, and a changed event is refused too.
func TestImportBesideAppends(t *testing.T) {
	ctx := context.Background()
	src, _ := openTemp(t)
	for v := range 5 {
		if _, err := src.Append(ctx, "game", int64(v), "", ev(v)); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := src.ReadStream(ctx, "game")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for v := range 30 {
				if _, err := s.Append(ctx, fmt.Sprintf("w%d", w), int64(v), "", ev(v)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	if err := s.Import(ctx, evs, []string{"game-read"}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := s.Import(ctx, evs, nil); err == nil || !strings.Contains(err.Error(), "already in this database") {
		t.Fatalf("second import: %v", err)
	}
	changed := slices.Clone(evs)
	changed[2].Data = json.RawMessage(`{"n":99}`)
	changed[0].Stream, changed[1].Stream, changed[2].Stream = "copy", "copy", "copy"
	if err := s.Import(ctx, changed[:3], nil); err == nil || !strings.Contains(err.Error(), "changed after export") {
		t.Fatalf("changed import: %v", err)
	}
	rep, err := s.Verify(ctx)
	if err != nil || rep.Problem != nil || rep.Events != 4*30+5 || rep.Streams != 5 {
		t.Fatalf("after import beside appends: %+v %v", rep, err)
	}
	if id, err := s.Resolve(ctx, "game-read"); err != nil || id != "game" {
		t.Fatalf("alias: %q %v", id, err)
	}
}
