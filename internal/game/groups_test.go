package game

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

var ctx = context.Background()

func newGroup(t *testing.T, s *Service, players ...string) *group.State {
	t.Helper()
	g, err := s.Groups().CreateGroup(ctx, group.Start{Name: "Thursday table", Players: players, Unit: "0.50", Currency: "CHF"}, "")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func eveningOf(t *testing.T, s *Service, gid string, players []string, key string) *tapp.State {
	t.Helper()
	g, err := s.Create(ctx, NewGame{Variant: "zuger", Players: players, Group: gid}, key)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func wantRefusal(t *testing.T, err error, kind problem.Kind, code string) {
	t.Helper()
	pe, ok := problem.As(err)
	if !ok || pe.Kind != kind || pe.Code != code {
		t.Fatalf("got %v, want a %s refusal %q", err, kind, code)
	}
}

func version(t *testing.T, s *Service, stream string) int64 {
	t.Helper()
	v, err := s.Store().StreamVersion(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAnEveningOfAGroup(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna", "Ben")
	g := eveningOf(t, s, grp.ID, []string{"Anna", "Ben", "Cleo", "Dan"}, "")
	// The evening plays for the group's money and names its group.
	if g.Group != grp.ID || g.UnitText != "0.50" || g.Currency != "CHF" {
		t.Fatalf("game %+v", g)
	}
	v, err := s.Groups().View(ctx, grp.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The players who were not members became members; the group lists the
	// evening with the game's read-only key.
	if got := strings.Join(v.Group.MemberNames(), ","); got != "Anna,Ben,Cleo,Dan" {
		t.Fatalf("members %s", got)
	}
	if evs := v.Group.Evenings(); len(evs) != 1 || evs[0].Game != g.ID || evs[0].ReadID != g.ReadID || v.Games[0] != g {
		t.Fatalf("evenings %+v games %v", evs, v.Games)
	}
	// A unit written differently but worth the same is the group's.
	g2, err := s.Create(ctx, NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Unit: "0.5", Currency: "chf", Group: grp.ID}, "")
	if err != nil || g2.UnitText != "0.50" {
		t.Fatalf("%v %+v", err, g2)
	}
}

func TestAnEveningOfAGroupRefused(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna")
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	for _, c := range []struct {
		ng         NewGame
		kind       problem.Kind
		code, name string
	}{
		{NewGame{Variant: "zuger", Players: four, Unit: "1"}, problem.Input, "evening.unit", "another unit"},
		{NewGame{Variant: "zuger", Players: four, Currency: "EUR"}, problem.Input, "evening.currency", "another currency"},
		{NewGame{Variant: "zuger", Players: []string{"anna", "Ben", "Cleo", "Dan"}}, problem.Input, "member.spelled", "a member spelled otherwise"},
		{NewGame{Variant: "zuger", Players: four[:3]}, problem.Input, "players.count", "a game the rules refuse"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.ng.Group = grp.ID
			_, err := s.Create(ctx, c.ng, "")
			wantRefusal(t, err, c.kind, c.code)
			// Nothing was written: the group is as it was.
			if v := version(t, s, grp.ID); v != grp.Version {
				t.Fatalf("the group moved to version %d", v)
			}
		})
	}
	_, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four, Group: "nosuchgroup"}, "")
	pe, ok := problem.As(err)
	if !ok || pe.Code != "group.unknown" || pe.Field != "group" || pe.Kind != problem.Input {
		t.Fatalf("unknown group: %v", err)
	}
	// A game's id is not a group's.
	g := eveningOf(t, s, grp.ID, four, "")
	_, err = s.Create(ctx, NewGame{Variant: "zuger", Players: four, Group: g.ID}, "")
	wantRefusal(t, err, problem.Input, "group.unknown")
}

func TestAGroupIsNotAGameNorAGameAGroup(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna")
	g := eveningOf(t, s, grp.ID, []string{"Anna", "Ben", "Cleo", "Dan"}, "")
	_, err := s.Snapshot(ctx, grp.ID)
	wantRefusal(t, err, problem.NotFound, "notfound.game")
	_, err = s.Events(ctx, grp.ID)
	wantRefusal(t, err, problem.NotFound, "notfound.game")
	_, err = s.Groups().Snapshot(ctx, g.ID)
	wantRefusal(t, err, problem.NotFound, "notfound.group")
	_, err = s.Groups().Events(ctx, g.ID)
	wantRefusal(t, err, problem.NotFound, "notfound.group")
	_, err = s.Groups().ResolveRead(ctx, g.ReadID)
	wantRefusal(t, err, problem.NotFound, "notfound.group")
	if id, err := s.Groups().ResolveRead(ctx, grp.ReadID); err != nil || id != grp.ID {
		t.Fatalf("resolve %q %v", id, err)
	}
}

// A repeated start with its Idempotency-Key gives the same evening and
// lists it once.
func TestAnEveningStartedTwiceWithOneKey(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	a := eveningOf(t, s, grp.ID, four, "k1")
	b := eveningOf(t, s, grp.ID, four, "k1")
	if a.ID != b.ID {
		t.Fatalf("two games %s %s", a.ID, b.ID)
	}
	st, _ := s.Groups().Snapshot(ctx, grp.ID)
	if len(st.Evenings()) != 1 {
		t.Fatalf("%d evenings", len(st.Evenings()))
	}
}

// A start cut short after the group's join (a crash between the two
// appends) leaves an evening never played, which nothing counts; the same
// request repeated with its key finishes it with the ids the join names.
func TestAnEveningCutShortAndFinished(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna", "Ben", "Cleo", "Dan")
	// What startEvening appends first, and then no more: the join, with the
	// key of the request eveningOf sends and ids tappbook makes.
	game, read := must[string](t)(newID()), must[string](t)(newID())
	key, err := idemKey(grp.ID+":evening", "k9", "evening", NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Group: grp.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(ctx, grp.ID, grp.Version, key,
		groupEvents([]group.Payload{group.EveningJoined{Game: game, ReadID: read}})...); err != nil {
		t.Fatal(err)
	}
	s = New(s.Store()) // the process that crashed is started again
	v, err := s.Groups().View(ctx, grp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Games) != 1 || v.Games[0] != nil {
		t.Fatalf("games %v", v.Games)
	}
	if tab := v.Group.Tab(v.Games); tab.Evenings != 0 || len(tab.Transfers) != 0 {
		t.Fatalf("tab %+v", tab)
	}
	if rep, err := Audit(ctx, s.Store()); err != nil || rep.Problem != "" {
		t.Fatalf("audit of a start cut short: %+v %v", rep, err)
	}
	g := eveningOf(t, s, grp.ID, []string{"Anna", "Ben", "Cleo", "Dan"}, "k9")
	if g.ID != game || g.ReadID != read || g.Group != grp.ID {
		t.Fatalf("finished as %+v", g)
	}
	if id, _ := s.ResolveRead(ctx, read); id != game {
		t.Fatalf("read key resolves to %q", id)
	}
	v, _ = s.Groups().View(ctx, grp.ID)
	if len(v.Group.Evenings()) != 1 || v.Games[0] == nil {
		t.Fatalf("evenings %+v", v.Group.Evenings())
	}
}

func TestPaymentsThroughTheService(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna", "Ben")
	gs := s.Groups()
	p, err := gs.RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "3.50", Note: "cash"}, "pay-1")
	if err != nil || p.Payment != 1 || !p.Amount.Equal(decimal.RequireFromString("3.5")) {
		t.Fatalf("%+v %v", p, err)
	}
	// Repeated with its key: the first answer, nothing new.
	again, err := gs.RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "3.50", Note: "cash"}, "pay-1")
	if err != nil || again.Payment != 1 {
		t.Fatalf("%+v %v", again, err)
	}
	if v := version(t, s, grp.ID); v != grp.Version+1 {
		t.Fatalf("version %d", v)
	}
	// The key of a payment reused for a void is refused (bound to its request).
	wantRefusal(t, gs.VoidPayment(ctx, grp.ID, 1, "mistake", "pay-1"), problem.Input, "key.reused")
	if err := gs.VoidPayment(ctx, grp.ID, 1, "mistake", ""); err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, gs.VoidPayment(ctx, grp.ID, 1, "mistake", ""), problem.Conflict, "conflict.payment-voided")
	_, err = gs.RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Zoe", Amount: "1"}, "")
	wantRefusal(t, err, problem.Input, "payment.not-member")
	_, err = gs.RecordPayment(ctx, "nosuchgroup", group.RecordPayment{From: "Ben", To: "Anna", Amount: "1"}, "")
	wantRefusal(t, err, problem.NotFound, "notfound.group")
}

