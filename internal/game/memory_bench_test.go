package game

import (
	"path/filepath"
	"runtime"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/payout"
)

// heldDeals is how many deals each measured evening holds: a long evening,
// as the games a busy server keeps in memory are.
const heldDeals = 700

// counts are points and tricks that go together.
var counts = [][2]int{{70, 5}, {45, 3}, {61, 4}, {100, 7}, {30, 2}, {85, 6}}

// benchDeals are deals each variant takes one after another, as long as
// an evening goes on.
var benchDeals = map[string]func(n int) payout.Record{
	"zuger": func(n int) payout.Record {
		return payout.Record{Contract: []string{"tapp", "solo", "super", "vice"}[n%4], Declarer: []string{"Anna", "Ben", "Cleo", "Dan"}[n%4],
			Points: ip(counts[n%len(counts)][0]), Tricks: ip(counts[n%len(counts)][1])}
	},
	"old-tapp": func(n int) payout.Record {
		if n%5 == 4 {
			return payout.Record{Contract: "pass"}
		}
		return payout.Record{Contract: []string{"coeurfrage", "coeursolo"}[n%2], Declarer: []string{"Anna", "Ben", "Cleo"}[n%3],
			Points: ip(counts[n%len(counts)][0]), Tricks: ip(counts[n%len(counts)][1])}
	},
	"matzlfangen": func(n int) payout.Record {
		return payout.Record{Contract: "treiben", Declarer: []string{"Anna", "Ben", "Cleo", "Dan"}[n%4], Trump: payout.Hearts,
			Points: ip(counts[n%len(counts)][0]), Tricks: ip(counts[n%len(counts)][1])}
	},
	"wuerttemberg": func(n int) payout.Record {
		return payout.Record{Contract: "suit", Declarer: []string{"Anna", "Ben", "Cleo", "Dan"}[n%4], Trump: "clubs", Points: ip(40 + (n*7)%60)}
	},
}

// liveHeap is the heap in use after a collection, in bytes.
func liveHeap() float64 {
	runtime.GC()
	runtime.GC() // the first may leave what finalizers freed
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}

// BenchmarkHeapPerDeal reports the heap a game in memory holds per deal,
// by variant: as the server that recorded the deals holds it
// (heap-B/deal-recorded) and as a server that folded the game from the
// store holds it (heap-B/deal-folded). A server holding tens of thousands
// of deals pays this for each, and its collector runs by it.
//
//	go test -run '^$' -bench BenchmarkHeapPerDeal -benchtime 1x ./internal/game/
func BenchmarkHeapPerDeal(b *testing.B) {
	for _, variant := range []string{"zuger", "old-tapp", "matzlfangen", "wuerttemberg"} {
		b.Run(variant, func(b *testing.B) {
			for b.Loop() {
				recorded, folded := heapPerDeal(b, variant)
				b.ReportMetric(recorded, "heap-B/deal-recorded")
				b.ReportMetric(folded, "heap-B/deal-folded")
			}
		})
	}
}

func heapPerDeal(b *testing.B, variant string) (recorded, folded float64) {
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "held.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	svc := New(store)
	players := []string{"Anna", "Ben", "Cleo", "Dan"}
	if variant == "old-tapp" {
		players = players[:3]
	}
	g, err := svc.Create(ctx, NewGame{Variant: variant, Players: players, Unit: "0.10", Currency: "CHF"}, "")
	if err != nil {
		b.Fatal(err)
	}
	for n := range heldDeals {
		if _, err := svc.Record(ctx, g.ID, benchDeals[variant](n), Checks{}, ""); err != nil {
			b.Fatalf("deal %d: %v", n+1, err)
		}
	}
	with := liveHeap()
	runtime.KeepAlive(svc)
	svc = nil
	without := liveHeap()
	recorded = (with - without) / heldDeals

	again := New(store)
	if _, err := again.Snapshot(ctx, g.ID); err != nil {
		b.Fatal(err)
	}
	with = liveHeap()
	runtime.KeepAlive(again)
	again = nil
	folded = (with - liveHeap()) / heldDeals
	runtime.KeepAlive(store)
	return recorded, folded
}
