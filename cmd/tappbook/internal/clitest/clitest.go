// Package clitest runs the real tappbook binary for the tests of
// cmd/tappbook and of the packages beside it. Only tests import it.
package clitest

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Build builds the tappbook binary into a folder of the test's.
func Build(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tappbook")
	out, err := exec.Command("go", "build", "-o", bin, "tappbook/cmd/tappbook").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// FreeAddr is a local address no one listens on right now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Buffer is a server's output, written by its process and read by the test.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Server is a `tappbook serve` process of the binary under test.
type Server struct {
	Cmd  *exec.Cmd
	Base string // http://host:port
	Logs Buffer
}

// Start starts the binary on db and waits for /healthz; on a PostgreSQL
// database with its form key in a folder of the test's (extra may name
// another --data-dir).
func Start(t testing.TB, bin, db string, extra ...string) *Server {
	t.Helper()
	addr := FreeAddr(t)
	s := &Server{Base: "http://" + addr}
	args := []string{"serve", "--addr", addr, "--db", db, "--mdns", "off"}
	if strings.HasPrefix(db, "postgres://") && !slices.Contains(extra, "--data-dir") {
		args = append(args, "--data-dir", t.TempDir())
	}
	s.Cmd = exec.Command(bin, append(args, extra...)...)
	s.Cmd.Stdout, s.Cmd.Stderr = &s.Logs, &s.Logs
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for range 500 {
		if r, err := http.Get(s.Base + "/healthz"); err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = s.Cmd.Process.Kill()
	t.Fatalf("the server did not come up:\n%s", s.Logs.String())
	return nil
}

// Kill ends the server as a power cut would.
func (s *Server) Kill() {
	_ = s.Cmd.Process.Signal(syscall.SIGKILL)
	_ = s.Cmd.Wait()
}

// Stop ends the server as the operator does, and fails the test unless it
// stops cleanly.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	_ = s.Cmd.Process.Signal(syscall.SIGTERM)
	if err := s.Cmd.Wait(); err != nil {
		t.Fatalf("a clean stop failed: %v\n%s", err, s.Logs.String())
	}
}

// GetJSON decodes the answer of a GET into v.
func GetJSON(t testing.TB, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
