package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

func ip(n int) *int { return &n }

// evening fills a database with an old-tapp and a zuger evening, with a
// correction and a void, and returns the old-tapp game's id.
func evening(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st)
	g, err := svc.Create(ctx, game.NewGame{Variant: "old-tapp", Players: []string{"Anna", "Ben", "Cleo"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	recs := []payout.Record{
		{Contract: "coeurfrage", Declarer: "Ben", Points: ip(50)},
		{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(45)},
		{Contract: "pass"},
		{Contract: "coeursolo", Declarer: "Anna", Points: ip(80)},
	}
	for _, r := range recs {
		if _, err := svc.Record(ctx, g.ID, r, game.Checks{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Correct(ctx, g.ID, 1, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(70)}, "recounted", game.Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Void(ctx, g.ID, 3, "misdeal", ""); err != nil {
		t.Fatal(err)
	}
	z, _ := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: []string{"A", "B", "C", "D"}}, "")
	if _, err := svc.Record(ctx, z.ID, payout.Record{Contract: "solo", Declarer: "B", Points: ip(70), Tricks: ip(5)}, game.Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

func verifyOut(t *testing.T, path string) (string, error) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"verify", "--db", path}, &out, &errOut)
	return out.String(), err
}

// raw opens the database file as someone editing it would, with the guards
// against changes dropped.
func raw(t *testing.T, path string, queries ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append([]string{"DROP TRIGGER events_no_update", "DROP TRIGGER events_no_delete"}, queries...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestVerify(t *testing.T) {
	clean := filepath.Join(t.TempDir(), "clean.db")
	evening(t, clean)
	out, err := verifyOut(t, clean)
	if err != nil || !strings.Contains(out, "checked 11 events in 2 games") || !strings.Contains(out, "8 deals re-scored") || !strings.Contains(out, "everything matches") {
		t.Fatalf("a clean database: %q, %v", out, err)
	}
	cases := []struct {
		name    string
		queries []string
		says    string
	}{
		{"changed payload", []string{`UPDATE events SET data = json_set(data, '$.deltas.Ben', '80') WHERE seq = 3`}, "event 3 "},
		{"changed payload, another field", []string{`UPDATE events SET data = json_set(data, '$.record.points', 99) WHERE seq = 2`}, "event 2 "},
		{"deleted row", []string{`DELETE FROM events WHERE seq = 4`}, "event 5 "},
		{"deleted last row of a game", []string{`DELETE FROM events WHERE seq = (SELECT MAX(seq) FROM events)`}, "events were removed"},
		{"reordered rows", []string{`UPDATE events SET seq = 100 WHERE seq = 2`, `UPDATE events SET seq = 2 WHERE seq = 3`, `UPDATE events SET seq = 3 WHERE seq = 100`}, "event 2 "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			evening(t, path)
			raw(t, path, c.queries...)
			_, err := verifyOut(t, path)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("verify: %v, want an error naming %q", err, c.says)
			}
		})
	}
}

// A deal whose stored changes do not follow from its record, appended with
// a whole hash chain (as a buggy or dishonest writer could), is caught by
// re-scoring.
func TestVerifyRescores(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	id := evening(t, path)
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := st.ReadStream(ctx, id)
	g, _ := game.Fold(id, evs)
	res, _ := payout.Score(g.Setup, payout.Table{Dealer: g.NextDealer(), Pot: g.Pot()}, payout.Record{Contract: "pass"})
	forged, _ := tapp.NewScored(g.Setup, res)
	forged.Deltas["Anna"] = forged.Deltas["Anna"].Add(forged.Deltas["Anna"].Neg()) // the dealer "forgot" the stake
	forged.Deltas["Ben"] = forged.Deltas["Ben"].Sub(res.PotDelta)
	ev := events.NewEvent{Type: tapp.TypeHandRecorded, SchemaVersion: 1, Data: tapp.HandRecorded{Hand: 5, Dealer: g.Setup.Players[g.NextDealer()], Record: payout.Record{Contract: "pass"}, Scored: forged}}
	last, err := st.Append(ctx, id, g.Version, events.Key{}, ev)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, err = verifyOut(t, path)
	want := fmt.Sprintf("event %d ", last.Events[0].Seq)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "deal 5 scored again") {
		t.Fatalf("verify: %v, want %q and the re-scoring", err, want)
	}
}

// A backup taken while deals are being recorded is a whole, verifiable
// database.
func TestBackupWhileServing(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	id := evening(t, path)
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st)
	var wg sync.WaitGroup
	var stop atomic.Bool
	var recorded atomic.Int64
	wg.Go(func() {
		for !stop.Load() {
			if _, err := svc.Record(ctx, id, payout.Record{Contract: "pass"}, game.Checks{}, ""); err != nil {
				t.Error(err)
				return
			}
			recorded.Add(1)
		}
	})
	for recorded.Load() < 5 {
	}
	out := filepath.Join(t.TempDir(), "copy.db")
	var so, se bytes.Buffer
	err = run(ctx, []string{"backup", "--db", path, "--out", out}, &so, &se)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("backup: %v (%s)", err, se.String())
	}
	v, err := verifyOut(t, out)
	if err != nil || !strings.Contains(v, "everything matches") {
		t.Fatalf("the backup does not verify: %q %v", v, err)
	}
	if err := run(ctx, []string{"backup", "--db", path, "--out", out}, &so, &se); err == nil {
		t.Fatal("a backup overwrote an existing file")
	}
}

