package events

import (
	"context"
	"sync"
	"testing"
)

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
