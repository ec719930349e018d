package main

// The commands that look after the database: verify, backup, export and
// import.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/tapp"
)

// dbFlag adds --db with api.md's default and env to a command's flags.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", envOr("TAPPBOOK_DB", "./tappbook.db"), "SQLite database file, or a postgres:// URL (env TAPPBOOK_DB)")
}

// verify opens the database read-only, lets SQLite check every page, then
// walks the hash chain and decides every command again as import does
// (game.Audit). A file that is not a
// tappbook database, holds no events or is damaged is refused.
func verify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	gameID := fs.String("game", "", "check only this game's history, and print its fingerprint")
	fingerprint := fs.String("fingerprint", "", "with --game: confirm the game's history still ends at the head with this fingerprint (ab12-cd34-ef56)")
	var rf receiptFlags
	fs.StringVar(&rf.file, "receipt", "", "check this signed receipt: its signature, and, with a database, that the history still holds it")
	fs.StringVar(&rf.key, "key", "", "with --receipt: the server's verifier key (name+hash+key, GET /api/receipt-key), or a file holding it; default the key file in --data-dir")
	fs.StringVar(&rf.dataDir, "data-dir", envOr("TAPPBOOK_DATA_DIR", ""), "with --receipt: the server's data folder, which holds its key (default: the database's folder)")
	exportFile := fs.String("export", "", "check this export file: who signed it (the key in --data-dir, or --trust), and that every event in it is decided again to what it says; writes nothing")
	var trust trustFlag
	fs.Var(&trust, "trust", "with --export: also trust this verifier key (name+hash+key), or a file holding it; may be given again")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *exportFile != "" {
		return verifyExport(ctx, *exportFile, dataDirOf(rf.dataDir, *db), trust, stdout)
	}
	if rf.file != "" {
		rf.db = *db
		fs.Visit(func(f *flag.Flag) { rf.dbGiven = rf.dbGiven || f.Name == "db" })
		if rf.dataDir == "" {
			rf.dataDir = "." // as serve: the SQLite file's folder, or the current one
			if !isPostgres(*db) {
				rf.dataDir = filepath.Dir(*db)
			}
		}
		return verifyReceipt(ctx, rf, stdout)
	}
	if *fingerprint != "" && *gameID == "" {
		return errors.New("verify: a --fingerprint belongs to a game: name it with --game ID")
	}
	store, err := openReadOnly(ctx, *db)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer store.Close()
	tuneMemory()
	if err := store.CheckIntegrity(ctx, true); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if *gameID != "" {
		return verifyGame(ctx, store, *gameID, *fingerprint, stdout)
	}
	rep, err := game.Audit(ctx, store)
	if err != nil {
		return fmt.Errorf("verify %s: %w", redact(*db), err)
	}
	fmt.Fprintf(stdout, "checked %d events in %d games and %d groups: the hash chain, every command decided again (%d deals re-scored from their records), and every group's evenings\n", rep.Events, rep.Games, rep.Groups, rep.Deals)
	if rep.Problem != "" {
		return fmt.Errorf("verify %s: %s", redact(*db), rep.Problem)
	}
	if rep.Events == 0 {
		return fmt.Errorf("verify %s: the database holds no events: an empty or unfinished copy, not a record of any game", redact(*db))
	}
	fmt.Fprintln(stdout, "everything matches")
	return nil
}

// verifyGame checks one game's hash chain and head, and either prints the
// fingerprint it ends at or confirms it still ends at the one given: a
// witness kept from before (a phone, a note of the closed evening) shows a
// history cut or changed even where the chain was mended to match.
func verifyGame(ctx context.Context, store events.Engine, id, fingerprint string, stdout io.Writer) error {
	var want string
	if fingerprint != "" {
		var err error
		if want, err = events.ParseFingerprint(fingerprint); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
	}
	// id is the game's own id or its read-only link's key; the report
	// names the key it was given, so the writing id is never printed for
	// someone who has only the read-only link.
	stream := id
	if s, err := store.Resolve(ctx, id); err == nil && s != "" {
		stream = s
	}
	evs, err := store.ReadStream(ctx, stream)
	if err != nil {
		return fmt.Errorf("verify game %s: %w", id, err)
	}
	if len(evs) == 0 {
		return fmt.Errorf("verify: there is no game %s in this database", id)
	}
	last := evs[len(evs)-1]
	have := events.Fingerprint(last.Hash)
	fmt.Fprintf(stdout, "game %s: the hash chain of %d events is whole; it ends at version %d, fingerprint %s\n", id, len(evs), last.Version, have)
	if want == "" || want == have {
		if want != "" {
			fmt.Fprintf(stdout, "the history still ends at %s\n", want)
		}
		return nil
	}
	for i, e := range evs {
		if events.Fingerprint(e.Hash) != want {
			continue
		}
		if onlyPaying(evs[i+1:]) {
			// A closed evening's fingerprint is its close's: what was paid
			// since changes no money.
			fmt.Fprintf(stdout, "the history still ends at %s (version %d); the %d events after it are about paying, and change no money\n", want, e.Version, last.Version-e.Version)
			return nil
		}
		return fmt.Errorf("verify game %s: the fingerprint %s is version %d's, and the history goes on to version %d: %d events were recorded after it", id, want, e.Version, last.Version, last.Version-e.Version)
	}
	return fmt.Errorf("verify game %s: no event of game %s has the fingerprint %s: its history was cut or changed at or before that point", id, id, want)
}

