package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

// A signed export ends, after its last end record, with a signed note in
// the format of golang.org/x/mod/sumdb/note (api.md "Receipts"): the
// header line, then one line per stream, "{id} {events} {head}", then
// "sha256 {hex}" of every byte before the note (the hash chain leaves out
// a line's batch; the signature leaves out nothing), then the server's
// signature. The note says which server wrote the file; it does
// not make the file right, and an import decides every event again all
// the same.
const sealHeader = "tappbook export v1"

// File is an export as read: its streams and, where it was signed, the
// note that ends it.
type File struct {
	Streams []*Stream
	Seal    []byte // the signed note, as the file holds it; nil if unsigned
	sealAt  int    // the note's first line
}

// Signature is who signed an export: the key's name and hash, and whether
// it is a key the reader trusts (its own, or one the operator named).
type Signature struct {
	Name    string
	KeyHash uint32
	Trusted bool
}

func (s Signature) String() string {
	if s.Trusted {
		return fmt.Sprintf("signed by %s (key %08x), a key this server trusts", s.Name, s.KeyHash)
	}
	return fmt.Sprintf("says it is signed by %q (key %08x), a foreign key this server does not know: who wrote it cannot be checked, and every event in it was decided again", s.Name, s.KeyHash)
}

// sealText is the note's text for a file's streams (their end records)
// and the SHA-256 of its bytes before the note.
func sealText(ends []end, sum []byte) string {
	var b strings.Builder
	b.WriteString(sealHeader + "\n")
	for _, e := range ends {
		b.WriteString(e.Stream + " " + strconv.Itoa(e.Events) + " " + e.Head + "\n")
	}
	b.WriteString("sha256 " + hex.EncodeToString(sum) + "\n")
	return b.String()
}

func endsOf(streams []*Stream) []end {
	out := make([]end, len(streams))
	for i, s := range streams {
		out[i] = end{Stream: s.ID, Events: len(s.Events), Head: s.Head()}
	}
	return out
}

// checkSeal checks that the note at line n of a file is in note's format
// and names exactly the streams before it, with their counts and heads.
// Whether its signature verifies is Signer's question.
func checkSeal(n int, seal, before []byte, streams []*Stream) error {
	i := bytes.LastIndex(seal, []byte("\n\n"))
	if i < 0 || !bytes.HasSuffix(seal, []byte("\n")) {
		return refuse(n, "the signed note that ends the file has no signature: it was cut short or changed")
	}
	// note reads base64 leniently (bits past the last byte are ignored):
	// a signature written otherwise than note writes it is refused, so that
	// no byte of a signed file can change and still verify.
	for _, l := range strings.Split(strings.TrimSuffix(string(seal[i+2:]), "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "—" {
			return refuse(n, "the signed note's signature line %q is not one tappbook writes", l)
		}
		if _, err := base64.StdEncoding.Strict().DecodeString(f[2]); err != nil {
			return refuse(n, "the signed note's signature is not written as tappbook writes it: %v", err)
		}
	}
	sum := sha256.Sum256(before)
	if string(seal[:i+1]) != sealText(endsOf(streams), sum[:]) {
		return refuse(n, "the signed note does not name the streams, event counts, heads and SHA-256 the file holds: the file was changed after it was signed")
	}
	return nil
}

// Signer says who signed the file, checking the signature against the
// trusted verifier keys (name+hash+key each). An unsigned file gives
// nil; a signature by a key not among them is named, untrusted; a
// signature by a trusted key that does not verify (the file was changed)
// is an error.
func (f *File) Signer(trusted ...string) (*Signature, error) {
	if f.Seal == nil {
		return nil, nil
	}
	var vs []note.Verifier
	for _, k := range trusted {
		v, err := note.NewVerifier(strings.TrimSpace(k))
		if err != nil {
			return nil, fmt.Errorf("verifier key %q: %w", k, err)
		}
		vs = append(vs, v)
	}
	n, err := note.Open(f.Seal, note.VerifierList(vs...))
	var unverified *note.UnverifiedNoteError
	switch {
	case err == nil:
		return &Signature{Name: n.Sigs[0].Name, KeyHash: n.Sigs[0].Hash, Trusted: true}, nil
	case errors.As(err, &unverified) && len(unverified.Note.UnverifiedSigs) > 0:
		s := unverified.Note.UnverifiedSigs[0]
		// A trusted name with a key that is not its own is a signature
		// made to be taken for that server's.
		for _, v := range vs {
			if v.Name() == s.Name {
				return nil, refuse(f.sealAt, "the file says it is signed by %s, a server this one trusts, but with a key that is not %s's: it was not signed by it", s.Name, s.Name)
			}
		}
		return &Signature{Name: s.Name, KeyHash: s.Hash}, nil
	}
	var bad *note.InvalidSignatureError
	if errors.As(err, &bad) {
		return nil, refuse(f.sealAt, "the signature of %s does not verify: the file was changed after it was signed", bad.Name)
	}
	return nil, refuse(f.sealAt, "the signed note that ends the file is not one tappbook writes: %v", err)
}
