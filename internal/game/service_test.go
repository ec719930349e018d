package game

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

func newService(t testing.TB) (*Service, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.db")
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(st), path
}

func ip(n int) *int { return &n }

// view is what a game shows, in a form two folds can be compared by.
func view(g *tapp.State) string {
	type hand struct {
		N         int
		Dealer    int
		Record    payout.Record
		Deltas    []decimal.Decimal
		PotDelta  decimal.Decimal
		Text      string
		Ruleset   string
		Detail    json.RawMessage
		Voided    bool
		Revisions int
	}
	type handView struct {
		hand
		Why     payout.Explanation
		History []payout.Explanation
	}
	var hs []handView
	for _, h := range g.Hands() {
		res := h.Result()
		hv := handView{hand: hand{h.Number, h.Dealer, h.Record(), res.Deltas(), res.PotDelta(), res.Text(), res.Ruleset(),
			res.ExplanationJSON(), h.Voided, len(h.Revisions)}, Why: res.Explanation()}
		for _, r := range h.Revisions {
			if r.Result() != nil {
				hv.History = append(hv.History, r.Result().Explanation())
			}
		}
		hs = append(hs, hv)
	}
	b, _ := json.Marshal(map[string]any{"balances": g.Balances(), "pot": g.Pot(), "hands": hs, "version": g.Version, "closed": g.Closed})
	return string(b)
}

// replay scores the current record of every counted deal from scratch, the
// pot carrying, without the service or the stored results.
func replay(t *testing.T, g *tapp.State) ([]decimal.Decimal, decimal.Decimal) {
	t.Helper()
	bal := make([]decimal.Decimal, len(g.Setup.Players))
	pot := decimal.Zero
	for _, h := range g.Hands() {
		if h.Voided {
			// A misdeal was dealt: the dealer's stake stays in the pot
			// (rules.md "Decisions").
			stake := g.Setup.Rules.Stake
			bal[h.Dealer] = bal[h.Dealer].Sub(stake)
			pot = pot.Add(stake)
			continue
		}
		res, err := payout.Score(g.Setup, payout.Table{Dealer: g.DealerOf(h.Number), Pot: pot}, h.Record())
		if err != nil {
			t.Fatalf("replay hand %d: %v", h.Number, err)
		}
		for i := range bal {
			bal[i] = bal[i].Add(res.Deltas[i])
		}
		pot = pot.Add(res.PotDelta)
	}
	return bal, pot
}

func randomOldTapp(rng *rand.Rand, players []string) payout.Record {
	who := players[rng.IntN(len(players))]
	switch rng.IntN(5) {
	case 0:
		return payout.Record{Contract: "pass"}
	case 1:
		return payout.Record{Contract: "coeurfrage", Declarer: who, Points: ip(rng.IntN(117) + 2)}
	case 2:
		return payout.Record{Contract: "coeursolo", Declarer: who, Points: ip(rng.IntN(117) + 2)}
	case 3:
		t := true
		return payout.Record{Contract: "solo", Declarer: who, Trump: "clubs", Tout: &t, Tricks: ip(10 + rng.IntN(2))}
	}
	return payout.Record{Contract: "solo", Declarer: who, Trump: "spades", Points: ip(rng.IntN(117) + 2)}
}

// After a random sequence of records, corrections, voids and retracts: the game kept
// up to date event by event equals the game rebuilt from the store, and
// both equal a replay of the current records.
func TestRebuildEqualsIncremental(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(5) {
		svc, _ := newService(t)
		players := []string{"Anna", "Ben", "Cleo"}
		g, err := svc.Create(ctx, NewGame{Variant: "old-tapp", Players: players}, "")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 42))
		for step := range 60 {
			var err error
			var n int
			_ = svc.View(ctx, g.ID, func(g *tapp.State) error { n = len(g.Hands()); return nil })
			switch k := rng.IntN(10); {
			case k < 6 || n == 0:
				_, err = svc.Record(ctx, g.ID, randomOldTapp(rng, players), Checks{}, "")
			case k < 8:
				_, err = svc.Correct(ctx, g.ID, 1+rng.IntN(n), randomOldTapp(rng, players), "fixed", Checks{}, "")
			case k < 9:
				err = svc.Void(ctx, g.ID, 1+rng.IntN(n), "misdeal", "")
				if problem.IsKind(err, problem.Conflict) {
					err = nil // already voided
				}
			default:
				_, err = svc.Retract(ctx, g.ID, n, "typo", "")
			}
			if err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			var incremental string
			var bal []decimal.Decimal
			var pot decimal.Decimal
			_ = svc.View(ctx, g.ID, func(g *tapp.State) error {
				incremental = view(g)
				wantBal, wantPot := replay(t, g)
				bal, pot = g.Balances(), g.Pot()
				if !reflect.DeepEqual(fmt.Sprint(bal), fmt.Sprint(wantBal)) || !pot.Equal(wantPot) {
					t.Fatalf("seed %d step %d: balances %v pot %s, a replay gives %v pot %s", seed, step, bal, pot, wantBal, wantPot)
				}
				return nil
			})
			rebuilt, err := svc.fold(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if view(rebuilt) != incremental {
				t.Fatalf("seed %d step %d: rebuilt\n%s\nincremental\n%s", seed, step, view(rebuilt), incremental)
			}
			sum := pot
			for _, b := range bal {
				sum = sum.Add(b)
			}
			if !sum.IsZero() {
				t.Fatalf("balances + pot = %s", sum)
			}
		}
		// A new service on the same store folds the same game.
		fresh := New(svc.Store())
		var a, b string
		_ = svc.View(ctx, g.ID, func(g *tapp.State) error { a = view(g); return nil })
		_ = fresh.View(ctx, g.ID, func(g *tapp.State) error { b = view(g); return nil })
		if a != b {
			t.Fatal("a fresh service folds a different game")
		}
	}
}

