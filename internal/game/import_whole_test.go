package game

import (
	"strings"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// Given a database holding a group's earlier export (evening 1 listed but
// not yet played, evening 2 with one deal), when the group's later export
// is imported (evening 1 played, evening 2 with another deal), then it is
// refused for evening 2 and writes nothing: before, evening 1 was written
// first.
func TestARefusedGroupImportWritesNoStream(t *testing.T) {
	s, _ := newService(t)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	grp := newGroup(t, s, four...)
	first := "firstevening" + strings.Repeat("a", 14)
	firstRead := "firstread" + strings.Repeat("a", 17)
	if _, err := s.Store().Append(ctx, grp.ID, grp.Version, events.Key{},
		groupEvents([]group.Payload{group.EveningJoined{Game: first, ReadID: firstRead}})...); err != nil {
		t.Fatal(err)
	}
	second := eveningOf(t, s, grp.ID, four, "")
	deal := func(r payout.Record) {
		if _, err := s.Record(ctx, second.ID, r, Checks{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	deal(tappBy("Anna", 70))
	st := freshStore(t)
	if _, _, err := Import(ctx, st, exported(t, s, grp.ID)); err != nil {
		t.Fatalf("the earlier export: %v", err)
	}
	deal(tappBy("Ben", 70))
	payloads, err := tapp.Decide(tapp.New(first), tapp.Start{ID: first, ReadID: firstRead, Variant: "zuger", Players: four, Unit: "0.50", Currency: "CHF", Group: grp.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(ctx, first, 0, events.Key{}, newEvents(payloads)...); err != nil {
		t.Fatal(err)
	}
	before, _ := st.Verify(ctx)
	_, _, err = Import(ctx, st, exported(t, s, grp.ID))
	if err == nil || !strings.Contains(err.Error(), "import "+second.ID+": it is already in this database with other events") {
		t.Fatalf("the later export: %v", err)
	}
	if after, _ := st.Verify(ctx); after.Events != before.Events {
		t.Fatalf("the refused import wrote %d events", after.Events-before.Events)
	}
}

// A file whose stream id is a read-only key here is refused: that key's
// link would open the database's stream, while the id opens the file's.
func TestImportRefusesAStreamIDThatIsAReadIDHere(t *testing.T) {
	s, _ := newService(t)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	here, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four}, "")
	if err != nil {
		t.Fatal(err)
	}
	st := freshStore(t)
	if _, _, err := Import(ctx, st, exported(t, s, here.ID)); err != nil {
		t.Fatal(err)
	}
	forger, _ := newService(t)
	id := here.ReadID
	payloads, err := tapp.Decide(tapp.New(id), tapp.Start{ID: id, ReadID: "otherread" + strings.Repeat("a", 17), Variant: "zuger", Players: four, Unit: "0.50", Currency: "CHF"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := forger.Store().Append(ctx, id, 0, events.Key{}, newEvents(payloads)...); err != nil {
		t.Fatal(err)
	}
	_, _, err = Import(ctx, st, exported(t, forger, id))
	if err == nil || !strings.Contains(err.Error(), "its id is the read-only key of "+here.ID+" in this database") {
		t.Fatalf("import: %v", err)
	}
}
