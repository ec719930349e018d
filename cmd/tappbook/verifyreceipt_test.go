package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/receipt"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
)

// verify --receipt: the signature against the key kept in the data folder
// (or one given), then the receipt against the history: offline where no
// database is, and a receipt of a close since reopened still holds as what
// was settled then.
func TestVerifyReceipt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "tappbook.db")
	key, err := signingKey(dir, "box.lan")
	if err != nil {
		t.Fatal(err)
	}
	st, err := openStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	svc := game.New(st)
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	g, err := svc.Create(ctx, game.NewGame{Variant: "zuger", Players: four, Unit: "0.50", Currency: "CHF"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Record(ctx, g.ID, payout.Record{Contract: "tapp", Declarer: "Anna", Points: ip(70), Tricks: ip(5)}, game.Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	closed, err := svc.Close(ctx, g.ID, tapp.Close{}, "")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "receipt.txt")
	writeReceipt(t, key, closed, file)

	verify := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, append([]string{"verify", "--receipt", file}, args...), &out, &errOut)
		return out.String(), err
	}
	// The database is in use by the service above: verify opens it read-only.
	out, err := verify("--db", db)
	if err != nil || !strings.Contains(out, "the signature of box.lan verifies") || !strings.Contains(out, "event 3 is the close") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	// Reopened, corrected, closed again: the old receipt still holds, said
	// to be what was settled then; the new one holds too.
	if _, err := svc.Reopen(ctx, g.ID, "Anna had 40", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Correct(ctx, g.ID, 1, payout.Record{Contract: "tapp", Declarer: "Anna", Points: ip(40), Tricks: ip(5)}, "recounted", game.Checks{}, ""); err != nil {
		t.Fatal(err)
	}
	again, err := svc.Close(ctx, g.ID, tapp.Close{}, "")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if out, err := verify("--db", db); err != nil || !strings.Contains(out, "reopened since (event 4)") {
		t.Fatalf("the old receipt after a reopen: %v\n%s", err, out)
	}
	newer := filepath.Join(dir, "receipt2.txt")
	writeReceipt(t, key, again, newer)
	var o bytes.Buffer
	if err := run(ctx, []string{"verify", "--receipt", newer, "--db", db}, &o, &o); err != nil || !strings.Contains(o.String(), "event 6 is the close") {
		t.Fatalf("the new receipt: %v\n%s", err, o.String())
	}

	// Offline: the key given as text, no database beside the receipt.
	elsewhere := t.TempDir()
	if out, err := verify("--key", key.VerifierKey(), "--db", filepath.Join(elsewhere, "none.db")); err == nil {
		t.Fatalf("a --db given that is not there passed: %s", out)
	}
	if out, err := verify("--key", key.VerifierKey(), "--data-dir", elsewhere); err != nil || !strings.Contains(out, "offline only") {
		// the default --db (./tappbook.db) is not in the test's folder
		t.Fatalf("offline: %v\n%s", err, out)
	}

	// One byte changed: refused. Another server's key: refused.
	b, _ := os.ReadFile(file)
	os.WriteFile(file, bytes.Replace(b, []byte("Anna 1.50"), []byte("Anna 1.51"), 1), 0o600)
	if out, err := verify("--db", db); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a changed receipt: %v\n%s", err, out)
	}
	os.WriteFile(file, b, 0o600)
	other, _ := signing.Generate("box.lan")
	if _, err := verify("--key", other.VerifierKey(), "--db", db); err == nil {
		t.Fatal("a receipt verified with another server's key")
	}
}

func writeReceipt(t *testing.T, key *signing.Key, g *tapp.State, file string) {
	t.Helper()
	r, err := receipt.Of(g)
	if err != nil {
		t.Fatal(err)
	}
	note, err := key.Sign(r.Text())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, note, 0o600); err != nil {
		t.Fatal(err)
	}
}
