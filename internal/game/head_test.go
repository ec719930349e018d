package game

import (
	"context"
	"testing"

	"tappbook/internal/payout"
)

// A game folded from the store knows the hash of its last event, as a game
// kept up to date command by command does: the pages hand it to phones as
// the head they witness (web's history check).
func TestRebuildFillsHead(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)}, Checks{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := svc.Store().ReadStream(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := evs[len(evs)-1]
	live, err := svc.Snapshot(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if live.Head != last.Hash || live.Version != last.Version {
		t.Fatalf("the live game's head is %q at %d, the store's %q at %d", live.Head, live.Version, last.Hash, last.Version)
	}
	folded, err := Rebuild(ctx, svc.Store(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if folded.Head != last.Hash || folded.Version != last.Version {
		t.Fatalf("the game folded from the store has head %q at %d, want %q at %d", folded.Head, folded.Version, last.Hash, last.Version)
	}
}
