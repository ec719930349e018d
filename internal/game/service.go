// Package game runs the commands of every game in one event store: it
// loads a game's state, lets internal/tapp decide what a command appends,
// appends it in one transaction (idempotently, against the version it
// decided on) and publishes the new state. Readers get immutable snapshots
// and render them with no lock held, so a slow reader delays nobody.
package game

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"maps"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/payee"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// Messages is the service's catalogue of refusals, for translators.
func Messages() problem.Catalogue { return catalogue }

// Refusals is every refusal a request can meet: the rules', the game's and
// the service's, in one catalogue for translators.
func Refusals() (problem.Catalogue, error) {
	return problem.Join(payout.Messages(), tapp.Messages(), catalogue, group.Messages(), groupCatalogue, payee.Messages())
}

var catalogue = problem.NewCatalogue(map[string]string{
	"key.reused":          "this Idempotency-Key was already used for a different request; use a new key for each request",
	"key.invalid":         "Idempotency-Key must be 1 to %d printable ASCII characters (letters, digits, punctuation, spaces)",
	"key.several":         "send one Idempotency-Key, not several",
	"conflict.concurrent": "someone else changed this game at the same moment; reload and try again",
	"notfound.event":      "there is no event %d in this game: its events are numbered 1 to %d",
})

// Service runs the commands of every game in one store.
type Service struct {
	store  events.Engine
	live   broker
	groups *Groups // the groups of evenings, in the same store
	runner *runner[tapp.State, tapp.Command, tapp.Payload]

	// The games in memory, weighed by the bytes they hold (see memo).
	games *memo[tapp.State]
	mu    sync.Mutex // guards damaged
	// damaged: the games met whose stored history does not hold, for the
	// health check; kept when the game is let go.
	damaged map[string]tapp.Damage
	// shared: other servers append to the same store (see shared.go).
	shared bool
	// refolds: readers that find a game moved by another server fold it
	// once between them, not once each.
	refolds singleflight.Group
}

// MemoryBudget is how many bytes the games held in memory may hold
// together (tapp.State.Bytes: their deals, about 600 bytes each, most of
// it the stored bytes a deal keeps) before the least recently used game is
// let go; it grows up to MemoryCeiling while games let go are wanted again
// soon after (memo.go). Weighed in bytes, not deals, so that a deal kept
// smaller lets more of them stay, and a deal of long corrections weighs
// what it holds. Once more deals are in play than it holds, each deal of
// a game let go folds the whole game again: at 20,000 deals (the budget's
// floor when it counted deals), 160 tables with evenings of 200 deals
// recorded at half the rate of 64 (BenchmarkMoreTablesThanMemoryHolds).
// A fixed 28 MB kept them at it, but cost 64 tables a tenth of their rate:
// the finished evenings it kept made the heap larger and the collector run
// more often. 12 and 24 MiB hold about the deals 16 and 32 MiB held at
// 750 bytes a deal, in a quarter less memory, so that serve's soft limit
// came down with them (cmd/tappbook, serveMemoryLimit).
const (
	MemoryBudget  = 12 << 20
	MemoryCeiling = 24 << 20
)

// entry is one game in memory.
type entry = slot[tapp.State]

// New makes a service on a store. On a store several servers share
// (events.Watcher), the service follows the appends the others make: see
// shared.go.
func New(store events.Engine) *Service {
	s := &Service{store: store, damaged: map[string]tapp.Damage{},
		games: newMemo(MemoryBudget, MemoryCeiling, (*tapp.State).Bytes, func(st *tapp.State) int64 { return st.Version })}
	s.runner = s.newRunner()
	s.groups = newGroups(s)
	s.share()
	return s
}

// Store gives the event store the service appends to.
func (s *Service) Store() events.Engine { return s.store }

// newID is a game id: 128 random bits, which make it a capability.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("new id: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}

// hold hands out a game's entry, folding the game from the store the first
// time; the caller gives it back with release. On a store other servers
// share, a game held for a reader is first brought up to its stored
// version; one held for a command (play) is not: its append is against the
// version it was decided on, which a moved game refuses (runner).
func (s *Service) hold(ctx context.Context, id string, play bool) (*entry, error) {
	e := s.games.take(id, play)
	if e.state.Load() != nil {
		// Readers take the snapshot without waiting for a command.
		if err := s.catchUpReader(ctx, id, e, play); err != nil {
			s.games.release(e)
			return nil, err
		}
		return e, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.Load() != nil {
		if err := s.catchUpReader(ctx, id, e, play); err != nil {
			s.games.release(e)
			return nil, err
		}
		return e, nil
	}
	st, err := s.fold(ctx, id)
	if err != nil {
		s.games.drop(id, e)
		return nil, err
	}
	s.publish(e, st)
	// Whoever follows the game from now on is sent this version when it
	// starts to follow: it is not news (see tell).
	e.told.Store(st.Version)
	return e, nil
}

// catchUpReader catches a game up for a reader, not for a command (play).
func (s *Service) catchUpReader(ctx context.Context, id string, e *entry, play bool) error {
	if play {
		return nil
	}
	return s.catchUp(ctx, id, e)
}

// release gives back an entry hold handed out.
func (s *Service) release(e *entry) { s.games.release(e) }

// publish makes st the entry's state, for every reader from now on.
func (s *Service) publish(e *entry, st *tapp.State) {
	if st.Damaged != nil {
		s.mu.Lock()
		s.damaged[st.ID] = *st.Damaged
		s.mu.Unlock()
	}
	s.games.publish(e, st)
}

// fold replays a game's events into a new state.
func (s *Service) fold(ctx context.Context, id string) (*tapp.State, error) {
	st, err := Rebuild(ctx, s.store, id)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, tapp.Messages().NotFound("notfound.game")
	}
	return st, nil
}