// Two phones record the same deal with expected_hand: one wins, the others
// get a conflict, and no deal number is missing or twice.
func TestRacingPhones(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 5; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins, conflicts := 0, 0
		for range 50 {
			wg.Go(func() {
				_, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{ExpectedHand: ip(round)}, "")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
				case problem.IsKind(err, problem.Conflict):
					conflicts++
				default:
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if wins != 1 || conflicts != 49 {
			t.Fatalf("round %d: %d recorded, %d refused; want 1 and 49", round, wins, conflicts)
		}
	}
	_ = svc.View(ctx, g.ID, func(g *tapp.State) error {
		for i, h := range g.Hands() {
			if h.Number != i+1 {
				t.Fatalf("hand %d has number %d", i+1, h.Number)
			}
		}
		if len(g.Hands()) != 5 {
			t.Fatalf("%d hands, want 5", len(g.Hands()))
		}
		return nil
	})
}

func TestIdempotentRecord(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g, _ := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	rec := payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)}
	first, err := svc.Record(ctx, g.ID, rec, Checks{}, "key-1")
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.Record(ctx, g.ID, rec, Checks{}, "key-1")
	// The first answer is built from the value appended, the retry's from
	// the stored JSON: what they say must be the same.
	a, _ := json.Marshal(again)
	f, _ := json.Marshal(first)
	if err != nil || string(a) != string(f) {
		t.Fatalf("retry: %s, %v; want %s", a, err, f)
	}
	// The same key in another game is another request.
	g2, _ := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if _, err := svc.Record(ctx, g2.ID, rec, Checks{}, "key-1"); err != nil {
		t.Fatal(err)
	}
	_ = svc.View(ctx, g.ID, func(g *tapp.State) error {
		if len(g.Hands()) != 1 {
			t.Fatalf("%d hands after a retried record, want 1", len(g.Hands()))
		}
		return nil
	})
	// A key used for a record, reused for a void or another record, is
	// refused and changes nothing.
	reused := func(err error) bool { pe, ok := problem.As(err); return ok && pe.Code == "key.reused" }
	if err := svc.Void(ctx, g.ID, 1, "x", "key-1"); !reused(err) {
		t.Fatalf("a key reused for a void: %v, want key.reused", err)
	}
	if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, "key-1"); !reused(err) {
		t.Fatalf("a key reused for another deal: %v, want key.reused", err)
	}
	_ = svc.View(ctx, g.ID, func(g *tapp.State) error {
		if g.Hands()[0].Voided {
			t.Fatal("a reused key voided the deal")
		}
		return nil
	})
}

// The games in memory stay within the deal budget: the least recently used
// game nobody is using is let go, and folded again when it is wanted.
func TestMemoryBudget(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	svc.games.mu.Lock()
	svc.games.budget, svc.games.floor, svc.games.ceiling = 10, 10, 10
	svc.games.mu.Unlock()
	var ids []string
	for range 5 {
		g, err := svc.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, g.ID)
	}
	svc.games.mu.Lock()
	held, deals := len(svc.games.slots), svc.games.weight
	svc.games.mu.Unlock()
	if deals > 10 || held > 3 {
		t.Fatalf("%d games with %d deals in memory, budget 10", held, deals)
	}
	// The first game was let go; it comes back whole.
	if err := svc.View(ctx, ids[0], func(g *tapp.State) error {
		if len(g.Hands()) != 4 {
			t.Fatalf("refolded game has %d deals", len(g.Hands()))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// A reader's snapshot outlives the game's place in memory: letting the
	// game go changes nothing the reader holds.
	snap, err := svc.Snapshot(ctx, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	before := view(snap)
	svc.games.mu.Lock()
	svc.games.budget, svc.games.floor, svc.games.ceiling = 0, 0, 0
	svc.games.mu.Unlock()
	if _, err := svc.Record(ctx, ids[2], payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	_, held1 := svc.games.held(ids[1])
	if held1 {
		t.Fatal("with a budget of 0 the game was kept")
	}
	if view(snap) != before || len(snap.Hands()) != 4 {
		t.Fatal("the reader's snapshot changed when its game was let go")
	}
}
