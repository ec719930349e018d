package game

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// NewGame is what an evening is started with.
type NewGame = tapp.Start

// Create starts a game with new ids. A repeated idempotency key returns the
// game the first request started.
func (s *Service) Create(ctx context.Context, ng NewGame, key string) (*tapp.State, error) {
	if ng.Group != "" {
		return s.groups.startEvening(ctx, ng, key)
	}
	k, err := idemKey(createScope, key, createScope, ng)
	if err != nil {
		return nil, err
	}
	if evs, ok, err := findKey(ctx, s.store, k); err != nil {
		return nil, err
	} else if ok {
		return s.Snapshot(ctx, evs[0].Stream)
	}
	if ng.ID, err = newID(); err != nil {
		return nil, err
	}
	if ng.ReadID, err = newID(); err != nil {
		return nil, err
	}
	payloads, err := tapp.Decide(tapp.New(ng.ID), ng)
	if err != nil {
		return nil, err
	}
	res, err := appendNew(ctx, s.store, ng.ID, ng.ReadID, k, newEvents(payloads))
	if err != nil {
		return nil, fmt.Errorf("create game: %w", err)
	}
	return s.Snapshot(ctx, res.Events[0].Stream)
}

// HandAnswer is what recording or correcting a deal answers.
type HandAnswer struct {
	Hand     int
	Dealer   string
	Scored   tapp.Scored
	PotAfter decimal.Decimal
}

// answer is the deal's answer from the command's first payload.
func answer(d Done) (HandAnswer, error) {
	switch p := d.Payloads[0].(type) {
	case tapp.HandRecorded:
		return HandAnswer{Hand: p.Hand, Dealer: p.Dealer, Scored: p.Scored, PotAfter: p.PotAfter}, nil
	case tapp.HandCorrected:
		st := d.State
		return HandAnswer{Hand: p.Hand, Dealer: st.Setup.Players[st.DealerOf(p.Hand)], Scored: p.Scored, PotAfter: p.PotAfter}, nil
	}
	return HandAnswer{}, fmt.Errorf("answer from a %s event", d.Payloads[0].EventType())
}

// Checks are the optional guards of a recording.
type Checks = tapp.Checks

// Record scores and records the next deal, all of it given at once.
func (s *Service) Record(ctx context.Context, id string, rec payout.Record, c Checks, key string) (HandAnswer, error) {
	return s.deal(ctx, id, key, tapp.RecordHand{Record: rec, Checks: c})
}

// Count ends a deal recorded step by step.
func (s *Service) Count(ctx context.Context, id string, counts payout.Record, c Checks, key string) (HandAnswer, error) {
	return s.deal(ctx, id, key, tapp.Count{Counts: counts, Checks: c})
}

// Correct replaces deal n's record and re-scores every later deal whose
// table (the pot) changed because of it.
func (s *Service) Correct(ctx context.Context, id string, n int, rec payout.Record, reason string, c Checks, key string) (HandAnswer, error) {
	return s.deal(ctx, id, key, tapp.CorrectHand{Hand: n, Record: rec, Reason: reason, Checks: c})
}

func (s *Service) deal(ctx context.Context, id, key string, cmd tapp.Command) (HandAnswer, error) {
	done, err := s.Run(ctx, id, key, cmd)
	if err != nil {
		return HandAnswer{}, err
	}
	return answer(done)
}

// Announce starts recording the next deal step by step.
func (s *Service) Announce(ctx context.Context, id string, rec payout.Record, c Checks, key string) error {
	return s.run(ctx, id, key, tapp.Announce{Record: rec, Checks: c})
}

// Kontra sets the kontra level of the deal being recorded.
func (s *Service) Kontra(ctx context.Context, id string, level int, key string) error {
	return s.run(ctx, id, key, tapp.RaiseKontra{Level: level})
}

// Matzl records which side caught the matzl in the deal being recorded.
func (s *Service) Matzl(ctx context.Context, id string, side, key string) error {
	return s.run(ctx, id, key, tapp.CatchMatzl{Side: side})
}

// Void makes deal n no longer count and re-scores later deals whose table
// changed.
func (s *Service) Void(ctx context.Context, id string, n int, reason, key string) error {
	return s.run(ctx, id, key, tapp.VoidHand{Hand: n, Reason: reason})
}

