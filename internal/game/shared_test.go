package game

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"tappbook/internal/events/postgres"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/pgserver/pgtest"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// pg is this test binary's PostgreSQL server, for the tests of several
// servers on one history.
var pg pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// twoServers are two services, as in two tappbook processes, each with its
// own store on one PostgreSQL database.
func twoServers(t *testing.T) (*Service, *Service) {
	t.Helper()
	url := pg.Database(t)
	var out [2]*Service
	for i := range out {
		st, err := postgres.Open(context.Background(), url, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out[i] = New(st)
	}
	return out[0], out[1]
}

// gameOnTwoServers is a Zuger game started on a and held in memory by b
// too.
func gameOnTwoServers(t *testing.T) (a, b *Service, g *tapp.State) {
	t.Helper()
	a, b = twoServers(t)
	g, err := a.Create(context.Background(), NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	hands(t, b, g.ID)
	return a, b, g
}

func hands(t *testing.T, svc *Service, id string) int {
	t.Helper()
	st, err := svc.Snapshot(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(st.Hands())
}

// A deal recorded on one server is what the other serves next, though it
// held the game in memory; a command the other decides is decided on the
// game as stored, not on its stale copy.
func TestTwoServersNeverServeStale(t *testing.T) {
	ctx := context.Background()
	a, b := twoServers(t)
	g, err := a.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := hands(t, b, g.ID); n != 0 {
		t.Fatalf("b sees %d deals of a new game", n)
	}
	for i := 1; i <= 3; i++ {
		srv := a
		if i%2 == 0 {
			srv = b
		}
		// expected_hand as a phone that saw the other server's last deal
		// sends it: decided on a stale copy, it would be refused.
		if _, err := srv.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{ExpectedHand: ip(i)}, ""); err != nil {
			t.Fatalf("deal %d: %v", i, err)
		}
		if na, nb := hands(t, a, g.ID), hands(t, b, g.ID); na != i || nb != i {
			t.Fatalf("after deal %d: a serves %d deals, b %d", i, na, nb)
		}
	}
}

// Phones racing on two servers: one deal wins, the others are refused as
// conflicts (409), and no deal number is missing or twice.
func TestTwoServersRacing(t *testing.T) {
	ctx := context.Background()
	a, b, g := gameOnTwoServers(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for i := range 20 {
		srv := []*Service{a, b}[i%2]
		wg.Go(func() {
			_, err := srv.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{ExpectedHand: ip(1)}, "")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case problem.IsKind(err, problem.Conflict):
				conflicts++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || conflicts != 19 {
		t.Fatalf("%d recorded, %d refused; want 1 and 19", wins, conflicts)
	}
	for _, srv := range []*Service{a, b} {
		_ = srv.View(ctx, g.ID, func(st *tapp.State) error {
			if len(st.Hands()) != 1 || st.Hands()[0].Number != 1 {
				t.Fatalf("a server serves %d deals", len(st.Hands()))
			}
			return nil
		})
	}
}

// Deals with no check of their number, sent at once to two servers: each
// is recorded, as one server would record them one after the other; a
// server that loses the race to the database decides again on the game
// as it now stands instead of answering 409.
func TestTwoServersTakeTurns(t *testing.T) {
	ctx := context.Background()
	a, b, g := gameOnTwoServers(t)
	grp, err := a.Groups().CreateGroup(ctx, group.Start{Name: "Thursdays", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Groups().Snapshot(ctx, grp.ID); err != nil {
		t.Fatal(err)
	}
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		srv := []*Service{a, b}[i%2]
		wg.Go(func() {
			if _, err := srv.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
				t.Errorf("deal %d: %v", i, err)
			}
		})
		wg.Go(func() {
			if _, err := srv.Groups().RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "1"}, ""); err != nil {
				t.Errorf("payment %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	for _, srv := range []*Service{a, b} {
		st, err := srv.Snapshot(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range st.Hands() {
			if h.Number != i+1 {
				t.Fatalf("deal %d is numbered %d", i+1, h.Number)
			}
		}
		if len(st.Hands()) != n {
			t.Fatalf("a server serves %d deals, want %d", len(st.Hands()), n)
		}
		gst, err := srv.Groups().Snapshot(ctx, grp.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(gst.Payments()) != n {
			t.Fatalf("a server serves %d payments, want %d", len(gst.Payments()), n)
		}
	}
}

// A phone following a game on one server is told of a deal recorded on
// the other (LISTEN/NOTIFY), once, with the new version.
func TestFollowAcrossServers(t *testing.T) {
	ctx := context.Background()
	a, b := twoServers(t)
	g, err := a.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	hands(t, b, g.ID) // b holds the game, as a page following it does
	changes, stop := b.Follow(g.ID)
	defer stop()
	if _, err := a.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-changes:
		if v != int64(g.Version)+1 {
			t.Fatalf("b's follower was told of version %d, want %d", v, g.Version+1)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("b's follower was not told of a deal recorded on a")
	}
	// b's own deal is told to its followers once, not again by its notice.
	if _, err := b.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	if v := <-changes; v != int64(g.Version)+2 {
		t.Fatalf("told of version %d, want %d", v, g.Version+2)
	}
}

// A group is shared as a game is: a payment or an evening recorded on one
// server is what the other serves and decides on next, though it held the
// group in memory.
func TestTwoServersShareAGroup(t *testing.T) {
	ctx := context.Background()
	a, b := twoServers(t)
	grp, err := a.Groups().CreateGroup(ctx, group.Start{Name: "Thursdays", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	payments := func(srv *Service) int {
		t.Helper()
		st, err := srv.Groups().Snapshot(ctx, grp.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(st.Payments())
	}
	if n := payments(b); n != 0 { // b now holds the group in memory
		t.Fatalf("b sees %d payments of a new group", n)
	}
	for i := 1; i <= 3; i++ {
		srv := []*Service{a, b}[i%2]
		p, err := srv.Groups().RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "2"}, "")
		if err != nil || p.Payment != i {
			t.Fatalf("payment %d: %+v %v", i, p, err)
		}
		if na, nb := payments(a), payments(b); na != i || nb != i {
			t.Fatalf("after payment %d: a serves %d payments, b %d", i, na, nb)
		}
	}
	// An evening started on a lists the group's evening on b.
	g, err := a.Create(ctx, NewGame{Variant: "zuger", Group: grp.ID, Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Groups().View(ctx, grp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Group.Evenings()) != 1 || v.Group.Evenings()[0].Game != g.ID || v.Games[0] == nil {
		t.Fatalf("b's view of the group: evenings %+v", v.Group.Evenings())
	}
}
