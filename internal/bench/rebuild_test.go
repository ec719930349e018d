package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// Rebuilding every game from the stored events in one pass gives each game
// exactly as the running service holds it, however the games' events are
// interleaved, with corrections, voids and old-tapp's re-scorings, on one
// worker or several.
func TestRebuildAllMatchesLive(t *testing.T) {
	ctx := context.Background()
	svc := newService(t)
	rng := rand.New(rand.NewPCG(3, 5))
	var ids []string
	for i := range 7 {
		v, players := "zuger", []string{"Anna", "Ben", "Cleo", "Dan"}
		if i%2 == 1 {
			v, players = "old-tapp", players[:3]
		}
		g, err := svc.Create(ctx, game.NewGame{Variant: v, Players: players}, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	deals := map[string]int{}
	for range 300 {
		id := ids[rng.IntN(len(ids))]
		var err error
		switch k := rng.IntN(10); {
		case k == 0 && deals[id] > 0:
			err = svc.Void(ctx, id, 1+rng.IntN(deals[id]), "misdeal", "")
		case k == 1 && deals[id] > 0:
			_, err = svc.Correct(ctx, id, 1+rng.IntN(deals[id]), dealFor(id, svc, rng), "typo", game.Checks{}, "")
		default:
			if _, err = svc.Record(ctx, id, dealFor(id, svc, rng), game.Checks{}, ""); err == nil {
				deals[id]++
			}
		}
		if err != nil && !problem.IsKind(err, problem.Conflict) {
			t.Fatal(err)
		}
	}
	live := map[string]string{}
	for _, id := range ids {
		_ = svc.View(ctx, id, func(g *tapp.State) error { live[id] = view(g); return nil })
	}
	for _, workers := range []int{1, 3} {
		var mu sync.Mutex
		rebuilt := map[string]string{}
		err := RebuildAll(ctx, svc.Store(), workers, func(g *tapp.State) error {
			mu.Lock()
			defer mu.Unlock()
			if _, dup := rebuilt[g.ID]; dup {
				return fmt.Errorf("game %s handed on twice", g.ID)
			}
			rebuilt[g.ID] = view(g)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rebuilt) != len(ids) {
			t.Fatalf("%d workers: %d games rebuilt, want %d", workers, len(rebuilt), len(ids))
		}
		for _, id := range ids {
			if rebuilt[id] != live[id] {
				t.Fatalf("%d workers: game %s rebuilt as\n%s\nlive\n%s", workers, id, rebuilt[id], live[id])
			}
		}
	}
	// fn's error stops the rebuild and is returned.
	stop := errors.New("stop")
	for _, workers := range []int{1, 3} {
		if err := RebuildAll(ctx, svc.Store(), workers, func(*tapp.State) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("%d workers: %v, want the callback's error", workers, err)
		}
	}
}

// dealFor is a random deal the game's variant accepts.
func dealFor(id string, svc *game.Service, rng *rand.Rand) payout.Record {
	var v payout.Variant
	var players []string
	_ = svc.View(context.Background(), id, func(g *tapp.State) error {
		v, players = g.Setup.Variant, g.Setup.Players
		return nil
	})
	who := players[rng.IntN(len(players))]
	if v == payout.OldTapp {
		c := []string{"coeurfrage", "coeursolo", "pass"}[rng.IntN(3)]
		if c == "pass" {
			return payout.Record{Contract: c}
		}
		return payout.Record{Contract: c, Declarer: who, Points: ip(30 + rng.IntN(60))}
	}
	return payout.Record{Contract: []string{"tapp", "solo", "super", "vice"}[rng.IntN(4)], Declarer: who,
		Points: ip(40 + rng.IntN(60)), Tricks: ip(2 + rng.IntN(5))}
}

func newService(t *testing.T) *game.Service {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "game.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return game.New(st)
}

func ip(n int) *int { return &n }

// view is what a game shows, in a form two folds can be compared by.
func view(g *tapp.State) string {
	type revision struct {
		*tapp.Revision
		Record   *payout.Record
		Deltas   []decimal.Decimal
		PotDelta decimal.Decimal
		Text     string
	}
	type hand struct {
		*tapp.Hand
		Record    payout.Record
		Deltas    []decimal.Decimal
		PotDelta  decimal.Decimal
		Text      string
		Why       json.RawMessage
		Revisions []revision
	}
	var hs []hand
	for _, h := range g.Hands() {
		res := h.Result()
		hv := hand{Hand: h, Record: h.Record(), Deltas: res.Deltas(), PotDelta: res.PotDelta(), Text: res.Text(), Why: res.ExplanationJSON()}
		for i := range h.Revisions {
			r := &h.Revisions[i]
			rv := revision{Revision: r, Record: r.Record()}
			if rr := r.Result(); rr != nil {
				rv.Deltas, rv.PotDelta, rv.Text = rr.Deltas(), rr.PotDelta(), rr.Text()
			}
			hv.Revisions = append(hv.Revisions, rv)
		}
		hs = append(hs, hv)
	}
	b, _ := json.Marshal(map[string]any{"balances": g.Balances(), "pot": g.Pot(), "hands": hs, "version": g.Version, "closed": g.Closed})
	return string(b)
}
