// Package game carries out what the table asks for (start an evening, record,
// correct or void a deal, close) by checking it against the game as it
// stands, scoring it with the payout engine and appending the resulting
// events in one transaction. It keeps each game folded in memory and up to
// date as it appends.
package game

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/payout"
	"tappbook/internal/projection"
)

// ErrNotFound is an unknown game or deal.
var ErrNotFound = errors.New("not found")

// NotFoundError says what was not found, as a message code and its args.
type NotFoundError struct {
	Code string
	Args []any
}

func (e *NotFoundError) Error() string { return fmt.Sprintf(English(e.Code), e.Args...) }
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

func notFound(what string, args ...any) error {
	return &NotFoundError{Code: "notfound." + what, Args: args}
}

// ConflictError is a request the game's state refuses: closed, another
// dealer, a stale hand number. It says what happened.
type ConflictError struct {
	Code string
	Args []any
}

func (e *ConflictError) Error() string { return fmt.Sprintf(English(e.Code), e.Args...) }

func conflict(what string, args ...any) error {
	return &ConflictError{Code: "conflict." + what, Args: args}
}

// English gives the English text of one of the service's message codes.
func English(code string) string {
	if m, ok := EnglishMessages()[code]; ok {
		return m
	}
	return "unknown problem (" + code + ")"
}

// EnglishMessages lists the service's message codes with their English
// printf formats; the UI translates the same codes.
func EnglishMessages() map[string]string {
	return map[string]string{
		"notfound.game":            "there is no game with this id; check the link",
		"notfound.hand":            "there is no hand %v in this game",
		"notfound.hand-number":     "there is no hand %q in this game; hands are numbered from 1",
		"notfound.deal":            "no deal is being recorded step by step",
		"conflict.key-reused":      "this Idempotency-Key was already used for a different request; use a new key for each request",
		"conflict.concurrent":      "someone else changed this game at the same moment; reload and try again",
		"conflict.closed":          "this evening is closed; nothing more can be recorded or changed",
		"conflict.dealer":          "%s deals hand %d, not %s; someone may have recorded a deal meanwhile",
		"conflict.hand":            "this deal is hand %d, not %d; someone may have recorded it already, so check the list before recording again",
		"conflict.no-deal":         "no deal is being recorded step by step; announce the contract first",
		"conflict.voided":          "hand %d is already voided",
		"conflict.herz-as-variant": "Herz-As ends a Württemberg evening; this game is %s",
		"conflict.herz-as-again":   "Herz-As was already announced",
		"conflict.herz-as-holder":  "the ♥A holder is asked after Herz-As and the deal after it",
	}
}

// Service runs the commands of every game in one store.
type Service struct {
	store *events.Store
	live  broker

	// The games in memory: the most recently used, up to a budget of deals,
	// so memory grows with the games being played, not with the history.
	mu     sync.Mutex
	games  map[string]*entry
	tick   uint64 // a clock of uses, for least recently used
	deals  int    // deals held by the games in memory
	budget int
}

// DealBudget is how many deals the games held in memory may have together
// (about 2 KB each) before the least recently used game is let go.
const DealBudget = 20_000

// entry is one game in memory: its lock serialises the game's commands (so
// each sees the state the previous one left) and guards its state for
// readers. users, used and deals belong to Service.mu.
type entry struct {
	mu    sync.RWMutex
	game  *projection.Game
	users int    // requests holding it: never let go while > 0
	used  uint64 // when it was last taken
	deals int    // its deals, as counted in Service.deals
}

// New makes a service on a store.
func New(store *events.Store) *Service {
	return &Service{store: store, games: map[string]*entry{}, budget: DealBudget}
}

// release gives back an entry load handed out.
func (s *Service) release(e *entry) {
	s.mu.Lock()
	e.users--
	s.evict()
	s.mu.Unlock()
}

// counted records how many deals an entry's game now has.
func (s *Service) counted(e *entry, deals int) {
	s.mu.Lock()
	s.deals += deals - e.deals
	e.deals = deals
	s.evict()
	s.mu.Unlock()
}

