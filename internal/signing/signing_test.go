package signing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"
)

// The key is made on first start, kept readable by its owner only, and
// the same key is read on every start after; its verifier key checks what
// it signs with note alone.
func TestLoadOrCreateKeepsOneKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", FileName)
	k, err := LoadOrCreate(path, "box.lan")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v, want mode 0600", fi, err)
	}
	again, err := LoadOrCreate(path, "")
	if err != nil || again.VerifierKey() != k.VerifierKey() || again.Name() != "box.lan" {
		t.Fatalf("read again: %v %v", again, err)
	}
	msg, err := k.Sign("hello\n")
	if err != nil {
		t.Fatal(err)
	}
	v, err := note.NewVerifier(k.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := note.Open(msg, note.VerifierList(v)); err != nil {
		t.Fatalf("a note it signed does not verify: %v", err)
	}
	if _, err := Open(msg, again.VerifierKey()); err != nil {
		t.Fatal(err)
	}
	other, _ := Generate("box.lan")
	if _, err := Open(msg, other.VerifierKey()); err == nil {
		t.Fatal("a note verified by another key of the same name")
	}
}

func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if _, err := LoadOrCreate(path, "box.lan"); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreate(path, "other"); err == nil || !strings.Contains(err.Error(), `named "box.lan", not "other"`) {
		t.Fatalf("another --name: %v", err)
	}
	if _, err := LoadOrCreate(filepath.Join(dir, "x.key"), "two words"); err == nil {
		t.Fatal("a name with a space made a key")
	}
	b, _ := os.ReadFile(path)
	bad := filepath.Join(dir, "bad.key")
	os.WriteFile(bad, []byte(strings.Replace(string(b), "box.lan", "box.lam", 1)), 0o600)
	if _, err := Load(bad, ""); err == nil {
		t.Fatal("a key whose name was changed loaded")
	}
	if _, err := Load(filepath.Join(dir, "none.key"), ""); err == nil {
		t.Fatal("a missing key loaded")
	}
}
