// Package autofailover starts a throwaway highly available PostgreSQL for
// tests: Debian's pg_auto_failover (postgresql-NN-auto-failover and
// pg-auto-failover-cli), a monitor and two nodes, each on its own port on
// 127.0.0.1, the standby synchronous. A test kills the primary (its
// postmaster and its keeper, SIGKILL: the machine is gone), the monitor
// promotes the standby, and the test brings the old primary back as the
// new standby.
//
// The timeouts are shortened from pg_auto_failover's defaults (a failover
// in seconds rather than half a minute) in the same proportion: the
// monitor waits longer for a lost primary to demote itself than the
// primary waits before doing so.
//
// pg_autoctl refuses to run as root; run as root, it runs as the user
// pgserver.Credential names (postgres).
package autofailover

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"tappbook/internal/pgserver"
)

// ErrNotInstalled is a machine without pg_auto_failover.
var ErrNotInstalled = errors.New("pg_auto_failover is not installed (no pg_autoctl, or no pgautofailover extension for the newest PostgreSQL; apt-get install pg-auto-failover-cli postgresql-15-auto-failover)")

// Database is the database the nodes serve, owned by the role User.
const (
	Database = "tappbook"
	User     = "tappbook"
)

// Cluster is a running monitor and its two nodes.
type Cluster struct {
	dir     string
	autoctl string // the pg_autoctl binary
	pgctl   string
	cred    *syscall.Credential
	monitor *proc
	// monitorPort is where the monitor listens on 127.0.0.1.
	monitorPort int
	Nodes       [2]*Node
}

// Node is one PostgreSQL of the cluster with its keeper.
type Node struct {
	Name string
	Port int
	c    *Cluster
	keep *proc // its running `pg_autoctl run`, nil while killed
}

// Start makes the monitor and the two nodes and waits until one is primary
// and the other its synchronous standby.
func Start(ctx context.Context) (*Cluster, error) {
	c, err := prepare()
	if err != nil {
		return nil, err
	}
	if err := c.start(ctx); err != nil {
		log := c.Log()
		c.Stop()
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	return c, nil
}

// prepare finds the binaries and makes the cluster's directory.
func prepare() (*Cluster, error) {
	bin, err := pgserver.Bin()
	if err != nil {
		return nil, err
	}
	autoctl, err := exec.LookPath("pg_autoctl")
	if err != nil {
		return nil, ErrNotInstalled
	}
	ext := filepath.Join("/usr/share/postgresql", filepath.Base(filepath.Dir(bin)), "extension", "pgautofailover.control")
	if _, err := os.Stat(ext); err != nil {
		return nil, ErrNotInstalled
	}
	cred, err := pgserver.Credential()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tappbook-af-")
	if err != nil {
		return nil, fmt.Errorf("start pg_auto_failover: %w", err)
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("start pg_auto_failover: %w", err)
		}
	}
	return &Cluster{dir: dir, autoctl: autoctl, pgctl: filepath.Join(bin, "pg_ctl"), cred: cred}, nil
}

func (c *Cluster) start(ctx context.Context) error {
	monPort, err := pgserver.FreePort()
	if err != nil {
		return err
	}
	c.monitorPort = monPort
	if err := c.autoctlDo(ctx, "monitor", "create", "monitor", "--pgdata", c.pgdata("monitor"), "--pgport", strconv.Itoa(monPort),
		"--pgctl", c.pgctl, "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"); err != nil {
		return err
	}
	if err := c.autoctlDo(ctx, "monitor", "config", "set", "--pgdata", c.pgdata("monitor"), "postgresql.listen_addresses", "127.0.0.1"); err != nil {
		return err
	}
	if c.monitor, err = c.run("monitor"); err != nil {
		return err
	}
	monURL := superURL(monPort, "pg_auto_failover")
	if err := retry(ctx, func() error { return exec1(ctx, monURL, monitorSettings...) }); err != nil {
		return fmt.Errorf("tune the monitor: %w", err)
	}
	for i := range c.Nodes {
		port, err := pgserver.FreePort()
		if err != nil {
			return err
		}
		n := &Node{Name: fmt.Sprintf("node%d", i+1), Port: port, c: c}
		c.Nodes[i] = n
		if err := n.create(ctx, monPort); err != nil {
			return err
		}
		if i == 0 {
			if err := n.prepareDatabase(ctx); err != nil {
				return err
			}
		}
	}
	_, err = c.WaitHealthy(ctx)
	return err
}