// evict lets go of the least recently used games nobody is using until the
// deals in memory fit the budget. Under s.mu.
func (s *Service) evict() {
	for s.deals > s.budget {
		var oldest *entry
		var oldestID string
		for id, e := range s.games {
			if e.users == 0 && (oldest == nil || e.used < oldest.used) {
				oldest, oldestID = e, id
			}
		}
		if oldest == nil {
			return
		}
		delete(s.games, oldestID)
		s.deals -= oldest.deals
	}
}

// Store gives the event store the service appends to.
func (s *Service) Store() *events.Store { return s.store }

// NewGame is what an evening is started with.
type NewGame struct {
	Variant  string
	Players  []string
	Unit     string // decimal; "" means 1
	Currency string
	Rules    map[string]json.RawMessage
}

// newID is a game id: 128 random bits, which make it a capability.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("new game id: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}

// Create starts a game. A repeated idempotency key returns the game the first
// request started.
func (s *Service) Create(ctx context.Context, ng NewGame, key string) (*projection.Game, error) {
	k, err := idemKey(createScope, key, createScope, ng)
	if err != nil {
		return nil, err
	}
	v, err := payout.ParseVariant(ng.Variant)
	if err != nil {
		return nil, err
	}
	if err := payout.CheckPlayers(v, ng.Players); err != nil {
		return nil, err
	}
	unit := ng.Unit
	if unit == "" {
		unit = "1"
	}
	u, err := decimal.NewFromString(unit)
	if err != nil || !u.IsPositive() {
		return nil, &payout.InputError{Field: "unit", Code: "unit", Args: []any{unit}}
	}
	currency, err := projection.CheckCurrency(ng.Currency)
	if err != nil {
		return nil, &payout.InputError{Field: "currency", Code: "currency", Args: []any{ng.Currency}}
	}
	rules, err := payout.DecodeRules(v, ng.Rules)
	if err != nil {
		return nil, err
	}
	setup := payout.Setup{Variant: v, Players: ng.Players, Rules: rules}
	if err := setup.Check(); err != nil {
		return nil, err
	}
	rulesJSON := map[string]json.RawMessage{}
	for k, val := range rules.RulesMap(v) {
		b, err := json.Marshal(val)
		if err != nil {
			return nil, fmt.Errorf("create game: rules: %w", err)
		}
		rulesJSON[k] = b
	}
	id, err := newID()
	if err != nil {
		return nil, err
	}
	readID, err := newID()
	if err != nil {
		return nil, err
	}
	started := projection.GameStarted{Variant: v, Players: ng.Players, Unit: unit, Currency: currency, Rules: rulesJSON, ReadID: readID}
	res, err := s.store.AppendAliased(ctx, id, 0, k, []string{readID}, events.NewEvent{Type: projection.TypeGameStarted, SchemaVersion: projection.SchemaVersion, Data: started})
	if err != nil {
		return nil, fmt.Errorf("create game: %w", err)
	}
	return s.fold(ctx, res.Events[0].Stream)
}

// load gives a game's entry, folding it from the store the first time.
// load hands out a game's entry, folding the game from the store the first
// time; the caller gives it back with release.
func (s *Service) load(ctx context.Context, id string) (*entry, error) {
	s.mu.Lock()
	e, ok := s.games[id]
	if !ok {
		e = &entry{}
		s.games[id] = e
	}
	e.users++
	s.tick++
	e.used = s.tick
	s.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.game != nil {
		return e, nil
	}
	g, err := s.fold(ctx, id)
	if err != nil {
		s.mu.Lock()
		e.users--
		if e.game == nil && e.users == 0 && s.games[id] == e {
			delete(s.games, id)
		}
		s.mu.Unlock()
		return nil, err
	}
	e.game = g
	s.counted(e, len(g.Hands))
	return e, nil
}

// fold replays a game's events into a new projection: a copy nobody else
// changes.
func (s *Service) fold(ctx context.Context, id string) (*projection.Game, error) {
	g, err := Rebuild(ctx, s.store, id)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, notFound("game")
	}
	return g, nil
}

// View runs fn on a game as it stands, under its read lock: fn must not keep
// the game.
func (s *Service) View(ctx context.Context, id string, fn func(*projection.Game) error) error {
	e, err := s.load(ctx, id)
	if err != nil {
		return err
	}
	defer s.release(e)
	e.mu.RLock()
	defer e.mu.RUnlock()
	return fn(e.game)
}

