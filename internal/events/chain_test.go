package events

import (
	"context"
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