// Snapshot gives a game as it stands: an immutable state the caller may
// keep and read for as long as it likes, with no lock held.
func (s *Service) Snapshot(ctx context.Context, id string) (*tapp.State, error) {
	e, err := s.hold(ctx, id, false)
	if err != nil {
		return nil, err
	}
	defer s.release(e)
	return e.state.Load(), nil
}

// Done is what a command on a game wrote.
type Done = Ran[tapp.State, tapp.Payload]

// Run decides a command on the game as it stands and appends what it
// decides, against the version it decided on (runner). A repeated
// idempotency key decides nothing and answers with the events the first
// request appended, if that was the same kind of command; a key reused for
// another kind is a conflict.
func (s *Service) Run(ctx context.Context, id, key string, cmd tapp.Command) (Done, error) {
	return s.runner.run(ctx, id, key, cmd)
}

// newRunner is how the service runs a game's commands: hold catches the
// game up, an append is told to the game's followers.
func (s *Service) newRunner() *runner[tapp.State, tapp.Command, tapp.Payload] {
	return &runner[tapp.State, tapp.Command, tapp.Payload]{
		noun: "game", schema: tapp.SchemaVersion, conflict: catalogue.Conflict("conflict.concurrent"), store: s.store,
		decide: tapp.Decide,
		evolve: func(st *tapp.State, evs []events.Event, ps []tapp.Payload) (*tapp.State, error) {
			return tapp.Evolve(st, folded(evs, ps)...)
		},
		decode: func(st *tapp.State, ev events.Event) (tapp.Payload, error) {
			return tapp.Decode(ev.Type, ev.Data, st.Setup.Players)
		},
		version: func(st *tapp.State) int64 { return st.Version },
		hold:    func(ctx context.Context, id string) (*entry, error) { return s.hold(ctx, id, true) },
		catchUp: s.catchUp,
		release: s.release,
		refold: func(ctx context.Context, id string, e *entry) error {
			fresh, err := s.fold(ctx, id)
			if err != nil {
				return err
			}
			s.publish(e, fresh)
			return nil
		},
		publish: func(id string, e *entry, next *tapp.State) {
			s.publish(e, next)
			s.tell(id, e, next.Version)
		},
	}
}

// newEvents is what the store appends for a game's decided payloads.
func newEvents(ps []tapp.Payload) []events.NewEvent { return toAppend(tapp.SchemaVersion, ps) }

// folded pairs stored events with the payloads they were made from, for
// the fold: no need to decode what was just written.
func folded(evs []events.Event, ps []tapp.Payload) []tapp.Event {
	out := make([]tapp.Event, len(evs))
	for i, ev := range evs {
		// The game keeps the bytes as long as it is in memory: a copy of
		// their length, not the store's buffer with room to spare.
		ev.Data = bytes.Clone(ev.Data)
		out[i] = Stored(ev, ps[i])
	}
	return out
}

// ResolveRead gives the game a read-only key opens, or a not-found error.
// The key opens only the reading pages and endpoints.
func (s *Service) ResolveRead(ctx context.Context, readID string) (string, error) {
	id, err := s.store.Resolve(ctx, readID)
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", tapp.Messages().NotFound("notfound.game")
	}
	return id, nil
}

// Events gives a game's events for the audit.
func (s *Service) Events(ctx context.Context, id string) ([]events.Event, error) {
	evs, err := s.store.ReadStream(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 || evs[0].Type != tapp.TypeGameStarted {
		return nil, tapp.Messages().NotFound("notfound.game")
	}
	return evs, nil
}

// View runs fn on a snapshot of the game, with no lock held: fn may take
// as long as it likes (write a page to a slow phone) without delaying
// anyone.
func (s *Service) View(ctx context.Context, id string, fn func(*tapp.State) error) error {
	st, err := s.Snapshot(ctx, id)
	if err != nil {
		return err
	}
	return fn(st)
}

// Damaged lists the games met so far whose stored history does not hold,
// with what is wrong: they are served read-only.
func (s *Service) Damaged() map[string]tapp.Damage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.damaged)
}