// play records a few deals of an evening and closes it.
func play(t *testing.T, s *Service, g *tapp.State, recs ...payout.Record) {
	t.Helper()
	for _, r := range recs {
		if _, err := s.Record(ctx, g.ID, r, Checks{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Close(ctx, g.ID, tapp.Close{}, ""); err != nil {
		t.Fatal(err)
	}
}

func tappBy(who string, points int) payout.Record {
	tricks := 5
	return payout.Record{Contract: "tapp", Declarer: who, Points: &points, Tricks: &tricks}
}

// season plays a group of two closed evenings and an open one, with
// payments, and gives the group's id.
func season(t *testing.T, s *Service) string {
	t.Helper()
	grp := newGroup(t, s, "Anna", "Ben", "Cleo", "Dan")
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	play(t, s, eveningOf(t, s, grp.ID, four, ""), tappBy("Anna", 70), tappBy("Ben", 40))
	next, err := s.Again(ctx, s.mustEvenings(t, grp.ID)[0], "")
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, next, tappBy("Cleo", 80))
	if _, err := s.Create(ctx, NewGame{Variant: "wuerttemberg", Players: []string{"Eva", "Anna", "Ben"}, Group: grp.ID}, ""); err != nil {
		t.Fatal(err)
	}
	gs := s.Groups()
	if _, err := gs.RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "1.50"}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := gs.RecordPayment(ctx, grp.ID, group.RecordPayment{From: "Dan", To: "Cleo", Amount: "2"}, ""); err != nil {
		t.Fatal(err)
	}
	if err := gs.VoidPayment(ctx, grp.ID, 2, "never paid", ""); err != nil {
		t.Fatal(err)
	}
	return grp.ID
}

func (s *Service) mustEvenings(t *testing.T, gid string) []string {
	t.Helper()
	st, err := s.Groups().Snapshot(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range st.Evenings() {
		out = append(out, e.Game)
	}
	return out
}

// groupView is what a group shows, in a form two folds can be compared by.
func groupView(t *testing.T, s *Service, gid string) string {
	t.Helper()
	v, err := s.Groups().View(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, g := range v.Games {
		games = append(games, view(g))
	}
	b, err := json.Marshal(map[string]any{"members": v.Group.Members(), "evenings": v.Group.Evenings(), "payments": v.Group.Payments(),
		"name": v.Group.Name, "unit": v.Group.UnitText, "version": v.Group.Version,
		"tab": v.Group.Tab(v.Games), "stats": v.Group.Stats(v.Games), "games": games})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAgainPassesTheDealOn(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s)
	first, err := s.Create(ctx, NewGame{Variant: "wuerttemberg", Players: []string{"Anna", "Ben", "Cleo"}, Group: grp.ID,
		Rules: map[string]json.RawMessage{"cards": []byte("32"), "values": []byte(`{"suit": 7}`)}}, "")
	if err != nil {
		t.Fatal(err)
	}
	// Nobody dealt yet: the next evening would keep Anna first.
	if seats := strings.Join(NextSeats(first), ","); seats != "Anna,Ben,Cleo" {
		t.Fatalf("after an evening nobody dealt in: %s", seats)
	}
	if _, err := s.Record(ctx, first.ID, payout.Record{Contract: "suit", Declarer: "Anna", Trump: "clubs", Points: ip(70)}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	next, err := s.Again(ctx, first.ID, "again-1")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(next.Setup.Players, ","); got != "Ben,Cleo,Anna" {
		t.Fatalf("seats %s: Ben, after Anna, deals first", got)
	}
	if next.Group != grp.ID || next.Setup.Rules.Cards != 32 || !next.Setup.Rules.Values["suit"].Equal(decimal.NewFromInt(7)) || next.UnitText != "0.50" {
		t.Fatalf("next evening %+v", next)
	}
	if again, _ := s.Again(ctx, first.ID, "again-1"); again.ID != next.ID {
		t.Fatal("a repeated again started another evening")
	}
	// An evening of no group starts one of no group.
	lone, _ := s.Create(ctx, NewGame{Variant: "zuger", Players: []string{"A", "B", "C", "D"}}, "")
	if _, err := s.Record(ctx, lone.ID, payout.Record{Contract: "pass"}, Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Again(ctx, lone.ID, ""); err != nil || n.Group != "" || n.Setup.Players[0] != "B" {
		t.Fatalf("%+v %v", n, err)
	}
}

// A group and its evenings read afresh from the store — by a new service,
// from a backup, from an export imported elsewhere — are the group as it
// was: the same events, members, payments, tab and statistics.
func TestAGroupRebuiltBackedUpExportedAndImported(t *testing.T) {
	s, path := newService(t)
	gid := season(t, s)
	want := groupView(t, s, gid)

	fresh := New(s.Store())
	if got := groupView(t, fresh, gid); got != want {
		t.Fatalf("rebuilt\n%s\nwant\n%s", got, want)
	}

	backup := filepath.Join(filepath.Dir(path), "backup.db")
	if err := sqlite.Backup(ctx, path, backup); err != nil {
		t.Fatal(err)
	}
	bst, err := sqlite.Open(ctx, backup, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bst.Close()
	if got := groupView(t, New(bst), gid); got != want {
		t.Fatalf("from the backup\n%s\nwant\n%s", got, want)
	}

	var file bytes.Buffer
	n, err := Export(ctx, s.Store(), gid, nil, &file)
	if err != nil {
		t.Fatal(err)
	}
	ist, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "imported.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ist.Close()
	id, m, err := importFile(ctx, ist, bytes.NewReader(file.Bytes()))
	if err != nil || id != gid || m != n {
		t.Fatalf("import: %s %d of %d: %v", id, m, n, err)
	}
	imported := New(ist)
	if got := groupView(t, imported, gid); got != want {
		t.Fatalf("imported\n%s\nwant\n%s", got, want)
	}
	// Every event is as it was, with its time and hash, and the read-only
	// keys open the same streams.
	for _, stream := range append([]string{gid}, s.mustEvenings(t, gid)...) {
		a, _ := s.Store().ReadStream(ctx, stream)
		b, _ := ist.ReadStream(ctx, stream)
		for i := range a {
			a[i].Seq, b[i].Seq, a[i].IdempotencyKey = 0, 0, ""
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("stream %s differs after the round trip", stream)
		}
	}
	st, _ := s.Groups().Snapshot(ctx, gid)
	if id, err := imported.Groups().ResolveRead(ctx, st.ReadID); err != nil || id != gid {
		t.Fatalf("read key: %q %v", id, err)
	}
	if rep, err := Audit(ctx, ist); err != nil || rep.Problem != "" || rep.Groups != 1 || rep.Games != 3 {
		t.Fatalf("audit of the import: %+v %v", rep, err)
	}
	// Importing again writes nothing and says so, as for a game.
	if _, _, err := importFile(ctx, ist, bytes.NewReader(file.Bytes())); err == nil || !strings.Contains(err.Error(), "with the same events: there is nothing to import") {
		t.Fatalf("import again: %v", err)
	}
	// An import cut short after the group (the order tappbook writes in)
	// is finished by importing again.
	part, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "part.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer part.Close()
	groupOnly := file.Bytes()[:bytes.Index(file.Bytes(), []byte(`"type":"game.started"`))]
	groupOnly = groupOnly[:bytes.LastIndexByte(groupOnly, '\n')+1]
	if _, _, err := importFile(ctx, part, bytes.NewReader(groupOnly)); err != nil {
		t.Fatalf("import the group alone: %v", err)
	}
	if _, _, err := importFile(ctx, part, bytes.NewReader(file.Bytes())); err != nil {
		t.Fatalf("finish the import: %v", err)
	}
	if got := groupView(t, New(part), gid); got != want {
		t.Fatalf("finished import\n%s\nwant\n%s", got, want)
	}
}

func TestImportRefusesAGroupFileThatDoesNotAddUp(t *testing.T) {
	s, _ := newService(t)
	gid := season(t, s)
	var file bytes.Buffer
	if _, err := Export(ctx, s.Store(), gid, nil, &file); err != nil {
		t.Fatal(err)
	}
	// A game of no group slipped into the file.
	lone, _ := s.Create(ctx, NewGame{Variant: "zuger", Players: []string{"A", "B", "C", "D"}}, "")
	if _, err := Export(ctx, s.Store(), lone.ID, nil, &file); err != nil {
		t.Fatal(err)
	}
	ist, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "imported.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ist.Close()
	if _, _, err := importFile(ctx, ist, bytes.NewReader(file.Bytes())); err == nil || !strings.Contains(err.Error(), "not an evening of group") {
		t.Fatalf("import: %v", err)
	}
	if rep, _ := ist.Verify(ctx); rep.Events != 0 {
		t.Fatalf("a refused import wrote %d events", rep.Events)
	}
}

func TestAuditChecksGroups(t *testing.T) {
	s, _ := newService(t)
	season(t, s)
	rep, err := Audit(ctx, s.Store())
	if err != nil || rep.Problem != "" || rep.Groups != 1 || rep.Games != 3 {
		t.Fatalf("audit: %+v %v", rep, err)
	}
	// A game that names a group that does not list it, with ids tappbook
	// makes (verify decides its start again).
	grp := newGroup(t, s, "Anna")
	stray, strayRead := must[string](t)(newID()), must[string](t)(newID())
	payloads, err := tapp.Decide(tapp.New(stray), tapp.Start{ID: stray, ReadID: strayRead, Variant: "zuger", Players: []string{"A", "B", "C", "D"}, Group: grp.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(ctx, stray, 0, events.Key{}, newEvents(payloads)...); err != nil {
		t.Fatal(err)
	}
	rep, err = Audit(ctx, s.Store())
	if err != nil || !strings.Contains(rep.Problem, "game "+stray+" is an evening of group "+grp.ID+", which does not list it") {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}

func TestAuditFindsAGroupEventThatDoesNotFold(t *testing.T) {
	s, _ := newService(t)
	grp := newGroup(t, s, "Anna", "Ben")
	// Written past the decisions: a payment from a non-member.
	bad := group.PaymentRecorded{Payment: 1, From: "Zoe", To: "Anna", Amount: decimal.NewFromInt(1)}
	if _, err := s.Store().Append(ctx, grp.ID, grp.Version, events.Key{}, groupEvents([]group.Payload{bad})...); err != nil {
		t.Fatal(err)
	}
	rep, err := Audit(ctx, s.Store())
	// The audit folds a group as it decides it again, so the decision
	// refuses the payment before the fold would: in the words import
	// uses for the same event.
	if err != nil || !strings.Contains(rep.Problem, "group "+grp.ID+", version 4") || !strings.Contains(rep.Problem, `"Zoe" is not a member of this group`) {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}

// importFile reads an export and imports what it holds, as tappbook import
// does.
func importFile(ctx context.Context, store *sqlite.Store, r io.Reader) (string, int, error) {
	streams, err := archive.ReadAll(r)
	if err != nil {
		return "", 0, err
	}
	return Import(ctx, store, streams)
}

// A group, or an evening, stored with a unit finer than its currency before
// such units were refused goes on: its next evening and "again" keep the
// unit played for; a new game naming it is still refused.
func TestAUnitStoredFinerThanItsCurrencyGoesOn(t *testing.T) {
	s, _ := newService(t)
	id := "oldgroup"
	stored := []group.Payload{group.Started{Name: "Old table", Unit: "0.125", Currency: "CHF", ReadID: "oldgroupread"},
		group.MemberAdded{Name: "Anna"}, group.MemberAdded{Name: "Ben"}, group.MemberAdded{Name: "Cleo"}, group.MemberAdded{Name: "Dan"}}
	if _, err := s.Store().Append(ctx, id, 0, events.Key{}, groupEvents(stored)...); err != nil {
		t.Fatal(err)
	}
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	g := eveningOf(t, s, id, four, "")
	if g.UnitText != "0.125" || g.Currency != "CHF" {
		t.Fatalf("the group's evening plays for %s %s", g.UnitText, g.Currency)
	}
	if _, err := s.Close(ctx, g.ID, tapp.Close{}, ""); err != nil {
		t.Fatal(err)
	}
	again, err := s.Again(ctx, g.ID, "")
	if err != nil || again.UnitText != "0.125" {
		t.Fatalf("again: %v %v", again, err)
	}
	// An evening of no group, stored so.
	payloads, err := tapp.Decide(tapp.New("oldgame"), tapp.Start{ID: "oldgame", ReadID: "oldgameread", Variant: "zuger", Players: four, Unit: "0.5", Currency: "JPY", UnitKept: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(ctx, "oldgame", 0, events.Key{}, newEvents(payloads)...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Close(ctx, "oldgame", tapp.Close{}, ""); err != nil {
		t.Fatal(err)
	}
	if again, err := s.Again(ctx, "oldgame", ""); err != nil || again.UnitText != "0.5" || again.Currency != "JPY" {
		t.Fatalf("again after an evening of 0.5 JPY: %v %v", again, err)
	}
	if _, err := s.Create(ctx, NewGame{Variant: "zuger", Players: four, Unit: "0.125", Currency: "CHF"}, ""); !isCode(err, "unit.places") {
		t.Fatalf("a new game of 0.125 CHF: %v", err)
	}
}

func isCode(err error, code string) bool {
	pe, ok := problem.As(err)
	return ok && pe.Code == code
}