// command runs fn under the game's write lock and appends the events it
// returns with the game's version as the expected one, then folds them in.
// A repeated idempotency key skips fn and returns the first append's events,
// if that append was the same kind of request (its first event of type
// kind); a key reused for another kind is a conflict. The answer holds the
// values appended (none for a repeated key), so that callers need not decode
// what they just wrote.
func (s *Service) command(ctx context.Context, id, key, kind string, req any, fn func(g *projection.Game) ([]events.NewEvent, error)) (commandResult, *projection.Game, error) {
	k, err := idemKey(id, key, kind, req)
	if err != nil {
		return commandResult{}, nil, err
	}
	e, err := s.load(ctx, id)
	if err != nil {
		return commandResult{}, nil, err
	}
	defer s.release(e)
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.game
	if key != "" {
		evs, ok, err := s.store.FindKey(ctx, k)
		if err != nil {
			return commandResult{}, nil, err
		}
		if ok {
			if evs[0].Type != kind {
				return commandResult{}, nil, conflict("key-reused")
			}
			return commandResult{events: evs}, g, nil
		}
	}
	news, err := fn(g)
	if err != nil {
		return commandResult{}, nil, err
	}
	res, err := s.store.Append(ctx, id, g.Version, k, news...)
	if err != nil {
		if events.IsConflict(err) {
			// Another process wrote to this game: fold it afresh.
			if fresh, ferr := s.fold(ctx, id); ferr == nil {
				e.game = fresh
				s.counted(e, len(fresh.Hands))
			}
			return commandResult{}, nil, conflict("concurrent")
		}
		return commandResult{}, nil, err
	}
	if res.Duplicate {
		return commandResult{events: res.Events}, g, nil
	}
	for i, ev := range res.Events {
		if err := g.ApplyValue(ev, news[i].Data); err != nil {
			if fresh, ferr := s.fold(ctx, id); ferr == nil {
				e.game = fresh // the fold of what was stored
			}
			return commandResult{}, nil, err
		}
	}
	s.counted(e, len(g.Hands))
	s.live.publish(id, g.Version)
	return commandResult{events: res.Events, appended: news}, g, nil
}

// commandResult is what a command wrote: the stored events and, unless the
// idempotency key was repeated, the values they were made from.
type commandResult struct {
	events   []events.Event
	appended []events.NewEvent
}

// answer is the deal's answer from the command's first event: from the value
// appended, or decoded from the stored first answer of a repeated key.
func (r commandResult) answer() (HandAnswer, error) {
	if len(r.appended) > 0 {
		switch p := r.appended[0].Data.(type) {
		case projection.HandRecorded:
			return HandAnswer{Hand: p.Hand, Dealer: p.Dealer, Scored: p.Scored, PotAfter: p.PotAfter}, nil
		case projection.HandCorrected:
			return HandAnswer{Hand: p.Hand, Scored: p.Scored, PotAfter: p.PotAfter}, nil
		}
	}
	return answerFrom(r.events[0])
}

// Checks are the optional guards of a recording (api.md): the dealer the
// phone thinks deals, and the number it thinks the deal gets.
type Checks struct {
	Dealer       *string
	ExpectedHand *int
}

// HandAnswer is what recording or correcting a deal answers.
type HandAnswer struct {
	Hand     int
	Dealer   string
	Scored   projection.Scored
	PotAfter decimal.Decimal
}

func answerFrom(ev events.Event) (HandAnswer, error) {
	switch ev.Type {
	case projection.TypeHandRecorded:
		var p projection.HandRecorded
		if err := json.Unmarshal(ev.Data, &p); err != nil {
			return HandAnswer{}, err
		}
		return HandAnswer{Hand: p.Hand, Dealer: p.Dealer, Scored: p.Scored, PotAfter: p.PotAfter}, nil
	case projection.TypeHandCorrect:
		var p projection.HandCorrected
		if err := json.Unmarshal(ev.Data, &p); err != nil {
			return HandAnswer{}, err
		}
		return HandAnswer{Hand: p.Hand, Scored: p.Scored, PotAfter: p.PotAfter}, nil
	}
	return HandAnswer{}, fmt.Errorf("answer from a %s event", ev.Type)
}

