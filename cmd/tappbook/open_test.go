package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

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
	if _, err := openWaiting(ctx, log, "postgres://db/tappbook", open, time.Millisecond); err != nil || tries != 3 {
		t.Fatalf("after %d tries: %v", tries, err)
	}

	wrong := errors.New("password authentication failed")
	tries = 0
	open = func(context.Context, string) (events.Engine, error) { tries++; return nil, wrong }
	if _, err := openWaiting(ctx, log, "postgres://db/tappbook", open, time.Millisecond); !errors.Is(err, wrong) || tries != 1 {
		t.Fatalf("a wrong password: %d tries, %v", tries, err)
	}

	// Stopped while waiting: it stops, saying why it waited.
	ctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	open = func(context.Context, string) (events.Engine, error) { return nil, refused }
	if _, err := openWaiting(ctx, log, "postgres://db/tappbook", open, time.Millisecond); !errors.Is(err, refused) {
		t.Fatalf("stopped while waiting: %v", err)
	}
}
