package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"

	"tappbook/internal/game"
	"tappbook/internal/receipt"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
)

// receiptFlags are verify's settings for a receipt.
type receiptFlags struct {
	file, key, dataDir, db string
	dbGiven                bool
}

// verifyReceipt checks a signed receipt: offline, its signature against
// the server's key (the key file in the data folder, or --key: a verifier
// key or a file holding one); then, where there is a database, that the
// game's events up to the receipt's count end with its head, and that
// those events settle exactly what it says.
func verifyReceipt(ctx context.Context, f receiptFlags, stdout io.Writer) error {
	msg, err := os.ReadFile(f.file)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	vkey, err := verifierKey(f)
	if err != nil {
		return err
	}
	n, err := signing.Open(msg, vkey)
	if err != nil {
		return fmt.Errorf("verify %s: %w", f.file, err)
	}
	r, err := receipt.Parse(n.Text)
	if err != nil {
		return fmt.Errorf("verify %s: %w", f.file, err)
	}
	fmt.Fprintf(stdout, "receipt of game %s (%d events, closed %s): the signature of %s verifies\n", r.Game, r.Events, r.Closed.Format("2006-01-02 15:04 MST"), n.Sigs[0].Name)
	if !f.dbGiven {
		if _, err := os.Stat(f.db); err != nil {
			fmt.Fprintf(stdout, "no database at %s: checked offline only (give --db to check it against the history)\n", f.db)
			return nil
		}
	}
	return receiptAgainstDB(ctx, f.db, r, stdout)
}

// verifierKey is the key a receipt is checked with: --key (the text, or a
// file holding it), or the server's key file in its data folder.
func verifierKey(f receiptFlags) (string, error) {
	if f.key != "" {
		if _, err := note.NewVerifier(f.key); err == nil {
			return f.key, nil
		}
		b, err := os.ReadFile(f.key)
		if err != nil {
			return "", fmt.Errorf("verify: --key is neither a verifier key (name+hash+key) nor a file: %w", err)
		}
		text := strings.TrimSpace(string(b))
		if strings.HasPrefix(text, "PRIVATE+KEY+") {
			k, err := signing.Load(f.key, "")
			if err != nil {
				return "", fmt.Errorf("verify: %w", err)
			}
			return k.VerifierKey(), nil
		}
		return text, nil
	}
	path := filepath.Join(f.dataDir, signing.FileName)
	k, err := signing.Load(path, "")
	if err != nil {
		return "", fmt.Errorf("verify: no --key given, and the server's key cannot be read (%w); give the server's key as --key (GET /api/receipt-key)", err)
	}
	return k.VerifierKey(), nil
}

// receiptAgainstDB checks the receipt against the game's history.
func receiptAgainstDB(ctx context.Context, db string, r receipt.Receipt, stdout io.Writer) error {
	store, err := openReadOnly(ctx, db)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer store.Close()
	stream, err := store.Resolve(ctx, r.Game)
	if err != nil || stream == "" {
		stream = r.Game
	}
	evs, err := store.ReadStream(ctx, stream)
	if err != nil {
		return fmt.Errorf("verify game %s: %w", r.Game, err)
	}
	switch {
	case len(evs) == 0:
		return fmt.Errorf("verify: there is no game %s in %s", r.Game, redact(db))
	case int64(len(evs)) < r.Events:
		return fmt.Errorf("verify game %s: the receipt counts %d events, the history holds %d: it was cut", r.Game, r.Events, len(evs))
	case evs[r.Events-1].Hash != r.Head:
		return fmt.Errorf("verify game %s: event %d has the hash %s, the receipt says %s: the history was changed at or before the close", r.Game, r.Events, evs[r.Events-1].Hash, r.Head)
	}
	st, err := game.FoldEvents(stream, evs[:r.Events])
	if err != nil {
		return fmt.Errorf("verify game %s: %w", r.Game, err)
	}
	now, err := receipt.Of(st)
	if errors.Is(err, receipt.ErrOpen) {
		return fmt.Errorf("verify game %s: event %d is not a close", r.Game, r.Events)
	}
	if err != nil || now.Text() != r.Text() {
		return fmt.Errorf("verify game %s: the history up to event %d settles otherwise than the receipt says:\n%s", r.Game, r.Events, now.Text())
	}
	fmt.Fprintf(stdout, "the history still holds it: event %d is the close, with that hash, and settles what the receipt says\n", r.Events)
	for _, e := range evs[r.Events:] {
		if e.Type == tapp.TypeGameReopened {
			fmt.Fprintf(stdout, "the evening was reopened since (event %d): this receipt is what was settled then, not now\n", e.Version)
			break
		}
	}
	return nil
}
