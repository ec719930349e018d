package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

// serve on a database it cannot write says which: the directory (that
// exists, but is read-only), the file, or a directory that is missing;
// never "no such file" for a file or directory that is there. As root the
// binary runs as nobody, for whom the permissions hold.
func TestServeSaysWhyTheDatabaseIsNotWritable(t *testing.T) {
	bin := clitest.Build(t)
	base := t.TempDir()
	for _, d := range []string{filepath.Dir(filepath.Dir(bin)), filepath.Dir(bin), filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	user := -1 // this process's own
	if os.Geteuid() == 0 {
		user = 65534
	}
	mkdir := func(name string, mode os.FileMode, files ...string) string {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if user >= 0 {
				os.Chown(filepath.Join(dir, f), user, user)
			}
		}
		if user >= 0 {
			os.Chown(dir, user, user)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	roDir := mkdir("read-only", 0o555)
	roDirWithFile := mkdir("read-only-with-file", 0o555, "t.db")
	roFile := mkdir("read-only-file", 0o755, "t.db")
	if err := os.Chmod(filepath.Join(roFile, "t.db"), 0o444); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ db, says string }{
		{filepath.Join(roDir, "new.db"), "the directory " + roDir + " is not writable for this user"},
		{filepath.Join(roDirWithFile, "t.db"), "the directory " + roDirWithFile + " is not writable for this user"},
		{filepath.Join(roFile, "t.db"), "the file is not writable for this user"},
		{filepath.Join(base, "missing", "t.db"), "the directory " + filepath.Join(base, "missing") + " does not exist"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, bin, "serve", "--addr", clitest.FreeAddr(t), "--db", c.db)
		if user >= 0 {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(user), Gid: uint32(user)}}
		}
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		if err == nil || timedOut || !strings.Contains(string(out), c.says) || strings.Contains(string(out), "no such file") {
			t.Errorf("serve --db %s: %v\n%s\nwant it to say %q", c.db, err, out, c.says)
		}
	}
}

// The real server answers a request with 1.1 MB of headers in api.md's
// JSON shape.
func TestServeAnswersHugeHeadersInJSON(t *testing.T) {
	addr := clitest.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--db", filepath.Join(t.TempDir(), "t.db")}, io.Discard, io.Discard)
	}()
	defer func() { cancel(); <-done }()
	var conn net.Conn
	for range 100 {
		var err error
		if conn, err = net.Dial("tcp", addr); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if conn == nil {
		t.Fatal("the server did not come up")
	}
	defer conn.Close()
	go func() {
		w := bufio.NewWriter(conn)
		w.WriteString("GET /healthz HTTP/1.1\r\nHost: tappbook\r\nCookie: ")
		w.WriteString(strings.Repeat("a", 1100<<10))
		w.WriteString("\r\n\r\n")
		w.Flush()
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != http.StatusRequestHeaderFieldsTooLarge || body["error"] == "" {
		t.Fatalf("1.1 MB of headers: %d %v %v", res.StatusCode, body, err)
	}
}

// Servers starting at the same moment on one data folder all read the one
// form key made, never an empty or half-written file, and leave no
// temporary file behind.
func TestFormKeyMadeOnceByServersStartingTogether(t *testing.T) {
	for round := range 50 {
		dir := t.TempDir()
		path := filepath.Join(dir, "tappbook-form.key")
		keys := make([][]byte, 8)
		errs := make([]error, len(keys))
		var wg sync.WaitGroup
		for i := range keys {
			wg.Go(func() { keys[i], errs[i] = formKey(path) })
		}
		wg.Wait()
		for i := range keys {
			if errs[i] != nil {
				t.Fatalf("round %d, server %d: %v", round, i, errs[i])
			}
			if !bytes.Equal(keys[i], keys[0]) || len(keys[i]) != 32 {
				t.Fatalf("round %d: servers read different keys (%x, %x)", round, keys[i], keys[0])
			}
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	}
}

// Where the key file cannot be linked into place (a file system without
// hard links), it is made in place: whole, and the same for a second
// server that finds it made.
func TestFormKeyMadeInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tappbook-form.key")
	key := bytes.Repeat([]byte{7}, 32)
	got, err := createKey(path, key)
	if err != nil || !bytes.Equal(got, key) {
		t.Fatalf("made in place: %x, %v", got, err)
	}
	if again, err := createKey(path, bytes.Repeat([]byte{9}, 32)); err != nil || !bytes.Equal(again, key) {
		t.Fatalf("a second server read %x, %v; want the key made first", again, err)
	}
	if onDisk, _ := os.ReadFile(path); !bytes.Equal(onDisk, key) {
		t.Fatalf("the file holds %x", onDisk)
	}
}

// A --data-dir that does not exist yet is made (docs/hosting.md's
// /srv/tappbook on a new machine), with the form key in it.
func TestFormKeyInADataDirNotYetMade(t *testing.T) {
	path := filepath.Join(t.TempDir(), "srv", "tappbook", "tappbook-form.key")
	key, err := formKey(path)
	if err != nil || len(key) != 32 {
		t.Fatalf("form key in a new folder: %d bytes, %v", len(key), err)
	}
	if again, err := formKey(path); err != nil || !bytes.Equal(again, key) {
		t.Fatalf("read again: %v", err)
	}
}
