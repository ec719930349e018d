package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/payee"
	"tappbook/internal/payout"
)

// verify --game ID prints the fingerprint of the game's head; with
// --fingerprint F it confirms that the history still ends there, and says
// plainly when it does not: cut (even with the head row fixed to match),
// changed, or gone on after it.
func TestVerifyGameFingerprint(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	id := evening(t, path)
	verifyGame := func(path string, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, append([]string{"verify", "--db", path, "--game", id}, args...), &out, &errOut)
		return out.String(), err
	}
	out, err := verifyGame(path)
	if err != nil {
		t.Fatalf("verify --game: %v", err)
	}
	m := regexp.MustCompile(`ends at version 9, fingerprint ([0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("verify --game printed %q, want the version and the fingerprint of the head", out)
	}
	f := m[1]
	if out, err := verifyGame(path, "--fingerprint", strings.ToUpper(strings.ReplaceAll(f, "-", ""))); err != nil || !strings.Contains(out, "still ends at "+f) {
		t.Fatalf("verify --fingerprint of the head: %q %v", out, err)
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, path string)
		says  string
	}{
		{"a deleted tail, the head fixed to match", func(t *testing.T, path string) {
			raw(t, path, `DELETE FROM events WHERE seq IN (8, 9) AND stream_id = (SELECT id FROM streams WHERE stream = '`+id+`')`,
				`UPDATE streams SET version = 7, hash = (SELECT hash FROM events WHERE stream_id = (SELECT id FROM streams WHERE stream = '`+id+`') AND version = 7) WHERE stream = '`+id+`'`)
		}, "no event of game " + id + " has the fingerprint " + f + ": its history was cut or changed at or before that point"},
		{"a deleted last event", func(t *testing.T, path string) {
			raw(t, path, `DELETE FROM events WHERE stream_id = (SELECT id FROM streams WHERE stream = '`+id+`') AND version = 9`)
		}, "events were removed"},
		{"a changed payload", func(t *testing.T, path string) {
			raw(t, path, `UPDATE events SET data = json_set(data, '$.reason', 'x') WHERE stream_id = (SELECT id FROM streams WHERE stream = '`+id+`') AND version = 6`)
		}, "version 6): its content does not match its hash"},
		{"deals recorded after it", func(t *testing.T, path string) {
			st, err := sqlite.Open(ctx, path, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if _, err := game.New(st).Record(ctx, id, payout.Record{Contract: "pass"}, game.Checks{}, ""); err != nil {
				t.Fatal(err)
			}
		}, "is version 9's, and the history goes on to version 10"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.db")
			copyFile(t, path, p)
			c.setup(t, p)
			_, err := verifyGame(p, "--fingerprint", f)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("verify --fingerprint: %v, want %q", err, c.says)
			}
		})
	}
	// What is said about paying after it (events a closed evening takes)
	// changes no money: the history still ends there.
	p := filepath.Join(t.TempDir(), "t.db")
	copyFile(t, path, p)
	st, err := sqlite.Open(ctx, p, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := game.New(st).SetPay(ctx, id, "Ben", payee.Details{PayPal: "ben"}, ""); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if out, err := verifyGame(p, "--fingerprint", f); err != nil || !strings.Contains(out, "still ends at "+f+" (version 9); the 1 events after it are about paying") {
		t.Fatalf("verify --fingerprint, a way to pay set since: %q %v", out, err)
	}
	if _, err := verifyGame(path, "--fingerprint", "nonsense"); err == nil || !strings.Contains(err.Error(), "ab12-cd34-ef56") {
		t.Fatalf("a malformed fingerprint: %v", err)
	}
	var so, se bytes.Buffer
	if err := run(ctx, []string{"verify", "--db", path, "--game", "nosuchgame"}, &so, &se); err == nil || !strings.Contains(err.Error(), "no game nosuchgame") {
		t.Fatalf("an unknown game: %v", err)
	}
	if err := run(ctx, []string{"verify", "--db", path, "--fingerprint", f}, &so, &se); err == nil || !strings.Contains(err.Error(), "--game") {
		t.Fatalf("a fingerprint without a game: %v", err)
	}
}

// copyFile copies a closed database file.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// serve refuses to start on a damaged database, and says what is wrong.
func TestServeRefusesDamagedDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	longEvening(t, path, 300)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mid := len(data) / 4096 / 2
	copy(data[mid*4096:(mid+1)*4096], bytes.Repeat([]byte{0xA5, 0x17, 0x00, 0xFF}, 1024))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Should it start after all, it stops after a while and the test fails.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var errOut bytes.Buffer
	err = run(ctx, []string{"serve", "--addr", clitest.FreeAddr(t), "--db", path}, &errOut, &errOut)
	if err == nil || !strings.Contains(err.Error(), "is damaged") || !strings.Contains(err.Error(), "page") {
		t.Fatalf("serve on a damaged database: %v, want a refusal naming the damage", err)
	}
}

// The closed evening shows the read-only link's key to whoever follows it
// by that link (never the writing id): verify --game takes either.
func TestVerifyGameByReadOnlyKey(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	id := evening(t, path)
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(st).Snapshot(ctx, id)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	f := events.Fingerprint(g.Head)
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"verify", "--db", path, "--game", g.ReadID, "--fingerprint", f}, &out, &errOut); err != nil {
		t.Fatalf("verify by the read-only key: %v", err)
	}
	if !strings.Contains(out.String(), "still ends at "+f) || strings.Contains(out.String(), id) {
		t.Fatalf("verify by the read-only key printed %q: want the fingerprint confirmed, and never the writing id", out.String())
	}
}
