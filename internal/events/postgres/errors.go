package postgres

import (
	"errors"
	"fmt"
	"net"

	"github.com/jackc/pgx/v5/pgconn"

	"tappbook/internal/events"
)

// diskError is a write PostgreSQL refused for want of room (SQLSTATE class
// 53: disk full, out of memory, too many connections) or could not make
// for a broken connection; it is events.ErrDiskFull for errors.Is, as on
// SQLite, so that callers answer it the same way (507, a degraded health).
type diskError struct{ err error }

func (e *diskError) Error() string   { return e.err.Error() + " (the database cannot write now)" }
func (e *diskError) Unwrap() []error { return []error{events.ErrDiskFull, e.err} }

// writeFailed marks an error of the database's resources as
// events.ErrDiskFull and keeps it for Health; others pass.
func (s *Store) writeFailed(err error) error {
	var pe *pgconn.PgError
	var ne net.Error
	switch {
	case errors.As(err, &pe) && (pe.Code == "53100" || pe.Code == "53200"),
		errors.As(err, &ne), pgconn.SafeToRetry(err):
		err = &diskError{err}
		if s.health.Load() == nil {
			s.health.Store(&events.Health{Problem: fmt.Sprintf("the last write failed: %v", err), Since: s.now()})
		}
	}
	return err
}

// Health says whether the store's last write succeeded (see
// events.Store.Health): a write refused for room or a lost connection
// makes it degraded until a write succeeds again.
func (s *Store) Health() events.Health {
	if h := s.health.Load(); h != nil {
		return *h
	}
	return events.Health{OK: true}
}

// isUnique reports a unique violation of the named constraint.
func isUnique(err error, constraint string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == constraint
}

// isRefusal reports an append refused before it wrote anything, returned
// to the caller as it is.
func isRefusal(err error) bool {
	var kr *events.KeyReusedError
	var ce *events.ChainError
	return events.IsConflict(err) || errors.As(err, &kr) || errors.As(err, &ce)
}
