package game

import (
	"path/filepath"
	"testing"
	"time"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// Import takes times up to ten minutes ahead of this machine's clock (two
// servers' clocks disagree a little: importClockSlop). What this server
// records after such an import must still be a history its own import
// takes: an append is stamped no earlier than its stream's last event
// (events.StampTime), never with this clock's earlier time.

// serverAhead is a service on a store of its own whose clock runs ahead
// of this machine's by skew: another server's.
func serverAhead(t *testing.T, skew time.Duration) *Service {
	t.Helper()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "ahead.db"), sqlite.Options{Now: func() time.Time { return time.Now().Add(skew) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(st)
}

// movedHere imports id's export from there into here, as moving a game
// between servers does.
func movedHere(t *testing.T, there, here *Service, id string) {
	t.Helper()
	if _, _, err := Import(ctx, here.Store(), exported(t, there, id)); err != nil {
		t.Fatalf("import from a server five minutes ahead: %v", err)
	}
}

// importsAgain exports id from s and imports it into a fresh database,
// then audits s: both must take what this server wrote.
func importsAgain(t *testing.T, s *Service, id string) {
	t.Helper()
	if _, _, err := Import(ctx, freshStore(t), exported(t, s, id)); err != nil {
		t.Fatalf("the export of what this server recorded is refused: %v", err)
	}
	if rep, err := Audit(ctx, s.Store()); err != nil || rep.Problem != "" {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}

func TestADealAfterAnImportFromAClockAheadExportsAgain(t *testing.T) {
	// given a game recorded on a server five minutes ahead, imported here
	there := serverAhead(t, 5*time.Minute)
	g, err := there.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Unit: "0.50", Currency: "CHF"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := there.Record(ctx, g.ID, tappBy("Anna", 70), Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	here, _ := newService(t)
	movedHere(t, there, here, g.ID)
	// when a deal is recorded here, within those five minutes
	if _, err := here.Record(ctx, g.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	// then the game's export imports into another database, and verify takes it
	importsAgain(t, here, g.ID)
}

func TestAGroupImportedFromAClockAheadExportsAgain(t *testing.T) {
	// given a group and an evening still open, recorded on a server five
	// minutes ahead, imported here
	there := serverAhead(t, 5*time.Minute)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	gr := newGroup(t, there, four...)
	e := eveningOf(t, there, gr.ID, four, "")
	if _, err := there.Record(ctx, e.ID, tappBy("Ben", 70), Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	here, _ := newService(t)
	movedHere(t, there, here, gr.ID)
	// when the evening is played on and closed, and a payment recorded in
	// the group, here
	if _, err := here.Record(ctx, e.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := here.Close(ctx, e.ID, tapp.Close{}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := here.Groups().RecordPayment(ctx, gr.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "1.50"}, ""); err != nil {
		t.Fatal(err)
	}
	// then the group's export, with its evening, imports into another
	// database, and verify takes it
	importsAgain(t, here, gr.ID)
}