func checkOpen(g *projection.Game) error {
	if g.Closed != nil {
		return conflict("closed")
	}
	return nil
}

func (c Checks) check(g *projection.Game, hand int) error {
	dealer := g.Setup.Players[g.DealerOf(hand)]
	// api.md: a dealer given that is not the expected one is a 409, whoever
	// it names.
	if c.Dealer != nil && *c.Dealer != dealer {
		return conflict("dealer", dealer, hand, *c.Dealer)
	}
	if c.ExpectedHand != nil && *c.ExpectedHand != hand {
		return conflict("hand", hand, *c.ExpectedHand)
	}
	return nil
}

// Record scores and records the next deal, all of it given at once.
func (s *Service) Record(ctx context.Context, id string, rec payout.Record, c Checks, key string) (HandAnswer, error) {
	return s.record(ctx, id, c, key, []any{"record", rec, c}, func(*projection.Game) (payout.Record, error) { return rec, nil })
}

// Count ends a deal recorded step by step: the counts (points, tricks, Ramsch
// scores) join what was announced, and the deal is recorded exactly as the
// one-call Record would record the whole.
func (s *Service) Count(ctx context.Context, id string, counts payout.Record, c Checks, key string) (HandAnswer, error) {
	return s.record(ctx, id, c, key, []any{"count", counts, c}, func(g *projection.Game) (payout.Record, error) {
		if g.Pending == nil {
			return payout.Record{}, conflict("no-deal")
		}
		rec := g.Pending.Record
		rec.Points, rec.Tricks, rec.Ramsch = counts.Points, counts.Tricks, counts.Ramsch
		return rec, nil
	})
}

func (s *Service) record(ctx context.Context, id string, c Checks, key string, req any, build func(*projection.Game) (payout.Record, error)) (HandAnswer, error) {
	done, _, err := s.command(ctx, id, key, projection.TypeHandRecorded, req, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		n := g.NextHand()
		if err := c.check(g, n); err != nil {
			return nil, err
		}
		rec, err := build(g)
		if err != nil {
			return nil, err
		}
		dealer := g.DealerOf(n)
		res, err := payout.Score(g.Setup, payout.Table{Dealer: dealer, Pot: g.Pot}, rec)
		if err != nil {
			return nil, err
		}
		p := projection.HandRecorded{Hand: n, Dealer: g.Setup.Players[dealer], Record: rec,
			PotAfter: g.Pot.Add(res.PotDelta), Scored: projection.NewScored(g.Setup, res)}
		return []events.NewEvent{{Type: projection.TypeHandRecorded, SchemaVersion: projection.SchemaVersion, Data: p}}, nil
	})
	if err != nil {
		return HandAnswer{}, err
	}
	return done.answer()
}

// Announce starts recording the next deal step by step: the contract and who
// plays it, as announced at the table. Announcing again replaces it.
func (s *Service) Announce(ctx context.Context, id string, rec payout.Record, c Checks, key string) error {
	for field, given := range map[string]bool{"points": rec.Points != nil, "tricks": rec.Tricks != nil, "ramsch": rec.Ramsch != nil, "kontra": rec.Kontra != nil, "matzl": rec.Matzl != ""} {
		if given {
			return &payout.InputError{Field: field, Code: "step.later", Args: []any{field}}
		}
	}
	_, _, err := s.command(ctx, id, key, projection.TypeDealAnnounced, []any{rec, c}, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		n := g.NextHand()
		if err := c.check(g, n); err != nil {
			return nil, err
		}
		if err := payout.CheckAnnouncement(g.Setup, payout.Table{Dealer: g.DealerOf(n), Pot: g.Pot}, rec); err != nil {
			return nil, err
		}
		return []events.NewEvent{{Type: projection.TypeDealAnnounced, SchemaVersion: projection.SchemaVersion,
			Data: projection.DealAnnounced{Hand: n, Record: rec}}}, nil
	})
	return err
}