// Retract takes back deal n, the last recorded, as if it had never been
// recorded (undo); it gives who deals deal n, now to be recorded again.
func (s *Service) Retract(ctx context.Context, id string, n int, reason, key string) (string, error) {
	done, err := s.Run(ctx, id, key, tapp.RetractHand{Hand: n, Reason: reason})
	if err != nil {
		return "", err
	}
	if r, ok := done.Payloads[0].(tapp.HandRetracted); ok {
		return r.Dealer, nil
	}
	return "", fmt.Errorf("retract hand %d: answered by a %s event", n, done.Payloads[0].EventType())
}

// AnnounceHerzAs records that someone said "Herz-As" (Württemberg).
func (s *Service) AnnounceHerzAs(ctx context.Context, id, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.AnnounceHerzAs{})
}

// HerzAsHolder records who was dealt ♥A in the deal the question is about,
// or that it lay in the tapp.
func (s *Service) HerzAsHolder(ctx context.Context, id string, h tapp.SayHerzAsHolder, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, h)
}

// WithdrawHerzAs takes back a Herz-As said by mistake.
func (s *Service) WithdrawHerzAs(ctx context.Context, id, reason, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.WithdrawHerzAs{Reason: reason})
}

// Close ends the evening: the pot is shared out and who pays whom is fixed.
func (s *Service) Close(ctx context.Context, id string, c tapp.Close, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, c)
}

// Reopen opens a closed evening again, with why: it takes deals and
// corrections again and is closed again as before.
func (s *Service) Reopen(ctx context.Context, id, reason, key string) (*tapp.State, error) {
	return s.state(ctx, id, key, tapp.Reopen{Reason: reason})
}

func (s *Service) run(ctx context.Context, id, key string, cmd tapp.Command) error {
	_, err := s.Run(ctx, id, key, cmd)
	return err
}

func (s *Service) state(ctx context.Context, id, key string, cmd tapp.Command) (*tapp.State, error) {
	done, err := s.Run(ctx, id, key, cmd)
	if err != nil {
		return nil, err
	}
	return done.State, nil
}

// Rebuild folds a game from its stored events, as they are read; nil for a
// game with no events.
func Rebuild(ctx context.Context, store events.Engine, id string) (*tapp.State, error) {
	f := tapp.NewFolder(id)
	var players []string
	err := store.Replay(ctx, id, func(ev events.Event) error {
		if ev.Version == 1 && ev.Type != tapp.TypeGameStarted {
			return errNotGame // a group's stream
		}
		// ev.Data is lent by Replay: the fold copies what it keeps of it.
		p, err := tapp.DecodeForFold(ev.Type, ev.Data, players)
		if err != nil {
			return fmt.Errorf("rebuild game %s: event %d: %w", id, ev.Version, err)
		}
		if err := f.Apply(Stored(ev, p)); err != nil {
			return fmt.Errorf("rebuild: %w", err)
		}
		if started, ok := p.(tapp.GameStarted); ok {
			players = started.Players
		}
		return nil
	})
	if errors.Is(err, errNotGame) {
		return nil, nil
	}
	var broken *events.ChainError
	if errors.As(err, &broken) && f.Peek().Started() {
		// The events before the one at fault were handed over: the game
		// is read as far as its history holds, and never written to.
		f.Damaged(tapp.Damage{Version: broken.Version, Seq: broken.Seq, Why: broken.Why})
		err = nil
	}
	if err != nil {
		return nil, err
	}
	st := f.State()
	if !st.Started() {
		return nil, nil
	}
	return st, nil
}

// errNotGame ends a replay at a first event that is not a game's.
var errNotGame = errors.New("not a game")

// Stored is a stored event as the fold reads it, with its decoded payload.
// The fold copies what it keeps of ev.Data (a deal's record and
// explanation, read from it when a page shows them; tapp.Event.Raw), so
// data a replay lends may be folded as it is.
func Stored(ev events.Event, p tapp.Payload) tapp.Event {
	return tapp.Event{Version: ev.Version, At: ev.RecordedAt, Hash: ev.Hash, Data: p, Raw: ev.Data}
}
