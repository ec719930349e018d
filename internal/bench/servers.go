package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
	"tappbook/internal/web"
)

// server is an HTTP server the write measures post to: in a process of
// its own (the tappbook binary), as a phone meets it, or in this process
// when there is no binary (the short test run).
type server struct {
	base    string // http://127.0.0.1:PORT
	metrics string // its --metrics-addr, where its CPU profiles are: http://127.0.0.1:PORT ("" for none)
	pid     int    // 0 in this process
	stop    func() error
}

// peakRSS is the server's peak resident memory so far (VmHWM), 0 when it
// runs in this process.
func (s *server) peakRSS() int64 {
	if s.pid == 0 {
		return 0
	}
	return statusBytes(fmt.Sprintf("/proc/%d/status", s.pid), "VmHWM:")
}

// cpu is the CPU time the server's process has used so far, 0 when it
// runs in this process (or s is nil).
func (s *server) cpu() time.Duration {
	if s == nil || s.pid == 0 {
		return 0
	}
	return statCPU(fmt.Sprintf("/proc/%d/stat", s.pid))
}

// processCPU is the CPU time this process has used so far.
func processCPU() time.Duration { return statCPU("/proc/self/stat") }

// statCPU reads a process's user and system time from its /proc stat file
// (0 where there is none).
func statCPU(stat string) time.Duration {
	b, err := os.ReadFile(stat)
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; the fields after its
	// closing parenthesis start with field 3, so utime and stime (14 and
	// 15) are the 12th and 13th.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	system, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+system) * time.Second / clockTicks
}

// clockTicks is Linux's USER_HZ, the unit of /proc's CPU times: 100 on
// every architecture Go runs on.
const clockTicks = 100

// startTappbook runs `tappbook serve` on a new database at path.
func startTappbook(ctx context.Context, bin, path string) (*server, error) {
	if bin == "" {
		return serve(ctx, path)
	}
	return startProcess(bin, "/healthz", "serve", "--db", path, "--mdns", "off")
}

// startProfiled runs `tappbook serve` on the database at path with its
// profiles on a metrics address of its own (profiled); in this process,
// with none, when there is no binary.
func startProfiled(ctx context.Context, bin, path string) (*server, error) {
	if bin == "" {
		return serve(ctx, path)
	}
	metrics, err := freeAddr()
	if err != nil {
		return nil, err
	}
	s, err := startProcess(bin, "/healthz", "serve", "--db", path, "--mdns", "off", "--metrics-addr", metrics)
	if err != nil {
		return nil, err
	}
	s.metrics = "http://" + metrics
	return s, nil
}

// startCeiling runs the ceiling handlers (ceiling.go) with their databases
// in dir: in `bin --serve-ceiling` (tappbook-bench) or, without bin, in
// this process.
func startCeiling(bin, dir string) (*server, error) {
	if bin == "" {
		h, closeDBs, err := ceilingHandler(dir)
		if err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			closeDBs()
			return nil, err
		}
		srv := &http.Server{Handler: h}
		go srv.Serve(ln)
		return &server{base: "http://" + ln.Addr().String(), stop: func() error { srv.Close(); return closeDBs() }}, nil
	}
	return startProcess(bin, "/healthz", "--serve-ceiling", "--dir", dir)
}

// startProcess starts bin with args and --addr on a free loopback port,
// and waits until it answers health.
func startProcess(bin, health string, args ...string) (*server, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, append(args, "--addr", addr)...)
	// Its output goes to /dev/null (nil), not to io.Discard, which os/exec
	// feeds through a pipe and a goroutine of this process: a log line
	// then waited, under the server's log lock, until that goroutine got
	// a turn on the cores the phones and the server share.
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{base: "http://" + addr, pid: cmd.Process.Pid, stop: func() error {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		return cmd.Wait()
	}}
	for range 500 {
		if res, err := http.Get(s.base + health); err == nil {
			res.Body.Close()
			return s, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("%s %s did not come up", filepath.Base(bin), strings.Join(args, " "))
}

// freeAddr is a loopback address no one listens on, for a server to come.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// serve runs the real server on a loopback port, in this process.
func serve(ctx context.Context, path string) (*server, error) {
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	h, err := web.New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		st.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		st.Close()
		return nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return &server{base: "http://" + ln.Addr().String(), stop: func() error { srv.Close(); return st.Close() }}, nil
}

// rss is this process's resident memory, from /proc (0 where there is none).
func rss() int64 { return statusBytes("/proc/self/status", "VmRSS:") }

// statusBytes reads one of a /proc status file's kB lines, in bytes.
func statusBytes(status, field string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}
