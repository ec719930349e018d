package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/netserve"
	"tappbook/internal/signing"
	"tappbook/internal/web"
)

// serveFlags are serve's settings.
type serveFlags struct {
	addr, httpAddr, db         string
	dataDir                    string
	name                       string
	tlsCert, tlsKey            string
	domains                    string
	acmeDir, acmeEmail, acmeCA string
	mdns                       string
	maxConns                   int
	reach                      reachFlags
	observe                    observeFlags
	backup                     backupFlags
}

func parseServe(args []string, stderr io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := serveFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if err := fromEnv(fs); err != nil {
		return f, fmt.Errorf("serve: %w", err)
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("serve: %q is not a flag: serve takes flags only, such as --db FILE (tappbook serve -h lists them)", fs.Arg(0))
	}
	return f.settle()
}

// refusal is the sentence for a flag's value serve does not take: the
// flag, its variable, the value and what is allowed.
func refusal(flagName, value, allowed string) error {
	return fmt.Errorf("serve: --%s (%s) %s: %s", flagName, envName(flagName), value, allowed)
}

// dnsLabel is a name mDNS can announce: one DNS label (RFC 1123).
var dnsLabel = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)

// leastBackupEvery is the shortest --backup-every: each backup copies the
// whole file, and one every millisecond would do little else.
const leastBackupEvery = time.Second

// serveFlagSet is serve's flags, set into f. Each is also its
// TAPPBOOK_<FLAG> variable (fromEnv; docs/config.md).
func serveFlagSet(f *serveFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", envOr("TAPPBOOK_ADDR", ""), "address to listen on, HOST:PORT (env TAPPBOOK_ADDR; default :8080, with --tls-cert :8443, with --domain :443)")
	fs.StringVar(&f.db, "db", envOr("TAPPBOOK_DB", "./tappbook.db"), "SQLite database file, created on first start, or a postgres:// URL (env TAPPBOOK_DB)")
	fs.StringVar(&f.dataDir, "data-dir", envOr("TAPPBOOK_DATA_DIR", ""), "folder for the form key and certificates (env TAPPBOOK_DATA_DIR; default: the SQLite file's folder, or the current folder with a postgres:// --db)")
	fs.StringVar(&f.name, "name", envOr("TAPPBOOK_NAME", ""), "the name the server signs receipts and exports under, kept with its signing key on first start (env TAPPBOOK_NAME; default: the machine's host name)")
	fs.StringVar(&f.tlsCert, "tls-cert", envOr("TAPPBOOK_TLS_CERT", ""), "serve HTTPS with this certificate (PEM; env TAPPBOOK_TLS_CERT)")
	fs.StringVar(&f.tlsKey, "tls-key", envOr("TAPPBOOK_TLS_KEY", ""), "the certificate's private key (PEM; env TAPPBOOK_TLS_KEY)")
	fs.StringVar(&f.domains, "domain", envOr("TAPPBOOK_DOMAIN", ""), "serve HTTPS for this domain (comma-separated for more) with certificates from an ACME CA, Let's Encrypt by default (env TAPPBOOK_DOMAIN)")
	fs.StringVar(&f.httpAddr, "http-addr", envOr("TAPPBOOK_HTTP_ADDR", ""), "with HTTPS: plain-HTTP address that redirects to HTTPS and answers ACME challenges (default :80 with --domain, none with --tls-cert; \"off\" for none)")
	fs.StringVar(&f.acmeDir, "acme-directory", envOr("TAPPBOOK_ACME_DIRECTORY", ""), "ACME directory URL (default Let's Encrypt)")
	fs.StringVar(&f.acmeEmail, "acme-email", envOr("TAPPBOOK_ACME_EMAIL", ""), "e-mail address for the ACME CA's notices (optional)")
	fs.StringVar(&f.acmeCA, "acme-ca", envOr("TAPPBOOK_ACME_CA", ""), "PEM roots to trust for a private ACME CA's own address")
	fs.StringVar(&f.mdns, "mdns", envOr("TAPPBOOK_MDNS", "tappbook"), "announce NAME.local on the home network by multicast DNS (\"off\" for none)")
	fs.IntVar(&f.maxConns, "max-conns-per-client", netserve.DefaultLimits().MaxConnsPerClient, "open connections one address may hold, 0 or more (0: no cap, for servers behind a reverse proxy, where every connection comes from its address)")
	f.reach.register(fs)
	f.observe.register(fs)
	f.backup.register(fs)
	return fs
}

