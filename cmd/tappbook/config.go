package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// envName is a flag's environment variable: TAPPBOOK_ and its name in
// capitals, "-" as "_" (--max-conns-per-client: TAPPBOOK_MAX_CONNS_PER_CLIENT).
func envName(flagName string) string {
	return "TAPPBOOK_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// fromEnv sets every flag not given on the command line from its
// environment variable, or from the file its _FILE variable names (for
// secrets such as a PostgreSQL URL with its password: a file a container's
// secret or systemd's credentials mount, never in the process's
// environment). The command line wins; both a variable and its _FILE is a
// mistake said at once.
func fromEnv(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := envName(f.Name)
		v := os.Getenv(name)
		if file := os.Getenv(name + "_FILE"); file != "" {
			if v != "" {
				err = fmt.Errorf("%s and %s_FILE are both set: set one", name, name)
				return
			}
			b, rerr := os.ReadFile(file)
			if rerr != nil {
				err = fmt.Errorf("%s_FILE: %w", name, rerr)
				return
			}
			v = strings.TrimRight(string(b), "\r\n")
		}
		if v == "" {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = fmt.Errorf("%s=%q: %w", name, v, serr)
		}
	})
	return err
}

// configTable is the Markdown table of a command's flags and their
// variables, as docs/config.md shows it.
func configTable(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString("| flag | environment | default | what |\n|---|---|---|---|\n")
	fs.VisitAll(func(f *flag.Flag) {
		def := f.DefValue
		if def != "" {
			def = "`" + def + "`"
		}
		usage := strings.ReplaceAll(f.Usage, "|", "\\|")
		fmt.Fprintf(&b, "| `--%s` | `%s`, `%s_FILE` | %s | %s |\n", f.Name, envName(f.Name), envName(f.Name), def, usage)
	})
	return b.String()
}

// backupFlags schedule serve's own backups.
type backupFlags struct {
	every time.Duration
	keep  int
	dir   string
}

func (b *backupFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&b.every, "backup-every", 0, "make a backup this often while serving, at least 1s, e.g. 24h: the same consistent copy tappbook backup makes (default 0: none)")
	fs.IntVar(&b.keep, "backup-keep", 7, "with --backup-every: keep this many of serve's backups (1 or more), removing the oldest of them")
	fs.StringVar(&b.dir, "backup-dir", "", "with --backup-every: the folder the backups go to, which must exist and be writable (default: a backups folder beside the SQLite file, or in --data-dir, made if missing)")
}

// backupPrefix, backupTime and backupSuffix make the names of serve's
// backups; only files named so are ever removed.
const (
	backupPrefix = "tappbook-backup-"
	backupTime   = "20060102T150405.000Z"
	backupSuffix = ".db"
)

// isScheduledBackup says whether a file's name is one serve gives its
// backups, a time between the prefix and the suffix: an operator's own
// copy beside them ("tappbook-backup-2026-11-29-before-upgrade.db") is not one.
func isScheduledBackup(name string) bool {
	at, ok := strings.CutPrefix(name, backupPrefix)
	if at, ok = strings.CutSuffix(at, backupSuffix); !ok {
		return false
	}
	_, err := time.Parse(backupTime, at)
	return err == nil
}

// schedule makes a backup of db every b.every into b.dir until ctx ends,
// keeping the newest b.keep. A failed backup is logged and tried again at
// the next turn: serving goes on.
func (b backupFlags) schedule(ctx context.Context, db, dataDir string, log *slog.Logger) {
	if b.every <= 0 {
		return
	}
	dir := b.dir
	if dir == "" {
		dir = filepath.Join(dataDir, "backups")
	}
	log.Info("backing up", "every", b.every, "keep", b.keep, "dir", dir)
	go func() {
		tick := time.NewTicker(b.every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-tick.C:
				out := filepath.Join(dir, backupPrefix+now.UTC().Format(backupTime)+backupSuffix)
				if err := os.MkdirAll(dir, 0o700); err != nil {
					log.Error("backup failed", "err", err)
					continue
				}
				if err := copyDatabase(ctx, db, out); err != nil {
					log.Error("backup failed", "out", out, "err", err)
					continue
				}
				log.Info("backed up", "out", out)
				b.prune(dir, log)
			}
		}
	}()
}

// prune removes the oldest of serve's backups beyond the newest b.keep.
func (b backupFlags) prune(dir string, log *slog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Error("backups: cannot list the folder", "dir", dir, "err", err)
		return
	}
	var ours []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && isScheduledBackup(n) {
			ours = append(ours, n)
		}
	}
	slices.Sort(ours) // the names hold the time: oldest first
	for len(ours) > max(b.keep, 1) {
		if err := os.Remove(filepath.Join(dir, ours[0])); err != nil {
			log.Error("backups: cannot remove an old one", "file", ours[0], "err", err)
			return
		}
		ours = ours[1:]
	}
}
