package game

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// exported is id's export from s, unsigned, as its streams.
func exported(t *testing.T, s *Service, id string) []*archive.Stream {
	t.Helper()
	var file bytes.Buffer
	if _, err := Export(ctx, s.Store(), id, nil, &file); err != nil {
		t.Fatal(err)
	}
	streams, err := archive.ReadAll(&file)
	if err != nil {
		t.Fatal(err)
	}
	return streams
}

func freshStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "imported.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A group's file that lists another group's evening, not in the file, is
// taken (an evening never played looks the same); when that evening comes
// with its own group, the import is refused: its money would count in both
// groups' tabs.
func TestImportRefusesAnEveningTwoGroupsList(t *testing.T) {
	s, _ := newService(t)
	g2 := newGroup(t, s, "Anna", "Ben", "Cleo", "Dan")
	x := eveningOf(t, s, g2.ID, []string{"Anna", "Ben", "Cleo", "Dan"}, "")
	play(t, s, x, tappBy("Anna", 70))

	forger, _ := newService(t)
	g1 := newGroup(t, forger, "Anna", "Ben", "Cleo", "Dan")
	if _, err := forger.Store().Append(ctx, g1.ID, g1.Version, events.Key{},
		groupEvents([]group.Payload{group.EveningJoined{Game: x.ID, ReadID: x.ReadID}})...); err != nil {
		t.Fatal(err)
	}
	st := freshStore(t)
	if _, _, err := Import(ctx, st, exported(t, forger, g1.ID)); err != nil {
		t.Fatalf("a group with an evening not here: %v", err)
	}
	before, _ := st.Verify(ctx)
	_, _, err := Import(ctx, st, exported(t, s, g2.ID))
	if err == nil || !strings.Contains(err.Error(), "group "+g1.ID+" lists game "+x.ID+" as its evening, but the game names group \""+g2.ID+"\"") {
		t.Fatalf("import of the evening's own group: %v", err)
	}
	if after, _ := st.Verify(ctx); after.Events != before.Events {
		t.Fatalf("the refused import wrote %d events", after.Events-before.Events)
	}
}

// A read-only id the file gives two streams is refused before anything is
// written.
func TestImportRefusesAReadIDGivenTwice(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna", "Ben", "Cleo", "Dan")
	id := "twiceread" + strings.Repeat("a", 17)
	payloads, err := tapp.Decide(tapp.New(id), tapp.Start{ID: id, ReadID: grp.ReadID, Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Unit: "0.50", Currency: "CHF", Group: grp.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(ctx, grp.ID, grp.Version, events.Key{},
		groupEvents([]group.Payload{group.EveningJoined{Game: id, ReadID: grp.ReadID}})...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(ctx, id, 0, events.Key{}, newEvents(payloads)...); err != nil {
		t.Fatal(err)
	}
	st := freshStore(t)
	if _, _, err := Import(ctx, st, exported(t, s, grp.ID)); err == nil || !strings.Contains(err.Error(), "each id opens one stream") {
		t.Fatalf("import: %v", err)
	}
	if rep, _ := st.Verify(ctx); rep.Events != 0 {
		t.Fatalf("a refused import wrote %d events", rep.Events)
	}
}

// A read-only id that is the id of a stream here is refused: the read link
// would open that stream.
func TestImportRefusesAReadIDThatIsAStreamHere(t *testing.T) {
	s, _ := newService(t)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	here, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four}, "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four}, "")
	if err != nil {
		t.Fatal(err)
	}
	st := freshStore(t)
	if _, _, err := Import(ctx, st, exported(t, s, here.ID)); err != nil {
		t.Fatal(err)
	}
	streams := exported(t, s, g.ID)
	start := &streams[0].Events[0]
	start.Data = bytes.Replace(start.Data, []byte(g.ReadID), []byte(here.ID), 1)
	if _, _, err := Import(ctx, st, streams); err == nil || !strings.Contains(err.Error(), "is the id of a stream in this database") {
		t.Fatalf("import: %v", err)
	}
}

// An event at a schema version tappbook does not write is refused, and a
// refusal quotes the file's type, which may hold what a terminal obeys.
func TestImportRefusesSchemasAndQuotesTypes(t *testing.T) {
	s, _ := newService(t)
	g, err := s.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, g, tappBy("Anna", 70))
	streams := exported(t, s, g.ID)
	streams[0].Events[1].SchemaVersion = 2
	if _, _, err := Import(ctx, freshStore(t), streams); err == nil || !strings.Contains(err.Error(), "schema_version 2: this tappbook writes and reads 1") {
		t.Fatalf("schema 2: %v", err)
	}
	streams = exported(t, s, g.ID)
	streams[0].Events[1].Type = "\x1b[2Jhand.voided"
	if _, _, err := Import(ctx, freshStore(t), streams); err == nil || strings.Contains(err.Error(), "\x1b") || !strings.Contains(err.Error(), `"\x1b[2Jhand.voided"`) {
		t.Fatalf("a type with an escape: %q", err)
	}
}