// onlyPaying says whether evs are all about paying (how a player is paid,
// a transfer marked paid or confirmed): events a closed evening takes.
func onlyPaying(evs []events.Event) bool {
	for _, e := range evs {
		if !tapp.AboutPaying(e.Type) {
			return false
		}
	}
	return true
}

func export(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	out := fs.String("out", "", "file to write (default: standard output)")
	dataDir := dataDirFlag(fs, "the server's data folder, whose key signs the export")
	if err := fs.Parse(reorder(args)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("export: name one game or group: tappbook export ID")
	}
	id := fs.Arg(0)
	key, err := exportKey(*dataDir, *db, stderr)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	store, err := openReadOnly(ctx, *db)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer store.Close()
	var n int
	write := func(w io.Writer) (err error) {
		n, err = game.Export(ctx, store, id, key, w)
		return err
	}
	if *out == "" {
		err = write(stdout)
	} else {
		err = writeAtomically(*out, write)
	}
	if err != nil {
		return fmt.Errorf("export %s: %w", id, err)
	}
	fmt.Fprintf(stderr, "exported %d events of %s\n", n, id)
	return nil
}

// importGame checks the whole file, and that it is a game, before it opens
// (or creates) the database: a refused file writes nothing and leaves no
// empty database behind.
func importGame(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	dataDir := dataDirFlag(fs, "the server's data folder, whose key's signature is trusted")
	var trust trustFlag
	fs.Var(&trust, "trust", "also trust exports signed by this verifier key (name+hash+key, another server's GET /api/receipt-key), or a file holding it; may be given again")
	if err := fs.Parse(reorder(args)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("import: name one file: tappbook import FILE")
	}
	trusted, err := trustedKeys(*dataDir, *db, trust)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	// A file larger than any export is refused before it is read.
	if fi, err := os.Stat(fs.Arg(0)); err == nil {
		if err := archive.CheckSize(fi.Size()); err != nil {
			return fmt.Errorf("import %s: %w", fs.Arg(0), err)
		}
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	// The file is read and its signature checked before the database is
	// opened or made: a refused file leaves nothing behind.
	f, err := archive.ReadFile(bytes.NewReader(data))
	if err == nil {
		_, err = f.Signer(trusted...)
	}
	if err != nil {
		return fmt.Errorf("import %s: %w", fs.Arg(0), err)
	}
	// Opened as a server opens it (checked, held, never beside what a
	// vanished file left); a database file this import made is removed
	// if the import fails.
	var im game.Imported
	store, err := openStore(ctx, *db)
	if err == nil {
		im, err = game.ImportFile(ctx, store, bytes.NewReader(data), trusted...)
		if err != nil {
			err = errors.Join(err, abandon(store))
		} else {
			err = store.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("import %s: %w", fs.Arg(0), err)
	}
	fmt.Fprintf(stdout, "imported %s (%d events), %s\n", im.ID, im.Events, im.SignedBy())
	return nil
}

// removeDatabase removes a database file a failed command created, with
// SQLite's companions.
func removeDatabase(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		os.Remove(p)
	}
}

// reorder puts flags before the one positional argument, so that both
// "export GAME --db x" and "export --db x GAME" work.
func reorder(args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		if len(args[i]) > 1 && args[i][0] == '-' {
			flags = append(flags, args[i])
			if !strings.Contains(args[i], "=") && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		rest = append(rest, args[i])
	}
	return append(flags, rest...)
}