// export then import into another database gives the same ledger, history
// and hashes, and the read-only link still opens the game.
func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	src, id, file := exportedEvening(t)
	var so, se bytes.Buffer
	dst := filepath.Join(t.TempDir(), "dst.db")
	if err := run(ctx, []string{"import", "--db", dst, file}, &so, &se); err != nil {
		t.Fatalf("import: %v %s", err, se.String())
	}
	view := func(path string) (string, []events.Event) {
		st, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		evs, _ := st.ReadStream(ctx, id)
		g, err := game.Fold(id, evs)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Resolve(ctx, g.ReadID); got != id {
			t.Fatalf("%s: the read-only link does not open the game", path)
		}
		b, _ := json.Marshal(map[string]any{"balances": g.Balances(), "pot": g.Pot(), "hands": g.Hands(), "closed": g.Closed})
		return string(b), evs
	}
	a, aevs := view(src)
	b, bevs := view(dst)
	if a != b {
		t.Fatalf("ledger and history differ after the round trip:\n%s\n%s", a, b)
	}
	for i := range aevs {
		if aevs[i].Hash != bevs[i].Hash || !aevs[i].RecordedAt.Equal(bevs[i].RecordedAt) {
			t.Fatalf("event %d differs: %+v vs %+v", i+1, aevs[i], bevs[i])
		}
	}
	if v, err := verifyOut(t, dst); err != nil || !strings.Contains(v, "everything matches") {
		t.Fatalf("imported database: %q %v", v, err)
	}
	// Exported again, the imported game is the same file, byte for byte.
	again := filepath.Join(t.TempDir(), "again.jsonl")
	if err := run(ctx, []string{"export", id, "--db", dst, "--out", again}, &so, &se); err != nil {
		t.Fatalf("export the import: %v %s", err, se.String())
	}
	if a, b := mustRead(t, file), mustRead(t, again); !bytes.Equal(a, b) {
		t.Fatalf("the round trip changed the export:\n%s\n%s", a, b)
	}
	// Importing again, or a changed file, is refused.
	if err := run(ctx, []string{"import", "--db", dst, file}, &so, &se); err == nil {
		t.Fatal("a game was imported twice")
	}
	data, _ := os.ReadFile(file)
	changed := filepath.Join(t.TempDir(), "changed.jsonl")
	os.WriteFile(changed, bytes.Replace(data, []byte(`recounted`), []byte(`recount!!`), 1), 0o644)
	other := filepath.Join(t.TempDir(), "other.db")
	if err := run(ctx, []string{"import", "--db", other, changed}, &so, &se); err == nil || !strings.Contains(err.Error(), "changed after export") {
		t.Fatalf("a changed export: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