// Kontra sets the kontra level of the deal being recorded (each raise at the
// table is one event; a lower level takes back a mistaken raise).
func (s *Service) Kontra(ctx context.Context, id string, level int, key string) error {
	return s.step(ctx, id, key, projection.TypeDealKontra, level, func(g *projection.Game, rec *payout.Record) any {
		rec.Kontra = &level
		return projection.DealKontra{Hand: g.Pending.Hand, Level: level}
	})
}

// Matzl records which side caught the matzl in the deal being recorded.
func (s *Service) Matzl(ctx context.Context, id string, side, key string) error {
	return s.step(ctx, id, key, projection.TypeDealMatzl, side, func(g *projection.Game, rec *payout.Record) any {
		rec.Matzl = side
		return projection.DealMatzl{Hand: g.Pending.Hand, Side: side}
	})
}

// step appends one step of the deal being recorded, after checking the deal
// as it will then stand.
func (s *Service) step(ctx context.Context, id, key, kind string, req any, apply func(*projection.Game, *payout.Record) any) error {
	_, _, err := s.command(ctx, id, key, kind, req, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		if g.Pending == nil {
			return nil, conflict("no-deal")
		}
		rec := g.Pending.Record
		data := apply(g, &rec)
		if err := payout.CheckAnnouncement(g.Setup, payout.Table{Dealer: g.DealerOf(g.Pending.Hand), Pot: g.Pot}, rec); err != nil {
			return nil, err
		}
		return []events.NewEvent{{Type: kind, SchemaVersion: projection.SchemaVersion, Data: data}}, nil
	})
	return err
}

// Correct replaces deal n's record and re-scores every later deal whose
// table (the pot) changed because of it.
func (s *Service) Correct(ctx context.Context, id string, n int, rec payout.Record, reason string, c Checks, key string) (HandAnswer, error) {
	done, g, err := s.command(ctx, id, key, projection.TypeHandCorrect, []any{n, rec, reason, c}, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		if g.Hand(n) == nil {
			return nil, notFound("hand", n)
		}
		if err := c.check(g, n); err != nil {
			return nil, err
		}
		pot := g.PotBefore(n)
		res, err := payout.Score(g.Setup, payout.Table{Dealer: g.DealerOf(n), Pot: pot}, rec)
		if err != nil {
			return nil, err
		}
		scored := projection.NewScored(g.Setup, res)
		first := events.NewEvent{Type: projection.TypeHandCorrect, SchemaVersion: projection.SchemaVersion,
			Data: projection.HandCorrected{Hand: n, Record: rec, Reason: reason, PotAfter: pot.Add(res.PotDelta), Scored: scored}}
		later, err := rescore(g, n, pot.Add(res.PotDelta))
		if err != nil {
			return nil, err
		}
		return append([]events.NewEvent{first}, later...), nil
	})
	if err != nil {
		return HandAnswer{}, err
	}
	a, err := done.answer()
	if err != nil {
		return HandAnswer{}, err
	}
	a.Dealer = g.Setup.Players[g.DealerOf(a.Hand)]
	return a, nil
}

// Void makes deal n no longer count and re-scores later deals whose table
// changed.
func (s *Service) Void(ctx context.Context, id string, n int, reason, key string) error {
	_, _, err := s.command(ctx, id, key, projection.TypeHandVoided, []any{n, reason}, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		h := g.Hand(n)
		if h == nil {
			return nil, notFound("hand", n)
		}
		if h.Voided {
			return nil, conflict("voided", n)
		}
		if strings.TrimSpace(reason) == "" {
			return nil, &payout.InputError{Field: "reason", Code: "void.reason"}
		}
		first := events.NewEvent{Type: projection.TypeHandVoided, SchemaVersion: projection.SchemaVersion,
			Data: projection.HandVoided{Hand: n, Reason: reason}}
		later, err := rescore(g, n, g.PotBefore(n))
		if err != nil {
			return nil, err
		}
		return append([]events.NewEvent{first}, later...), nil
	})
	return err
}

