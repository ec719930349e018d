package events

import (
	"context"
	"sync"
	"testing"
)

func TestConcurrentAppendsOneWins(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Append(ctx, "g", 0, Key{}, ev(0)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for i := range 20 {
		wg.Go(func() {
			_, err := s.Append(ctx, "g", 1, Key{}, ev(i))
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
