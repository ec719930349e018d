package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"

	"tappbook/internal/events/memory"
	"tappbook/internal/game"
	"tappbook/internal/signing"
)

// dataDirFlag adds --data-dir, as serve has it, to a tool's flags.
func dataDirFlag(fs *flag.FlagSet, what string) *string {
	return fs.String("data-dir", envOr("TAPPBOOK_DATA_DIR", ""), what+" (env TAPPBOOK_DATA_DIR; default: the SQLite file's folder, or the current folder with a postgres:// --db)")
}

// dataDirOf is serve's data folder for db where --data-dir is not given.
func dataDirOf(dataDir, db string) string {
	switch {
	case dataDir != "":
		return dataDir
	case isPostgres(db):
		return "."
	}
	return filepath.Dir(db)
}

// exportKey is the server's signing key, which signs an export. Export
// changes no file: where the server has never made its key (it was never
// started beside this database), the export is written unsigned, and the
// operator is told why.
func exportKey(dataDir, db string, stderr io.Writer) (*signing.Key, error) {
	path := filepath.Join(dataDirOf(dataDir, db), signing.FileName)
	k, err := signing.Load(path, "")
	if errors.Is(err, iofs.ErrNotExist) {
		fmt.Fprintf(stderr, "no signing key at %s (the server makes it on its first start): the export is not signed\n", path)
		return nil, nil
	}
	return k, err
}

// trustFlag is import's --trust, given once per key.
type trustFlag []string

func (t *trustFlag) String() string { return strings.Join(*t, ",") }

func (t *trustFlag) Set(v string) error {
	if _, err := note.NewVerifier(v); err == nil {
		*t = append(*t, v)
		return nil
	}
	b, err := os.ReadFile(v)
	if err != nil {
		return fmt.Errorf("neither a verifier key (name+hash+key) nor a file: %w", err)
	}
	k := strings.TrimSpace(string(b))
	if _, err := note.NewVerifier(k); err != nil {
		return fmt.Errorf("%s holds no verifier key (name+hash+key): %w", v, err)
	}
	*t = append(*t, k)
	return nil
}

// trustedKeys are the keys whose signature an import trusts: the server's
// own (where it has made one) and those given with --trust.
func trustedKeys(dataDir, db string, trust trustFlag) ([]string, error) {
	keys := append([]string(nil), trust...)
	k, err := signing.Load(filepath.Join(dataDirOf(dataDir, db), signing.FileName), "")
	switch {
	case err == nil:
		keys = append(keys, k.VerifierKey())
	case !errors.Is(err, iofs.ErrNotExist):
		return nil, err
	}
	return keys, nil
}

// verifyExport checks an export file as import would, into a store in
// memory only: its format and hashes, its signature, every event decided
// again. It says who signed the file, and changes no file.
func verifyExport(ctx context.Context, file, dataDir string, trust trustFlag, stdout io.Writer) error {
	trusted, err := trustedKeys(dataDir, "", trust)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer f.Close()
	im, err := game.ImportFile(ctx, memory.New(), f, trusted...)
	if err != nil {
		return fmt.Errorf("verify %s: %w", file, err)
	}
	fmt.Fprintf(stdout, "export %s of %s: %d events, every one decided again to what the file says; %s\n", file, im.ID, im.Events, im.SignedBy())
	return nil
}
