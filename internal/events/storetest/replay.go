package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"tappbook/internal/events"
)

// Replay gives a stream's events as ReadStream does; ReplayAll gives every
// stream's events in stored order, with their batches, from one snapshot,
// marking each stream's last event, while appends made meanwhile are not seen.
func replayAndReplayAll(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := open(t, h)
	for _, a := range []struct {
		stream string
		from   int64
		n      int
	}{{"a", 0, 2}, {"b", 0, 1}, {"a", 2, 1}, {"b", 1, 1}} {
		var evs []events.NewEvent
		for i := range a.n {
			evs = append(evs, ev(int(a.from)+i+1))
		}
		if _, err := s.Append(ctx, a.stream, a.from, events.Key{}, evs...); err != nil {
			t.Fatal(err)
		}
	}
	full, _ := s.ReadStream(ctx, "a")
	var got []events.Event
	keep := func(e events.Event) error {
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
	err := s.ReplayAll(ctx, func(e events.Event, last bool) error {
		if e.Seq <= seq {
			return fmt.Errorf("sequence number %d after %d", e.Seq, seq)
		}
		seq = e.Seq
		if len(seen) == 0 { // written after the snapshot began: not seen
			if _, err := s.Append(ctx, "a", 3, events.Key{}, ev(4)); err != nil {
				return err
			}
			if _, err := s.Append(ctx, "c", 0, events.Key{}, ev(1)); err != nil {
				return err
			}
		}
		seen = append(seen, fmt.Sprintf("%s%d.%d%v", e.Stream, e.Version, e.Batch, last))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each event with its batch (stream, version.batch, last): verify
	// decides each command's events again together.
	if want := "[a1.1false a2.1false b1.1false a3.3true b2.2true]"; fmt.Sprint(seen) != want {
		t.Fatalf("ReplayAll saw %v, want %s", seen, want)
	}
	stop := errors.New("stop")
	if err := s.ReplayAll(ctx, func(events.Event, bool) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("ReplayAll returned %v, want fn's error", err)
	}
}
