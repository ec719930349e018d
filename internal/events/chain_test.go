package events

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestEventsCannotBeChangedOrDeleted(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, Key{}, ev(1)); err != nil {
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
				if _, err := s.Append(ctx, "g", int64(i), Key{}, ev(i+1)); err != nil {
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

// Reading a stream checks its chain and its head: the first event at fault
// is a *ChainError, after the events before it; appending to a stream
// whose head does not point at its last event is refused the same way.
func TestChainCheckedOnRead(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		queries []string
		version int64  // the event named
		why     string // part of the reason
		read    int    // events read before it
		appends bool   // whether the stream may still be appended to
	}{
		{"changed payload", []string{`UPDATE events SET data = '{"n":2,"amount":"99.50"}' WHERE seq = 3`}, 3, "changed", 2, true},
		{"deleted event", []string{`DELETE FROM events WHERE seq = 2`}, 3, "missing or out of order", 1, true},
		{"deleted last event", []string{`DELETE FROM events WHERE seq = 5`}, 4, "events were removed", 4, false},
		{"head moved back", []string{`UPDATE streams SET version = 4, hash = (SELECT hash FROM events WHERE seq = 4) WHERE stream = 'g'`}, 5, "events were removed", 5, false},
		{"head's hash changed", []string{`UPDATE streams SET hash = (SELECT hash FROM events WHERE seq = 4) WHERE stream = 'g'`}, 5, "another hash", 5, false},
		{"head removed", []string{`DELETE FROM streams WHERE stream = 'g'`}, 5, "no head", 5, false},
		{"changed time", []string{`UPDATE events SET recorded_at = '2020-01-01T00:00:00Z' WHERE seq = 4`}, 4, "changed", 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, path := openTemp(t)
			for i := range 5 {
				if _, err := s.Append(ctx, "g", int64(i), Key{}, ev(i+1)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Append(ctx, "other", 0, Key{}, ev(1)); err != nil {
				t.Fatal(err)
			}
			tamper(t, s, c.queries...)
			s.Close()
			s, err := Open(ctx, path, Options{}) // no heads in memory: as after a restart
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			check := func(how string, err error) {
				t.Helper()
				var ce *ChainError
				if !errors.As(err, &ce) || ce.Stream != "g" || ce.Version != c.version || ce.Seq != c.version || !strings.Contains(ce.Why, c.why) {
					t.Fatalf("%s: %v, want a *ChainError naming version %d (%s)", how, err, c.version, c.why)
				}
			}
			evs, err := s.ReadStream(ctx, "g")
			check("ReadStream", err)
			if len(evs) != c.read {
				t.Fatalf("ReadStream gave %d events before the fault, want %d", len(evs), c.read)
			}
			var folded []int64
			err = s.Replay(ctx, "g", func(e Event) error { folded = append(folded, e.Version); return nil })
			check("Replay", err)
			if len(folded) != c.read {
				t.Fatalf("Replay handed on %v before the fault, want %d events", folded, c.read)
			}
			v, _ := s.StreamVersion(ctx, "g")
			_, err = s.Append(ctx, "g", v, Key{}, ev(9))
			if c.appends != (err == nil) {
				t.Fatalf("append to the stream: %v", err)
			}
			if !c.appends {
				check("Append", err)
			}
			if evs, err := s.ReadStream(ctx, "other"); err != nil || len(evs) != 1 {
				t.Fatalf("another stream: %d events, %v", len(evs), err)
			}
			if _, err := s.Append(ctx, "other", 1, Key{}, ev(2)); err != nil {
				t.Fatalf("another stream: %v", err)
			}
		})
	}
}

// A tail cut off with the head moved back to match is a whole chain: only
// a fingerprint of the head kept from before shows it (tappbook verify
// --game --fingerprint).
func TestCutTailNeedsAFingerprint(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var head string
	for i := range 5 {
		res, err := s.Append(ctx, "g", int64(i), Key{}, ev(i+1))
		if err != nil {
			t.Fatal(err)
		}
		head = res.Events[0].Hash
	}
	kept := Fingerprint(head)
	tamper(t, s, `DELETE FROM events WHERE seq > 3`, `UPDATE streams SET version = 3, hash = (SELECT hash FROM events WHERE seq = 3)`)
	evs, err := s.ReadStream(ctx, "g")
	if err != nil || len(evs) != 3 {
		t.Fatalf("the cut stream reads as %d events, %v", len(evs), err)
	}
	if Fingerprint(evs[2].Hash) == kept {
		t.Fatal("the cut history has the fingerprint kept from before")
	}
}

func TestFingerprint(t *testing.T) {
	h := "AB12cd34ef5678901234567890123456789012345678901234567890abcdef12"
	if f := Fingerprint(h); f != "ab12-cd34-ef56" {
		t.Fatalf("Fingerprint: %q", f)
	}
	for _, in := range []string{"ab12-cd34-ef56", "AB12CD34EF56", " ab12 cd34 ef56 "} {
		if f, err := ParseFingerprint(in); err != nil || f != "ab12-cd34-ef56" {
			t.Errorf("%q: %q %v", in, f, err)
		}
	}
	for _, in := range []string{"", "ab12-cd34-ef5", "ab12-cd34-ef567", "xb12-cd34-ef56"} {
		if _, err := ParseFingerprint(in); err == nil {
			t.Errorf("%q taken for a fingerprint", in)
		}
	}
}

// Open checks the file with SQLite's quick check: a damaged page or a file
// that is not SQLite is refused, and the file is left as it was.
func TestOpenRefusesDamagedFile(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	many := slices.Repeat([]NewEvent{{Type: "t", SchemaVersion: 1, Data: map[string]string{"pad": strings.Repeat("x", 500)}}}, 10)
	for i := range 40 {
		if _, err := s.Append(ctx, fmt.Sprintf("g%d", i%7), int64(i/7*10), Key{}, many...); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	mid := len(data) / page / 2
	for i := mid * page; i < (mid+1)*page; i++ {
		data[i] = byte(i * 7919)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *CorruptError
	if _, err := Open(ctx, path, Options{}); !errors.As(err, &ce) || !strings.Contains(err.Error(), fmt.Sprintf("page %d", mid+1)) {
		t.Fatalf("open a file with a damaged page: %v, want a *CorruptError naming page %d", err, mid+1)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Fatal("opening a damaged file changed it")
	}
	junk := filepath.Join(t.TempDir(), "junk.db")
	os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 1000), 0o644)
	var ns *NotStoreError
	if _, err := Open(ctx, junk, Options{}); !errors.As(err, &ns) {
		t.Fatalf("open a file that is not SQLite: %v, want a *NotStoreError", err)
	}
}