// settle checks the flags that go together and fills in the defaults that
// depend on others.
func (f serveFlags) settle() (serveFlags, error) {
	switch {
	case f.domains != "" && f.tlsCert != "":
		return f, errors.New("serve: choose --tls-cert or --domain, not both")
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return f, errors.New("serve: --tls-cert and --tls-key go together")
	}
	switch {
	case f.db == "":
		return f, refusal("db", `""`, "give a SQLite file or a postgres:// URL")
	case f.maxConns < 0:
		return f, refusal("max-conns-per-client", fmt.Sprint(f.maxConns), "give 0 (no cap) or more")
	case f.backup.every < 0 || f.backup.every > 0 && f.backup.every < leastBackupEvery:
		return f, refusal("backup-every", f.backup.every.String(), "give 0 (no backups) or at least 1s")
	case f.backup.keep < 0:
		return f, refusal("backup-keep", fmt.Sprint(f.backup.keep), "give 1 or more")
	case f.backup.every > 0 && f.backup.keep < 1:
		return f, refusal("backup-keep", fmt.Sprint(f.backup.keep), "with --backup-every, give 1 or more")
	case f.httpAddr != "" && f.httpAddr != "off" && f.domains == "" && f.tlsCert == "":
		return f, refusal("http-addr", fmt.Sprintf("%q", f.httpAddr), "it is HTTPS's plain-HTTP address: give it with --domain or --tls-cert, or leave it out")
	case f.mdns != "off" && !dnsLabel.MatchString(f.mdns):
		return f, refusal("mdns", fmt.Sprintf("%q", f.mdns), `give a name of letters, digits and inner hyphens (63 at most), announced as NAME.local, or "off"`)
	}
	if f.addr == "" {
		f.addr = ":8080"
		if f.tlsCert != "" {
			f.addr = ":8443"
		}
		if f.domains != "" {
			f.addr = ":443"
		}
	}
	// Said before the database is opened or a key file made.
	reach, err := f.reach.reach(nil, nil)
	if err != nil {
		return f, err
	}
	if err := web.CheckReach(reach); err != nil {
		return f, refusal("public-url", fmt.Sprintf("%q", f.reach.publicURL), err.Error())
	}
	if f.httpAddr == "" && f.domains != "" {
		f.httpAddr = ":80"
	}
	if f.httpAddr == "off" {
		f.httpAddr = ""
	}
	if f.mdns == "off" {
		f.mdns = ""
	}
	if f.dataDir == "" {
		f.dataDir = "."
		if !isPostgres(f.db) {
			f.dataDir = filepath.Dir(f.db)
		}
	}
	if f.backup.every > 0 && f.backup.dir != "" {
		if err := writableDir(f.backup.dir); err != nil {
			return f, refusal("backup-dir", fmt.Sprintf("%q", f.backup.dir), "give a folder that exists and serve may write in ("+err.Error()+")")
		}
	}
	return f, nil
}

