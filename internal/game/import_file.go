package game

import (
	"context"
	"fmt"
	"io"

	"tappbook/internal/archive"
	"tappbook/internal/events"
)

// Imported is what an import wrote, and who signed the file.
type Imported struct {
	ID     string
	Events int
	// Signer is the key that signed the file (trusted or foreign); nil for
	// a file without a signature.
	Signer *archive.Signature
}

// SignedBy says in a sentence who signed the file, for the operator.
func (im Imported) SignedBy() string {
	if im.Signer == nil {
		return "not signed (written before exports were signed, or by hand)"
	}
	return im.Signer.String()
}

// ImportFile reads an export, checks its signature against the trusted
// verifier keys (the server's own, those the operator named) and imports
// it. A signature that does not verify refuses the file; a foreign or
// missing one does not, and says so: a signature tells who wrote a file,
// not that it is right, so every file is decided again in full (Import)
// whoever signed it. A refused file writes nothing.
func ImportFile(ctx context.Context, store events.Engine, r io.Reader, trusted ...string) (Imported, error) {
	f, err := archive.ReadFile(r)
	if err != nil {
		return Imported{}, err
	}
	sig, err := f.Signer(trusted...)
	if err != nil {
		return Imported{}, fmt.Errorf("import: %w", err)
	}
	id, n, err := Import(ctx, store, f.Streams)
	if err != nil {
		return Imported{Signer: sig}, err
	}
	return Imported{ID: id, Events: n, Signer: sig}, nil
}
