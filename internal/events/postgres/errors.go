package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"

	"tappbook/internal/events"
)

// diskError is a write PostgreSQL refused for want of disk (SQLSTATE
// 53100, disk_full); it is events.ErrDiskFull for errors.Is, as on SQLite,
// so that callers answer it the same way (507, a degraded health).
type diskError struct{ err error }

func (e *diskError) Error() string   { return e.err.Error() + " (the database's disk is full)" }
func (e *diskError) Unwrap() []error { return []error{events.ErrDiskFull, e.err} }

// writeFailed marks a full disk as events.ErrDiskFull, and keeps a write
// that failed for the disk or for a database out of reach (a lost or
// refused connection) for Health; others pass as they are.
func (s *Store) writeFailed(err error) error {
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "53100":
		err = &diskError{err}
		// Said whatever was said before (out of reach, say): a ping that
		// is answered does not end it, only a write that succeeds.
		s.unreachable.Store(false)
		s.health.Store(&events.Health{Problem: fmt.Sprintf("the last write failed: %v", err), Summary: "the last write failed: the database's disk is full", Since: s.now()})
	case outOfReach(err):
		if s.health.Load() == nil {
			s.unreachable.Store(true)
		}
		s.degrade(fmt.Errorf("%s: %w", unreachableSummary, err))
	}
	return reach(err)
}

// unreachable is an error of a database that did not answer, with the
// driver's words: events.ErrUnavailable for errors.Is, so that a page or
// the API answers 503, "try again in a moment".
type unreachable struct{ err error }

func (e *unreachable) Error() string   { return e.err.Error() }
func (e *unreachable) Unwrap() []error { return []error{events.ErrUnavailable, e.err} }

// reach marks err as events.ErrUnavailable when the database did not
// answer, and a read after Close (on the pool it closed) as
// events.ErrClosed, as an append after it is; an unknown outcome stays
// what it is.
func reach(err error) error {
	switch {
	case errors.Is(err, puddle.ErrClosedPool) && !errors.Is(err, events.ErrClosed):
		return fmt.Errorf("%w: %w", events.ErrClosed, err)
	case err == nil || !outOfReach(err) || errors.Is(err, events.ErrUnavailable) || errors.Is(err, events.ErrOutcomeUnknown):
		return err
	}
	return &unreachable{err}
}

// pingTimeout bounds Ping: a health check answers promptly.
const pingTimeout = 2 * time.Second

// Ping asks the database to answer, for /healthz: a server whose database
// is out of reach is not ready, whether or not a write has failed yet. A
// database that answers again ends the degradation a write out of reach
// began (a server a load balancer took out of rotation gets no writes to
// end it).
//
// It asks on a connection of its own, not one of the pool's: with every
// pooled connection busy on appends (a busy evening, or appends waiting on
// one stream's lock) the database still answers, and the server is ready.
// Health checks that come at once share one question, so that however
// many there are they hold one connection to the database.
func (s *Store) Ping(ctx context.Context) error {
	ch := s.pings.DoChan("ping", func() (any, error) {
		ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
		defer cancel()
		err := s.pingPool.Ping(ctx)
		if err != nil && ctx.Err() == nil {
			// A connection the database dropped (a restart) fails
			// once and is let go: ask again on a new one.
			err = s.pingPool.Ping(ctx)
		}
		return nil, err
	})
	var err error
	select {
	case r := <-ch:
		err = r.Err
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", unreachableSummary, err)
	}
	if s.unreachable.CompareAndSwap(true, false) {
		s.health.Store(nil)
	}
	return nil
}

var _ events.Pinger = (*Store)(nil)

// OutOfReach reports whether err is the database server not answering (a
// refused or lost connection, a server shutting down), which may pass by
// itself, rather than a wrong password, database or statement.
func OutOfReach(err error) bool { return outOfReach(err) }

// outOfReach reports an error of the connection rather than of the write:
// no connection could be made, it broke, or the server ended it (SQLSTATE
// classes 08, connection exception, and 57P, the server shutting down or
// an administrator ending the session), or no server takes writes just
// now (a failover).
func outOfReach(err error) bool {
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	var ne net.Error
	var dns *net.DNSError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return true // the connection ended in the middle of an answer
	case errors.Is(err, pgconn.ErrReadOnlyConnection), errors.Is(err, pgconn.ErrStandbyConnection):
		// No server of the URL takes writes just now (target_session_attrs
		// read-write or primary): a failover under way, the standby not
		// yet promoted.
		return true
	case errors.As(err, &pe):
		// 55000 when connecting: a database not taking connections for a
		// while (ALLOW_CONNECTIONS false, during maintenance). 25006: a
		// write on a server that has just stopped taking them (a primary
		// being demoted, a standby not yet promoted), a failover under way.
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "55000" && errors.As(err, &ce) ||
			pe.Code == readOnlyTransaction
	case errors.As(err, &dns):
		// A host name that does not exist is a mistake in the URL, not a
		// server that will answer later; a name server that does not
		// answer is an outage.
		return !dns.IsNotFound
	case errors.As(err, &ne):
		return true // refused, reset, unreachable, timed out
	}
	// A connection that could not be made for another reason (TLS refused
	// or not trusted, a URL's mistake) is said at once.
	return pgconn.SafeToRetry(err) || pgconn.Timeout(err)
}

// readOnlyTransaction is SQLSTATE read_only_sql_transaction: a write
// refused, and rolled back, because the server does not take writes.
const readOnlyTransaction = "25006"

// unreachableSummary says a database out of reach without the connection's
// details (user, database, host and port), which /healthz tells anyone.
const unreachableSummary = "the database is out of reach"

func (s *Store) degrade(err error) {
	if s.health.Load() == nil {
		s.health.Store(&events.Health{Problem: fmt.Sprintf("the last write failed: %v", err), Summary: "the last write failed: " + unreachableSummary, Since: s.now()})
	}
}

// Health says whether the store's last write succeeded (see
// events.Store.Health): a write refused for room, or a database out of
// reach, makes it degraded until a write succeeds again.
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
