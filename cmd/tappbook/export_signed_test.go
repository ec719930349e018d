package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/signing"
)

// importWith runs tappbook import with args, and gives what it printed.
func importWith(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var so, se bytes.Buffer
	err := run(context.Background(), append([]string{"import"}, args...), &so, &se)
	return so.String(), err
}

// Issues 34 and 35: an export ends with a note signed by the server's key;
// import names the key: trusted where it is this server's (or one the
// operator names with --trust), foreign otherwise, and still imports it
// (every event is decided again all the same); a file whose signature does
// not verify is refused with nothing written. The round trip through the
// same server is byte for byte, signature included.
func TestExportIsSignedAndImportNamesTheKey(t *testing.T) {
	db, id, file := exportedEvening(t) // no key beside db: written unsigned
	if b, _ := os.ReadFile(file); bytes.Contains(b, []byte("tappbook export v1")) {
		t.Fatal("an export signed without a key")
	}
	home := filepath.Dir(db)
	key, err := signing.LoadOrCreate(filepath.Join(home, signing.FileName), "home.example")
	if err != nil {
		t.Fatal(err)
	}
	signed := exportOf(t, db, id)
	if !bytes.Contains(signed, []byte("\ntappbook export v1\n")) || !bytes.Contains(signed, []byte("\n— home.example ")) {
		t.Fatalf("the export is not signed:\n%s", signed)
	}
	in := filepath.Join(t.TempDir(), "signed.jsonl")
	if err := os.WriteFile(in, signed, 0o644); err != nil {
		t.Fatal(err)
	}

	// verify --export names the key too, and writes nothing.
	var vo, ve bytes.Buffer
	if err := run(context.Background(), []string{"verify", "--export", in, "--data-dir", home}, &vo, &ve); err != nil || !strings.Contains(vo.String(), "signed by home.example") || !strings.Contains(vo.String(), "decided again") {
		t.Fatalf("verify --export: %v %q", err, vo.String())
	}

	// The same server (its data folder): trusted, and byte for byte.
	same := filepath.Join(t.TempDir(), "same.db")
	out, err := importWith(t, "--db", same, "--data-dir", home, in)
	if err != nil || !strings.Contains(out, "signed by home.example") || !strings.Contains(out, "a key this server trusts") {
		t.Fatalf("import on the same server: %v %q", err, out)
	}
	var so, se bytes.Buffer
	again := filepath.Join(t.TempDir(), "again.jsonl")
	if err := run(context.Background(), []string{"export", id, "--db", same, "--data-dir", home, "--out", again}, &so, &se); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(again); !bytes.Equal(b, signed) {
		t.Fatalf("the round trip is not byte for byte:\n%s\n%s", signed, b)
	}

	// Another server, with a key of its own: foreign, named, imported.
	other := filepath.Join(t.TempDir(), "other.db")
	if _, err := signing.LoadOrCreate(filepath.Join(filepath.Dir(other), signing.FileName), "other.example"); err != nil {
		t.Fatal(err)
	}
	out, err = importWith(t, "--db", other, in)
	if err != nil || !strings.Contains(out, `says it is signed by "home.example"`) || !strings.Contains(out, "foreign key") {
		t.Fatalf("import of a foreign file: %v %q", err, out)
	}
	// ... unless its operator names the key.
	vkey := filepath.Join(t.TempDir(), "home.vkey")
	if err := os.WriteFile(vkey, []byte(key.VerifierKey()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = importWith(t, "--db", filepath.Join(filepath.Dir(other), "third.db"), "--trust", vkey, in)
	if err != nil || !strings.Contains(out, "a key this server trusts") {
		t.Fatalf("import with --trust: %v %q", err, out)
	}

	// One changed byte of the signature, still base64 (another letter of
	// its alphabet, not a flipped bit that may fall outside it): refused,
	// nothing written.
	bad := bytes.Clone(signed)
	i := bytes.LastIndex(bad, []byte("\n")) - 3
	if bad[i] == 'A' {
		bad[i] = 'B'
	} else {
		bad[i] = 'A'
	}
	if err := os.WriteFile(in, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"verify", "--export", in, "--data-dir", home}, &vo, &ve); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("verify --export of a changed signature: %v", err)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	if _, err := importWith(t, "--db", fresh, "--trust", key.VerifierKey(), in); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("import of a changed signature: %v", err)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Fatal("a refused import left a database behind")
	}
}
