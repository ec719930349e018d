// Package pgserver starts a throwaway PostgreSQL server from the
// distribution's postgresql package (initdb and postgres under
// /usr/lib/postgresql/*/bin): a data directory in a temporary directory,
// listening on loopback only, on a free port. The tests start one per test
// binary and a database per test; tappbook-bench starts one to measure
// PostgreSQL beside SQLite.
//
// PostgreSQL refuses to run as root; run as root, the server runs as the
// postgres system user that the package creates (or nobody).
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNotInstalled is a machine without PostgreSQL's server binaries.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (no initdb and postgres under /usr/lib/postgresql/*/bin; apt-get install postgresql)")

// Options tune the server.
type Options struct {
	// NoSync turns fsync off: for tests, where the server's own durability
	// is not what is tested and every CREATE DATABASE would sync a copy
	// of the template. Never for measurements.
	NoSync bool
	// Dir is where the server's temporary directory goes (the disk it
	// writes to); the system's temporary directory by default.
	Dir string
}

// Server is a running throwaway PostgreSQL.
type Server struct {
	dir  string // the temporary directory holding the data directory
	port int
	cmd  *exec.Cmd
	done chan error
	dbs  atomic.Int64 // databases made by NewDatabase, for their names
}

// superuser is the role initdb makes; loopback connections are trusted.
const superuser = "tappbook"

// Bin finds the directory of the newest installed server binaries.
func Bin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	var found []string
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "postgres")) {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return "", ErrNotInstalled
	}
	sort.Slice(found, func(i, j int) bool { return version(found[i]) < version(found[j]) })
	return found[len(found)-1], nil
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Start makes a data directory and starts the server on it; Stop ends it
// and removes the directory.
func Start(ctx context.Context, opt Options) (*Server, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	cred, err := Credential()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opt.Dir, "tappbook-pg-")
	if err != nil {
		return nil, fmt.Errorf("start PostgreSQL: %w", err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("start PostgreSQL: %w", err)
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("start PostgreSQL: %w", err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", superuser,
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-instructions")
	if opt.NoSync {
		initdb.Args = append(initdb.Args, "--no-sync")
	}
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	port, err := FreePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	args := []string{"-D", data, "-p", strconv.Itoa(port), "-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=" + dir, "-c", "max_connections=200", "-c", "shared_buffers=64MB"}
	if opt.NoSync {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	s := &Server{dir: dir, port: port, done: make(chan error, 1)}
	s.cmd = exec.Command(filepath.Join(bin, "postgres"), args...)
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	defer logf.Close()
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	// Pdeathsig: the server goes when the process that started it dies,
	// killed or not, so a test binary never leaves one behind.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	if err := s.ready(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Credential is the user a server runs as: nil for the current one,
// unless that is root, which PostgreSQL (and pg_autoctl) refuses.
func Credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("start PostgreSQL as root: no postgres or nobody user to run it as")
}

// FreePort is a port on 127.0.0.1 that nothing listens on just now.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ready waits until the server takes connections, or has exited.
func (s *Server) ready(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("postgres exited: %v\n%s", err, s.Log())
		default:
		}
		c, err := pgx.Connect(ctx, s.URL("postgres"))
		if err == nil {
			c.Close(ctx)
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("postgres did not take connections within a minute:\n%s", s.Log())
}

// Log is what the server wrote so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	return string(b)
}

// URL is the connection URL of a database on the server.
func (s *Server) URL(database string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", superuser, s.port, database)
}

// Port is where the server listens on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// NewDatabase creates an empty database with a name made of prefix and a
// counter, and gives its URL.
func (s *Server) NewDatabase(ctx context.Context, prefix string) (string, error) {
	name := fmt.Sprintf("%s_%d", sanitize(prefix), s.dbs.Add(1))
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return s.URL(name), nil
}

// sanitize keeps a database name to lower-case letters, digits and _, at
// most 40 of them.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, s)
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		s = "db"
	}
	return s
}

// Stop shuts the server down (fast: open sessions are ended) and removes
// its directory.
func (s *Server) Stop() error {
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	return os.RemoveAll(s.dir)
}

// Crash kills the server and every process of it at once (SIGKILL to its
// process group), as a power cut or the OOM killer would: no session is
// told, connections just break. Then its directory is removed.
func (s *Server) Crash() error {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	return os.RemoveAll(s.dir)
}
