package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// season fills a database with a group of two closed evenings and a
// payment, and gives the group's id.
func season(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st)
	g, err := svc.Groups().CreateGroup(ctx, group.Start{Name: "Thursday table", Unit: "0.50", Currency: "CHF"}, "")
	if err != nil {
		t.Fatal(err)
	}
	e, err := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: []string{"Anna", "Ben", "Cleo", "Dan"}, Group: g.ID}, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := svc.Record(ctx, e.ID, payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)}, game.Checks{}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Close(ctx, e.ID, tapp.Close{}, ""); err != nil {
			t.Fatal(err)
		}
		if e, err = svc.Again(ctx, e.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Groups().RecordPayment(ctx, g.ID, group.RecordPayment{From: "Anna", To: "Ben", Amount: "1"}, ""); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// tabOf is a group's tab as a database holds it.
func tabOf(t *testing.T, path, id string) string {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	v, err := game.New(st).Groups().View(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"tab": v.Group.Tab(v.Games), "stats": v.Group.Stats(v.Games), "payments": v.Group.Payments()})
	return string(b)
}

// verify, export and import take groups: verify checks them, export
// writes a group with its evenings, import recreates them all.
func TestGroupsThroughTheCommands(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "src.db")
	id := season(t, src)
	if v, err := verifyOut(t, src); err != nil || !strings.Contains(v, "in 3 games and 1 groups") || !strings.Contains(v, "everything matches") {
		t.Fatalf("verify: %q %v", v, err)
	}
	file := filepath.Join(t.TempDir(), "group.jsonl")
	var so, se bytes.Buffer
	if err := run(ctx, []string{"export", id, "--db", src, "--out", file}, &so, &se); err != nil {
		t.Fatalf("export: %v %s", err, se.String())
	}
	dst := filepath.Join(t.TempDir(), "dst.db")
	so.Reset()
	if err := run(ctx, []string{"import", "--db", dst, file}, &so, &se); err != nil || !strings.Contains(so.String(), "imported "+id) {
		t.Fatalf("import: %v %s %s", err, so.String(), se.String())
	}
	if a, b := tabOf(t, src, id), tabOf(t, dst, id); a != b {
		t.Fatalf("the group differs after the round trip:\n%s\n%s", a, b)
	}
	if v, err := verifyOut(t, dst); err != nil || !strings.Contains(v, "everything matches") {
		t.Fatalf("verify the import: %q %v", v, err)
	}
	// A payment changed in the database is caught by verify.
	raw(t, src, `UPDATE events SET data = replace(data, '"amount":"1"', '"amount":"9"') WHERE type = 'payment.recorded'`)
	if _, err := verifyOut(t, src); err == nil || !strings.Contains(err.Error(), "changed after it was recorded") {
		t.Fatalf("verify of a changed payment: %v", err)
	}
}
