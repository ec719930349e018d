package archive

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"tappbook/internal/signing"
)

// signedSample is a signed export of two streams, and the key that signed it.
func signedSample(t *testing.T) ([]byte, *signing.Key) {
	t.Helper()
	store := openStore(t)
	a, b := idFrom(7), idFrom(8)
	sample(t, store, a)
	sample(t, store, b)
	key, err := signing.Generate("table.example")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := ExportAll(context.Background(), store, []string{a, b}, key, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), key
}

// Given a signed export, when it is read with its server's key, then it
// says who signed it, trusted; the note is note's format, which that
// package alone checks.
func TestSignedExportNamesItsKey(t *testing.T) {
	file, key := signedSample(t)
	f, err := ReadFile(bytes.NewReader(file))
	if err != nil || len(f.Streams) != 2 || f.Seal == nil {
		t.Fatalf("ReadFile: %v, %+v", err, f)
	}
	sig, err := f.Signer(key.VerifierKey())
	if err != nil || sig == nil || !sig.Trusted || sig.Name != "table.example" {
		t.Fatalf("Signer: %+v, %v", sig, err)
	}
	v, _ := note.NewVerifier(key.VerifierKey())
	n, err := note.Open(f.Seal, note.VerifierList(v))
	if err != nil || !strings.HasPrefix(n.Text, "tappbook export v1\n"+f.Streams[0].ID+" 4 "+f.Streams[0].Head()+"\n") {
		t.Fatalf("note.Open: %v, %+v", err, n)
	}
}

// Given a signed export, when any one byte of it is changed, then it is
// either refused or no longer read as signed by the trusted key.
func TestOneChangedByteFailsTheSignature(t *testing.T) {
	file, key := signedSample(t)
	for i := range file {
		changed := bytes.Clone(file)
		changed[i] ^= 0x01
		f, err := ReadFile(bytes.NewReader(changed))
		if err != nil {
			continue
		}
		if sig, err := f.Signer(key.VerifierKey()); err == nil && sig != nil && sig.Trusted {
			t.Fatalf("byte %d (%q) changed, and the file still reads as signed by %s", i, file[i], sig.Name)
		}
	}
	// A changed byte of the signature itself: the key is known, the
	// signature does not verify, and the file is refused saying so.
	sigAt := bytes.LastIndex(file, []byte("\n")) - 3
	changed := bytes.Clone(file)
	// Swap for another letter of base64's alphabet: flipping a bit could
	// leave the alphabet ('A' becomes '@'), which is refused for that.
	changed[sigAt] = 'A'
	if file[sigAt] == 'A' {
		changed[sigAt] = 'B'
	}
	f, err := ReadFile(bytes.NewReader(changed))
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	if _, err := f.Signer(key.VerifierKey()); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a changed signature: %v", err)
	}
}

// Given an export signed by another server, when it is read, then its key
// is named as foreign (the events are still checked by whoever imports);
// an unsigned export has no signer, and a note naming other heads is
// refused.
func TestForeignAndMissingSignatures(t *testing.T) {
	file, _ := signedSample(t)
	ours, _ := signing.Generate("here.example")
	f, err := ReadFile(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := f.Signer(ours.VerifierKey())
	if err != nil || sig == nil || sig.Trusted || sig.Name != "table.example" || !strings.HasSuffix(sig.String(), "a foreign key this server does not know: who wrote it cannot be checked, and every event in it was decided again") {
		t.Fatalf("foreign: %+v, %v", sig, err)
	}
	// The name of a server this one trusts, with a key not that server's.
	sameName, _ := signing.Generate("table.example")
	if sig, err := f.Signer(sameName.VerifierKey()); err == nil || !strings.Contains(err.Error(), "a key that is not table.example's") {
		t.Fatalf("a trusted name with another key: %+v, %v", sig, err)
	}
	unsigned := file[:bytes.Index(file, []byte(sealHeader))]
	if f, err := ReadFile(bytes.NewReader(unsigned)); err != nil || f.Seal != nil {
		t.Fatalf("unsigned: %v", err)
	} else if sig, err := f.Signer(ours.VerifierKey()); sig != nil || err != nil {
		t.Fatalf("unsigned Signer: %+v, %v", sig, err)
	}
	// The first stream alone with the note over both: the note names a
	// stream the file does not hold.
	lines := strings.SplitAfter(string(file), "\n")
	short := strings.Join(lines[:5], "") + string(file[bytes.Index(file, []byte(sealHeader)):])
	if _, err := ReadFile(strings.NewReader(short)); err == nil || !strings.Contains(err.Error(), "does not name the streams") {
		t.Fatalf("a note over other streams: %v", err)
	}
}