// monitorSettings shorten the monitor's checks: a node is unhealthy after
// about 3 s without an answer (not less: on a busy CI machine a node may
// answer a second late), and a primary that was lost is taken as demoted
// after 5 s (longer than keeperSettings' partition timeout, after which a
// primary cut off from the monitor and its standby demotes itself).
var monitorSettings = []string{
	`ALTER SYSTEM SET pgautofailover.health_check_period = 1000`,
	`ALTER SYSTEM SET pgautofailover.health_check_timeout = 2000`,
	`ALTER SYSTEM SET pgautofailover.health_check_max_retries = 2`,
	`ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500`,
	`ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000`,
	`ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000`,
	`SELECT pg_reload_conf()`,
}

// keeperSettings shorten the keeper's partition timeout to match.
var keeperSettings = [][2]string{{"timeout.network_partition_timeout", "3"}}

// create makes the node (the first a primary, the second its standby,
// copied from it), tunes its keeper and runs it.
func (n *Node) create(ctx context.Context, monPort int) error {
	c := n.c
	mon := fmt.Sprintf("postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable", monPort)
	if err := c.autoctlDo(ctx, n.Name, "create", "postgres", "--pgdata", c.pgdata(n.Name), "--pgport", strconv.Itoa(n.Port),
		"--listen", "127.0.0.1", "--hostname", "127.0.0.1", "--name", n.Name, "--dbname", Database, "--monitor", mon,
		"--auth", "trust", "--no-ssl", "--pgctl", c.pgctl); err != nil {
		return err
	}
	for _, kv := range keeperSettings {
		if err := c.autoctlDo(ctx, n.Name, "config", "set", "--pgdata", c.pgdata(n.Name), kv[0], kv[1]); err != nil {
			return err
		}
	}
	return n.Restart()
}

// prepareDatabase, on the first node before the standby is copied from
// it: the application's role owning the database, fsync off (a test's
// kills end processes, not the machine, so the page cache keeps every
// write), and a checkpoint, so that the standby's base backup does not
// wait for a spread one.
func (n *Node) prepareDatabase(ctx context.Context) error {
	err := n.c.waitFor(ctx, func(s []State) bool { return len(s) == 1 && s[0].Reported == "single" && s[0].Goal == "single" })
	if err != nil {
		return err
	}
	// The keeper started PostgreSQL again after its creation: wait for
	// it to take connections.
	if err := retry(ctx, func() error { return exec1(ctx, superURL(n.Port, Database), `SELECT 1`) }); err != nil {
		return err
	}
	return exec1(ctx, superURL(n.Port, Database),
		`CREATE ROLE `+User+` LOGIN`,
		`ALTER DATABASE `+Database+` OWNER TO `+User,
		`ALTER SYSTEM SET fsync = off`,
		`SELECT pg_reload_conf()`,
		`CHECKPOINT`)
}

// URL is the application's URL of the cluster: both nodes, the one that
// takes writes chosen at each connection.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d,127.0.0.1:%d/%s?sslmode=disable&target_session_attrs=read-write",
		User, c.Nodes[0].Port, c.Nodes[1].Port, Database)
}

// superURL reaches a database on a node as its superuser (the user
// pg_autoctl ran initdb as; loopback is trusted).
func superURL(port int, db string) string {
	u := "postgres"
	if me, err := user.Current(); err == nil && os.Geteuid() != 0 {
		u = me.Username
	}
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", u, port, db)
}

// exec1 runs statements on one connection.
func exec1(ctx context.Context, url string, stmts ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// retry calls f until it succeeds, for up to a minute.
func retry(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Stop ends the keepers (their PostgreSQL with them) and removes the
// cluster's directory.
func (c *Cluster) Stop() error {
	for _, n := range c.Nodes {
		if n != nil && n.keep != nil {
			n.keep.stop()
		}
	}
	if c.monitor != nil {
		c.monitor.stop()
	}
	return os.RemoveAll(c.dir)
}
