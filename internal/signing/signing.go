// Package signing is the server's signing key: an Ed25519 key made on the
// server's first start and kept beside its data, which signs receipts and
// exports as notes in the format of golang.org/x/mod/sumdb/note, so that
// anyone with the verifier key checks them with that package alone.
package signing

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

// FileName is the key file's name in the server's data folder, beside
// tappbook-form.key.
const FileName = "tappbook-receipt.key"

// Key signs notes as the server.
type Key struct {
	signer   note.Signer
	verifier string // name+hash+key, as note.NewVerifier reads it
}

// Name is the key's name: the server's, as every signature says it.
func (k *Key) Name() string { return k.signer.Name() }

// VerifierKey is the text anyone checks the server's notes with.
func (k *Key) VerifierKey() string { return k.verifier }

// Sign signs text (UTF-8, ending in a newline) as a note.
func (k *Key) Sign(text string) ([]byte, error) {
	b, err := note.Sign(&note.Note{Text: text}, k.signer)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return b, nil
}

// CheckName says whether name can name a key: what note allows, no
// spaces and no "+".
func CheckName(name string) error {
	if name == "" || strings.ContainsAny(name, "+ \t\r\n") || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("%q cannot name a signing key: give a name without spaces or \"+\", such as the server's host name", name)
	}
	return nil
}

// Load reads the key file at path; with name not "", the key must carry
// that name (a key is never renamed: its notes say the name they were
// signed under).
func Load(path, name string) (*Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	k, err := parse(strings.TrimSpace(string(b)))
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	if name != "" && k.Name() != name {
		return nil, fmt.Errorf("signing key %s is named %q, not %q: a key keeps the name its receipts were signed under; leave --name out, or move the file away to make a new key", path, k.Name(), name)
	}
	return k, nil
}

// LoadOrCreate reads the key file at path, or, where there is none, makes
// a new key named name and keeps it there (readable by its owner only).
func LoadOrCreate(path, name string) (*Key, error) {
	if _, err := os.Stat(path); err == nil {
		return Load(path, name)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	skey, _, err := note.GenerateKey(rand.Reader, name)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	switch err := place(path, []byte(skey+"\n")); {
	case errors.Is(err, os.ErrExist):
		return Load(path, name) // another server made it meanwhile
	case err != nil:
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	return Load(path, name)
}

// place writes a new file whole and synced under another name, then links
// it into place: the key is never seen half written, and a key another
// server made meanwhile is never replaced (os.ErrExist).
func place(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// parse reads a signer key as note.GenerateKey writes it,
// PRIVATE+KEY+name+hash+base64(algorithm, seed), and gives the key with
// its verifier key, which note has no function to derive.
func parse(skey string) (*Key, error) {
	signer, err := note.NewSigner(skey)
	if err != nil {
		return nil, fmt.Errorf("not a signing key: %w", err)
	}
	parts := strings.SplitN(skey, "+", 5) // the base64 may hold "+" too
	raw, err := base64.StdEncoding.DecodeString(parts[len(parts)-1])
	if err != nil || len(raw) != 1+ed25519.SeedSize || raw[0] != 1 {
		return nil, errors.New("not an Ed25519 signing key")
	}
	pub := ed25519.NewKeyFromSeed(raw[1:]).Public().(ed25519.PublicKey)
	vkey, err := note.NewEd25519VerifierKey(signer.Name(), pub)
	if err != nil {
		return nil, err
	}
	v, err := note.NewVerifier(vkey)
	if err != nil || v.KeyHash() != signer.KeyHash() {
		return nil, errors.New("the key's hash does not match its key: the file was changed")
	}
	return &Key{signer: signer, verifier: vkey}, nil
}

// Open checks a signed note against the verifier keys given (name+hash+key
// each) and gives it with the signatures that verified; a note signed by
// none of them, or whose text or signature was changed, is refused.
func Open(msg []byte, vkeys ...string) (*note.Note, error) {
	var vs []note.Verifier
	for _, k := range vkeys {
		v, err := note.NewVerifier(strings.TrimSpace(k))
		if err != nil {
			return nil, fmt.Errorf("verifier key %q: %w", k, err)
		}
		vs = append(vs, v)
	}
	n, err := note.Open(msg, note.VerifierList(vs...))
	if err != nil {
		return nil, fmt.Errorf("the signature does not verify: %w", err)
	}
	return n, nil
}

// Generate makes a key in memory only, named name: for a server given no
// key file (tests), whose signatures end with the process.
func Generate(name string) (*Key, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	skey, _, err := note.GenerateKey(rand.Reader, name)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	return parse(skey)
}
