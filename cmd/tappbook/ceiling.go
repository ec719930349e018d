package main

import (
	"context"
	"fmt"
	"net"
	"os/signal"
	"syscall"

	"tappbook/internal/bench"
)

// serveCeiling runs the bare HTTP handlers `tappbook bench` measures
// tappbook against, as a process of their own, as tappbook serve is,
// until it is told to stop.
func serveCeiling(ctx context.Context, addr, dir string) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("bench ceiling: listen on %s: %w", addr, err)
	}
	return bench.ServeCeiling(ctx, ln, dir)
}
