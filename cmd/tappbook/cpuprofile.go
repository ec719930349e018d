package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// cpuProfiles writes the server's CPU profile to prefix.0 from the start,
// and at each SIGUSR1 ends it and begins the next (prefix.1, …), each file
// made only once the last one is written whole, so that `tappbook bench`
// can profile each of its measures in one server; stop ends the last. For
// measuring, not for serving phones.
func cpuProfiles(prefix string, log *slog.Logger) (stop func(), err error) {
	n := 0
	start := func() (*os.File, error) {
		f, err := os.Create(fmt.Sprintf("%s.%d", prefix, n))
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		n++
		return f, nil
	}
	first, err := start()
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	next := make(chan os.Signal, 1)
	signal.Notify(next, syscall.SIGUSR1)
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		f := first
		for {
			select {
			case <-next:
				pprof.StopCPUProfile()
				f.Close()
				var err error
				if f, err = start(); err != nil {
					log.Error("cpu profile", "err", err)
					return
				}
			case <-quit:
				pprof.StopCPUProfile()
				f.Close()
				return
			}
		}
	}()
	return func() {
		signal.Stop(next)
		close(quit)
		<-done
	}, nil
}
