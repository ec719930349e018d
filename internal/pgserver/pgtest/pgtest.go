// Package pgtest gives tests a database on a real PostgreSQL server: one
// server per test binary, started on first use and stopped when the tests
// end, and a fresh database per test. Without PostgreSQL installed a test
// is skipped, except under CI=true, where it fails: CI must never pass by
// skipping the second engine.
package pgtest

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"

	"tappbook/internal/pgserver"
)

// Server is a test binary's PostgreSQL server, started on first use.
// Declare one per test package and run the tests through Main.
type Server struct {
	once sync.Once
	srv  *pgserver.Server
	err  error
}

// Main runs the tests, then stops the server if a test started it.
func Main(m *testing.M, s *Server) int {
	code := m.Run()
	if s.srv != nil {
		if err := s.srv.Stop(); err != nil {
			os.Stderr.WriteString("pgtest: stop PostgreSQL: " + err.Error() + "\n")
		}
	}
	return code
}

// Required reports whether a missing PostgreSQL fails the tests (CI=true)
// rather than skipping them.
func Required() bool { return os.Getenv("CI") == "true" }

// server starts the server the first time, or skips (fails under CI) the
// test when it cannot be had.
func (s *Server) server(t testing.TB) *pgserver.Server {
	t.Helper()
	s.once.Do(func() { s.srv, s.err = pgserver.Start(context.Background(), pgserver.Options{NoSync: true}) })
	if s.err != nil {
		if errors.Is(s.err, pgserver.ErrNotInstalled) && !Required() {
			t.Skipf("PostgreSQL: %v (under CI=true this fails)", s.err)
		}
		t.Fatalf("PostgreSQL: %v", s.err)
	}
	return s.srv
}

// Database creates an empty database for the test and gives its URL.
func (s *Server) Database(t testing.TB) string {
	t.Helper()
	url, err := s.server(t).NewDatabase(context.Background(), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// Log is what the server wrote, for a failing test to show.
func (s *Server) Log() string {
	if s.srv == nil {
		return ""
	}
	return s.srv.Log()
}
