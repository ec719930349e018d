package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
	"tappbook/internal/events"
)

// A database server that does not answer yet is waited for; one that
// refuses what it is asked (a wrong password, database or file) is said at
// once.
func TestOpenWaitsForADatabaseOutOfReach(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	tries := 0
	open := func(context.Context, string) (events.Engine, error) {
		tries++
		if tries < 3 {
			return nil, refused
		}
		return nil, nil // opened (no store is needed to count the tries)
	}
	if _, err := openWaiting(ctx, log, "postgres://db/tappbook", open, time.Millisecond, nil); err != nil || tries != 3 {
		t.Fatalf("after %d tries: %v", tries, err)
	}

	wrong := errors.New("password authentication failed")
	tries = 0
	open = func(context.Context, string) (events.Engine, error) { tries++; return nil, wrong }
	if _, err := openWaiting(ctx, log, "postgres://db/tappbook", open, time.Millisecond, nil); !errors.Is(err, wrong) || tries != 1 {
		t.Fatalf("a wrong password: %d tries, %v", tries, err)
	}

	// Stopped while waiting: it stops, saying why it waited.
	ctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	open = func(context.Context, string) (events.Engine, error) { return nil, refused }
	if _, err := openWaiting(ctx, log, "postgres://db/tappbook", open, time.Millisecond, nil); !errors.Is(err, refused) {
		t.Fatalf("stopped while waiting: %v", err)
	}
}

// While serve waits for a database that does not answer, its port is
// closed: a health check is refused at once rather than left hanging for
// as long as the wait. Once the database answers, serve takes the port and
// answers.
func TestServeRefusesConnectionsWhileWaitingForTheDatabase(t *testing.T) {
	u, err := url.Parse(pg.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	up, down := u.Host, clitest.FreeAddr(t) // nothing answers at down yet
	u.Host = down
	addr := clitest.FreeAddr(t)
	logs := &clitest.Buffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--mdns", "off", "--data-dir", t.TempDir(), "--db", u.String()}, logs, logs)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v\n%s", err, logs.String())
		}
	}()
	waitLogged(t, logs, "the database does not answer")
	client := &http.Client{Timeout: 3 * time.Second}
	if res, err := client.Get("http://" + addr + "/livez"); !errors.Is(err, syscall.ECONNREFUSED) {
		if res != nil {
			res.Body.Close()
		}
		t.Fatalf("/livez while waiting for the database: %v, want the connection refused", err)
	}

	// The database answers at down: serve opens it and answers.
	ln, err := net.Listen("tcp", down)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				d, err := net.Dial("tcp", up)
				if err != nil {
					return
				}
				defer d.Close()
				go io.Copy(d, c)
				io.Copy(c, d)
			}()
		}
	}()
	res := getUntil(t, client, "http://"+addr+"/readyz", logs)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz once the database answers: %d\n%s", res.StatusCode, logs.String())
	}
}