// rescore walks the deals after n, given the pot after deal n as it will now
// be, and re-scores each counted deal whose pot before it changed. Deals of
// variants without a pot never change.
func rescore(g *projection.Game, n int, pot decimal.Decimal) ([]events.NewEvent, error) {
	var out []events.NewEvent
	for k := n + 1; k <= len(g.Hands); k++ {
		h := g.Hand(k)
		if h.Voided {
			continue
		}
		if pot.Equal(g.PotBefore(k)) {
			// From here on the table is as it was: nothing later changes.
			break
		}
		res, err := payout.Score(g.Setup, payout.Table{Dealer: g.DealerOf(k), Pot: pot}, h.Record)
		if err != nil {
			return nil, fmt.Errorf("re-score hand %d: %w", k, err)
		}
		scored := projection.NewScored(g.Setup, res)
		pot = pot.Add(res.PotDelta)
		if scored.Equal(h.Result) {
			continue
		}
		out = append(out, events.NewEvent{Type: projection.TypeHandRescored, SchemaVersion: projection.SchemaVersion,
			Data: projection.HandRescored{Hand: k, Cause: n, PotAfter: pot, Scored: scored}})
	}
	return out, nil
}

// Close ends the evening: the old-tapp pot is shared out and who pays whom
// is fixed.
func (s *Service) Close(ctx context.Context, id string, remainderTo []string, key string) (*projection.Game, error) {
	_, _, err := s.command(ctx, id, key, projection.TypeGameClosed, remainderTo, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		split, err := payout.SplitPot(g.Setup, g.Balances, g.Pot, remainderTo)
		if err != nil {
			return nil, err
		}
		final := make([]decimal.Decimal, len(g.Balances))
		shares := map[string]decimal.Decimal{}
		for seat, b := range g.Balances {
			final[seat] = b.Add(split.Shares[seat])
			shares[g.Setup.Players[seat]] = split.Shares[seat]
		}
		p := projection.GameClosed{RemainderTo: split.RemainderTo, Split: shares, Transfers: projection.Settle(g.Setup.Players, final)}
		return []events.NewEvent{{Type: projection.TypeGameClosed, SchemaVersion: projection.SchemaVersion, Data: p}}, nil
	})
	if err != nil {
		return nil, err
	}
	return s.fold(ctx, id)
}

// Events gives a game's events for the audit.
func (s *Service) Events(ctx context.Context, id string) ([]events.Event, error) {
	evs, err := s.store.ReadStream(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, notFound("game")
	}
	return evs, nil
}

// AnnounceHerzAs records that someone said "Herz-As" (Württemberg): the
// evening heads for its end.
func (s *Service) AnnounceHerzAs(ctx context.Context, id, key string) error {
	_, _, err := s.command(ctx, id, key, projection.TypeHerzAs, nil, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		if g.Setup.Variant != payout.Wuerttemberg {
			return nil, conflict("herz-as-variant", string(g.Setup.Variant))
		}
		if g.HerzAs != nil {
			return nil, conflict("herz-as-again")
		}
		return []events.NewEvent{{Type: projection.TypeHerzAs, SchemaVersion: projection.SchemaVersion,
			Data: projection.HerzAs{AfterHand: len(g.Hands)}}}, nil
	})
	return err
}

// HerzAsHolder records who was dealt ♥A in the deal after Herz-As.
func (s *Service) HerzAsHolder(ctx context.Context, id, player, key string) error {
	_, _, err := s.command(ctx, id, key, projection.TypeHerzAsHolder, player, func(g *projection.Game) ([]events.NewEvent, error) {
		if err := checkOpen(g); err != nil {
			return nil, err
		}
		if g.End().Phase != projection.PhaseHolder {
			return nil, conflict("herz-as-holder")
		}
		if g.Setup.IndexOf(player) < 0 {
			return nil, &payout.InputError{Field: "player", Code: "player.unknown", Args: []any{"player", player, strings.Join(g.Setup.Players, ", ")}}
		}
		return []events.NewEvent{{Type: projection.TypeHerzAsHolder, SchemaVersion: projection.SchemaVersion,
			Data: projection.HerzAsHolder{Hand: g.HerzAs.AfterHand + 1, Player: player}}}, nil
	})
	return err
}

// ResolveRead gives the game a read-only key opens, or a not-found error.
// The key opens only the reading pages and endpoints.
func (s *Service) ResolveRead(ctx context.Context, readID string) (string, error) {
	id, err := s.store.Resolve(ctx, readID)
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", notFound("game")
	}
	return id, nil
}
