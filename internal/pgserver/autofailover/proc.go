package autofailover

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// proc is a running pg_autoctl and the PostgreSQL it started (one process
// group).
type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func (c *Cluster) pgdata(name string) string { return filepath.Join(c.dir, name) }

// command is pg_autoctl with the cluster's environment: its configuration,
// state and sockets in the cluster's directory, never the user's home.
func (c *Cluster) command(ctx context.Context, name string, args ...string) (*exec.Cmd, error) {
	cmd := exec.CommandContext(ctx, c.autoctl, args...)
	d := c.dir
	cmd.Env = append(os.Environ(), "HOME="+d, "XDG_CONFIG_HOME="+filepath.Join(d, "config"), "XDG_DATA_HOME="+filepath.Join(d, "share"),
		"XDG_RUNTIME_DIR="+filepath.Join(d, "run"), "TMPDIR="+d, "PGHOST="+d, "PG_REGRESS_SOCK_DIR="+d)
	logf, err := os.OpenFile(filepath.Join(d, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	// Pdeathsig: the keeper stops (and its PostgreSQL with it) when the
	// test binary dies, killed or not.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
	return cmd, nil
}

// autoctlDo runs a pg_autoctl command to its end.
func (c *Cluster) autoctlDo(ctx context.Context, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd, err := c.command(ctx, name, args...)
	if err != nil {
		return err
	}
	defer cmd.Stdout.(*os.File).Close()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pg_autoctl %s: %w", strings.Join(args[:2], " "), err)
	}
	return nil
}

// run starts `pg_autoctl run` on a node's (or the monitor's) directory.
func (c *Cluster) run(name string) (*proc, error) {
	cmd, err := c.command(context.Background(), name, "run", "--pgdata", c.pgdata(name))
	if err != nil {
		return nil, err
	}
	defer cmd.Stdout.(*os.File).Close()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pg_autoctl run %s: %w", name, err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

// stop asks pg_autoctl to stop (fast: PostgreSQL ends its sessions), and
// kills what is left of its group after 30 s.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// Kill loses the node as a machine is lost: its postmaster (SIGKILL, the
// pid its postmaster.pid names), every process the postmaster started
// (backends, the WAL sender: left alive they would go on serving the
// connections they have), and its keeper with whatever is left of the
// keeper's group. The postmaster and the keeper's group are stopped
// first, so that no process is started while they are gathered (reading
// /proc takes a few tens of milliseconds, while the backends outside the
// group may still commit); then all are killed at once.
func (n *Node) Kill() error {
	if n.keep == nil {
		return fmt.Errorf("%s is not running", n.Name)
	}
	pid, err := n.Postmaster()
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("stop the postmaster of %s: %w", n.Name, err)
	}
	_ = syscall.Kill(-n.keep.cmd.Process.Pid, syscall.SIGSTOP) // and whatever runs in its group
	for _, p := range append([]int{pid}, descendants(pid)...) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	_ = syscall.Kill(-n.keep.cmd.Process.Pid, syscall.SIGKILL)
	<-n.keep.done
	n.keep = nil
	return nil
}

// descendants are the processes below pid, from /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		fields := strings.Fields(string(b[i+1:]))
		p, err1 := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if len(fields) < 2 || err1 != nil {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	for queue := children[pid]; len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return out
}

// Postmaster is the pid of the node's running PostgreSQL.
func (n *Node) Postmaster() (int, error) {
	b, err := os.ReadFile(filepath.Join(n.c.pgdata(n.Name), "postmaster.pid"))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", n.Name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return 0, fmt.Errorf("%s: postmaster.pid: %w", n.Name, err)
	}
	return pid, nil
}

// Restart runs the node's keeper again; a lost primary comes back as the
// standby of the node promoted meanwhile (pg_rewind, or a new copy).
func (n *Node) Restart() error {
	if n.keep != nil {
		return fmt.Errorf("%s is running", n.Name)
	}
	p, err := n.c.run(n.Name)
	if err != nil {
		return err
	}
	n.keep = p
	return nil
}

// Log is the end of what the monitor and the nodes wrote, for a failing
// test to show.
func (c *Cluster) Log() string {
	files, _ := filepath.Glob(filepath.Join(c.dir, "*.log"))
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if len(data) > 20000 {
			data = data[len(data)-20000:]
		}
		fmt.Fprintf(&b, "--- %s (end)\n%s\n", filepath.Base(f), data)
	}
	return b.String()
}