func serve(ctx context.Context, args []string, stderr io.Writer) error {
	f, err := parseServe(args, stderr)
	if err != nil {
		return err
	}
	log, err := f.observe.logger(stderr)
	if err != nil {
		return err
	}
	tuneMemory()

	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	tlsPlan, err := f.https() // the certificate's files read before anything is made
	if err != nil {
		return err
	}
	// Listening first: a port another program holds stops the start
	// before a new database file is made for nothing.
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", f.addr, err)
	}
	defer ln.Close()

	metrics, stopMetrics, err := f.observe.metrics(log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	store, ln, err := f.openOn(ctx, ln, openObserved(metrics.store, log), log)
	if err != nil {
		return err
	}
	defer store.Close()
	defer ln.Close()
	key, signer, err := f.keys(log)
	if err != nil {
		return err
	}

	listen := ln.Addr().String()
	home, reach, err := f.home(tlsPlan, listen, log)
	if err != nil {
		return err
	}
	handler, err := web.New(game.New(store), log, web.Options{FormKey: key, JoinURLs: home.joinURLs, SigningKey: signer,
		Reach: reach, MaxConnsPerClient: f.maxConns, Metrics: metrics.web})
	if err != nil {
		return err
	}
	servers, err := f.start(ln, handler, tlsPlan, reach, log)
	if err != nil {
		return err
	}
	f.backup.schedule(ctx, f.db, f.dataDir, log)
	log.Info("tappbook serving", "addr", listen, "db", redact(f.db), "version", versionString())

	home.run(ctx, 10*time.Second)

	select {
	case err := <-servers.ended:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	return servers.shutdown(log)
}

// openOn opens the store, waiting for a database that does not answer
// yet. While it waits, nothing would answer on the port: ln is closed, so
// that a client (a health check) is refused at once rather than left
// waiting, and the port taken again once the store is open.
func (f serveFlags) openOn(ctx context.Context, ln net.Listener, open func(context.Context, string) (events.Engine, error), log *slog.Logger) (events.Engine, net.Listener, error) {
	closed := false
	store, err := openWaiting(ctx, log, f.db, open, time.Second, func() { closed = ln.Close() == nil })
	if err != nil || !closed {
		return store, ln, err
	}
	if ln, err = net.Listen("tcp", f.addr); err != nil {
		store.Close()
		return nil, nil, fmt.Errorf("listen on %s: %w", f.addr, err)
	}
	return store, ln, nil
}

// keys reads, or makes, the form key and the signing key in the data
// folder.
func (f serveFlags) keys(log *slog.Logger) ([]byte, *signing.Key, error) {
	key, err := formKey(filepath.Join(f.dataDir, "tappbook-form.key"))
	if err != nil {
		return nil, nil, err
	}
	signer, err := signingKey(f.dataDir, f.name)
	if err != nil {
		return nil, nil, err
	}
	log.Info("receipts and exports are signed", "key", signer.VerifierKey())
	return key, signer, nil
}

// writableDir is nil for a folder that exists and this process may make
// files in; it makes nothing to find out.
func writableDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("it does not exist")
	case err != nil:
		return err
	case !fi.IsDir():
		return errors.New("it is not a folder")
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return fmt.Errorf("it cannot be written: %w", err)
	}
	return nil
}

// writeSynced writes b to f, syncs and closes it: durable, or an error.
func writeSynced(f *os.File, b []byte) error {
	_, err := f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// createKey makes the key file in place, where it cannot be linked.
func createKey(path string, key []byte) ([]byte, error) {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return formKey(path) // another server made it meanwhile
	}
	if err != nil {
		return nil, fmt.Errorf("form key: %w", err)
	}
	if err := writeSynced(fh, key); err != nil {
		os.Remove(path) // not left empty for the next start to refuse
		return nil, fmt.Errorf("form key %s: %w", path, err)
	}
	return key, nil
}

// formKey reads the key that signs the forms' tokens, or makes it on first
// start: kept, so that pages open on the phones stay valid across restarts.
func formKey(path string) ([]byte, error) {
	if b, err := os.ReadFile(path); err == nil {
		if len(b) < 32 {
			return nil, fmt.Errorf("form key %s: %d bytes, want 32; delete it to make a new one", path, len(b))
		}
		return b, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("form key: %w", err)
	}
	// A --data-dir named for the first time is made, as --db's file is.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("form key: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("form key: %w", err)
	}
	// Written whole and synced under another name, then linked into place:
	// the key file is never seen empty or half written, by a second server
	// starting at the same moment or after a power cut, and a link (unlike
	// a rename) never replaces a key another server made meanwhile.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("form key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := writeSynced(tmp, key); err != nil {
		return nil, fmt.Errorf("form key %s: %w", path, err)
	}
	switch err := os.Link(tmp.Name(), path); {
	case errors.Is(err, os.ErrExist):
		return formKey(path) // another server made it meanwhile
	case err != nil:
		// A file system without hard links (a FAT memory stick): made in
		// place instead, as whole as it can be there.
		return createKey(path, key)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("form key %s: %w", path, err)
	}
	return key, nil
}

// openWaiting opens the store, waiting for a database server that does not
// answer yet (PostgreSQL restarting, failing over, or started after
// tappbook): it tries again, every wait at first and then less often, until
// the server answers or tappbook is stopped. A wrong password, database or
// file is said at once. waiting, when given, is called before the first
// wait.
func openWaiting(ctx context.Context, log *slog.Logger, db string, open func(context.Context, string) (events.Engine, error), wait time.Duration, waiting func()) (events.Engine, error) {
	for {
		store, err := open(ctx, db)
		if err == nil || !outOfReach(err) {
			return store, err
		}
		if waiting != nil {
			waiting()
			waiting = nil
		}
		log.Warn("the database does not answer; trying again", "db", redact(db), "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("stopped while waiting for the database: %w", err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}
