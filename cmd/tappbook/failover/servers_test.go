package failover

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The failover test lives in a package of its own: its five failovers take
// minutes, and go test's default ten-minute limit counts per package.

// request is one deal a client sends; it is sent again, with the same key,
// until it is acknowledged.
type request struct {
	key, body string
}

// server is a `tappbook serve` process of the binary under test.
type server struct {
	cmd  *exec.Cmd
	base string
	logs syncBuffer
}

// syncBuffer is the server's output, written by its process and read by
// the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func buildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tappbook")
	out, err := exec.Command("go", "build", "-o", bin, "tappbook/cmd/tappbook").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServer starts the binary on the database at url, with its form key
// in a folder of the test's.
func startServer(t testing.TB, bin, url string) *server {
	t.Helper()
	addr := freeAddr(t)
	s := &server{base: "http://" + addr}
	s.cmd = exec.Command(bin, "serve", "--addr", addr, "--db", url, "--mdns", "off", "--data-dir", t.TempDir())
	s.cmd.Stdout, s.cmd.Stderr = &s.logs, &s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for range 500 {
		if r, err := http.Get(s.base + "/healthz"); err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = s.cmd.Process.Kill()
	t.Fatalf("the server did not come up:\n%s", s.logs.String())
	return nil
}

func (s *server) stop(t testing.TB) {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("a clean stop failed: %v\n%s", err, s.logs.String())
	}
}

// verify runs `tappbook verify` on the database.
func verify(bin, url string) (string, error) {
	out, err := exec.Command(bin, "verify", "--db", url).CombinedOutput()
	return string(out), err
}

func getJSON(t *testing.T, url string, v any) {
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
