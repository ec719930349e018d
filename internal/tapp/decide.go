package tapp

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// Decide gives the events a command appends to the game s, or why it is
// refused. It is pure: the same state and command always decide the same.
func Decide(s *State, c Command) ([]Payload, error) {
	if c, ok := c.(payCommand); ok {
		return s.decidePay(c) // a closed evening takes these (pay.go)
	}
	switch c.(type) {
	case Start:
	case Reopen:
		if err := s.mayReopen(); err != nil {
			return nil, err
		}
	default:
		if err := s.mayChange(); err != nil {
			return nil, err
		}
	}
	switch c := s.named(c).(type) {
	case Start:
		return decideStart(s, c)
	case RecordHand:
		return s.decideRecord(c.Record, c.Checks, !c.stored)
	case Count:
		if s.Pending == nil {
			return nil, catalogue.Conflict("conflict.no-deal")
		}
		rec := s.Pending.Record
		rec.Points, rec.Tricks, rec.Ramsch = c.Counts.Points, c.Counts.Tricks, c.Counts.Ramsch
		// The deal is new and held to every check: an announcement stored
		// by an earlier server without what is asked now (a Württemberg
		// trump) is announced again with it.
		return s.decideRecord(rec, c.Checks, !c.stored)
	case Announce:
		return s.decideAnnounce(c)
	case RaiseKontra:
		return s.decideStep(DealKontra{Level: c.Level}, func(r *payout.Record) { level := c.Level; r.Kontra = &level })
	case CatchMatzl:
		return s.decideStep(DealMatzl{Side: c.Side}, func(r *payout.Record) { r.Matzl = c.Side })
	case CorrectHand:
		return s.decideCorrect(c)
	case VoidHand:
		return s.decideVoid(c)
	case RetractHand:
		return s.decideRetract(c)
	case AnnounceHerzAs:
		return s.decideHerzAs()
	case SayHerzAsHolder:
		return s.decideHolder(c)
	case WithdrawHerzAs:
		return s.decideWithdraw(c)
	case Close:
		return s.decideClose(c)
	case Reopen:
		return decideReopen(c)
	}
	return nil, fmt.Errorf("decide: unknown command %T", c)
}

// named gives the command with every player it names as the game keeps
// the name (payout.Setup.Name): a name typed in another Unicode form than
// the one stored is the same player.
func (s *State) named(c Command) Command {
	dealer := func(ch Checks) Checks {
		if ch.Dealer != nil {
			d := s.Setup.Name(*ch.Dealer)
			ch.Dealer = &d
		}
		return ch
	}
	switch c := c.(type) {
	case RecordHand:
		c.Record, c.Checks = s.Setup.Named(c.Record), dealer(c.Checks)
		return c
	case Announce:
		c.Record, c.Checks = s.Setup.Named(c.Record), dealer(c.Checks)
		return c
	case Count:
		c.Counts, c.Checks = s.Setup.Named(c.Counts), dealer(c.Checks)
		return c
	case CorrectHand:
		c.Record, c.Checks = s.Setup.Named(c.Record), dealer(c.Checks)
		return c
	case SayHerzAsHolder:
		c.Player = s.Setup.Name(c.Player)
		return c
	case Close:
		if c.RemainderTo != nil {
			to := make([]string, len(c.RemainderTo))
			for i, n := range c.RemainderTo {
				to[i] = s.Setup.Name(n)
			}
			c.RemainderTo = to
		}
		return c
	}
	return c
}

func decideStart(s *State, c Start) ([]Payload, error) {
	if s.Started() {
		return nil, fmt.Errorf("start game %s: it has started already", s.ID)
	}
	v, err := payout.ParseVariant(c.Variant)
	if err != nil {
		return nil, err
	}
	if err := payout.CheckPlayers(v, c.Players); err != nil {
		return nil, err
	}
	players := payout.NormalizePlayers(c.Players)
	currency, err := CheckCurrency(c.Currency)
	if err != nil {
		return nil, err
	}
	unit, err := checkUnit(c.Unit, currency, c.UnitKept)
	if err != nil {
		return nil, err
	}
	rules, err := payout.DecodeRules(v, c.Rules)
	if err != nil {
		return nil, err
	}
	setup := payout.Setup{Variant: v, Players: players, Rules: rules}
	if err := setup.Check(); err != nil {
		return nil, err
	}
	rulesJSON := map[string]json.RawMessage{}
	for k, val := range rules.RulesMap(v) {
		b, err := json.Marshal(val)
		if err != nil {
			return nil, fmt.Errorf("start game: rules: %w", err)
		}
		rulesJSON[k] = b
	}
	return []Payload{GameStarted{Variant: v, Players: players, Unit: unit, Currency: currency,
		Rules: rulesJSON, ReadID: c.ReadID, Group: c.Group}}, nil
}

// check applies the optional guards to deal n.
func (s *State) check(c Checks, n int) error {
	dealer := s.Setup.Players[s.DealerOf(n)]
	// api.md: a dealer given that is not the expected one is a 409, whoever
	// it names.
	if c.Dealer != nil && *c.Dealer != dealer {
		if s.Setup.IndexOf(*c.Dealer) < 0 {
			// Not a turn missed: a name mistyped, said as such.
			return catalogue.Conflict("conflict.dealer-unknown", dealer, n, *c.Dealer)
		}
		return catalogue.Conflict("conflict.dealer", dealer, n, *c.Dealer)
	}
	if c.ExpectedHand != nil && *c.ExpectedHand != n {
		return catalogue.Conflict("conflict.hand", n, *c.ExpectedHand)
	}
	return nil
}

// mayChange refuses every command but Start on a game that is not
// started, is damaged, or is closed.
func (s *State) mayChange() error {
	switch {
	case !s.Started():
		return catalogue.NotFound("notfound.game")
	case s.Damaged != nil:
		return catalogue.Conflict("conflict.damaged", s.Damaged.Seq, s.Damaged.Version, s.Damaged.Why)
	case s.Closed != nil:
		return catalogue.Conflict("conflict.closed")
	}
	return nil
}

// mayReopen refuses to reopen an evening that is not closed (or whose
// history is damaged).
func (s *State) mayReopen() error {
	switch {
	case !s.Started():
		return catalogue.NotFound("notfound.game")
	case s.Damaged != nil:
		return catalogue.Conflict("conflict.damaged", s.Damaged.Seq, s.Damaged.Version, s.Damaged.Why)
	case s.Closed == nil:
		return catalogue.Conflict("conflict.not-closed")
	}
	return nil
}

// MayReopen says why the evening cannot be reopened now (nil when it can).
func (s *State) MayReopen() error { return s.mayReopen() }

func decideReopen(c Reopen) ([]Payload, error) {
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	if reason == "" {
		return nil, catalogue.Input("reason", "reopen.reason")
	}
	return []Payload{GameReopened{Reason: reason}}, nil
}

// MayCorrect says why no deal may be corrected or voided now: the evening
// is closed (or its history damaged).
func (s *State) MayCorrect() error { return s.mayChange() }

// MayRecord says why no next deal may be recorded now, whatever its
// contract (nil when one may): for a form to say so before anything is
// typed. RecordHand refuses the same, and what its contract adds.
func (s *State) MayRecord() error {
	if err := s.mayChange(); err != nil {
		return err
	}
	e := s.End()
	if e.Over() {
		return catalogue.Conflict("conflict.over")
	}
	if next := s.NextHand(); e.HolderDue(next) {
		return catalogue.Conflict("conflict.holder-first", e.Question, next)
	}
	return nil
}

// mayRecord says whether deal n may be recorded with this contract now:
// the end of a Württemberg evening decides what may be played.
func (s *State) mayRecord(n int, contract string) error {
	if err := s.MayRecord(); err != nil {
		return err
	}
	if e := s.End(); e.Phase == PhaseForced && contract != s.Variant().ForcedContract {
		return catalogue.Conflict("conflict.forced", n, e.Forced, len(s.Setup.Players))
	}
	return nil
}

// scored scores a deal at a table and gives the stored form of its result.
// fresh: a record never stored before, held to every check (payout.ScoreNew);
// one stored already (a pending announcement, a deal brought back as it
// was) only to those it was stored under (payout.Score).
func (s *State) scored(t payout.Table, rec payout.Record, fresh bool) (Scored, error) {
	score := payout.Score
	if fresh {
		score = payout.ScoreNew
	}
	res, err := score(s.Setup, t, rec)
	if err != nil {
		return Scored{}, err
	}
	return NewScored(s.Setup, res)
}

// NewScored turns a payout result into the stored form, keyed by name.
func NewScored(setup payout.Setup, r payout.Result) (Scored, error) {
	deltas := make(map[string]decimal.Decimal, len(r.Deltas))
	for seat, d := range r.Deltas {
		deltas[setup.Players[seat]] = d
	}
	ex := r.Explanation.AppendJSON(make([]byte, 0, 256))
	return Scored{Deltas: deltas, PotDelta: r.PotDelta, Explanation: ex, Text: r.Explanation.Text(), Ruleset: payout.RulesetVersion}, nil
}

func (s *State) decideRecord(rec payout.Record, c Checks, fresh bool) ([]Payload, error) {
	n := s.NextHand()
	if err := s.check(c, n); err != nil {
		return nil, err
	}
	if err := s.mayRecord(n, rec.Contract); err != nil {
		return nil, err
	}
	if r := s.Retracted(); len(r) > 0 && r[len(r)-1].Number == n && reflect.DeepEqual(rec, r[len(r)-1].Record()) {
		fresh = false // the deal just taken back, recorded again as it was stored (redo)
	}
	sc, err := s.scored(payout.Table{Dealer: s.DealerOf(n), Pot: s.pot}, rec, fresh)
	if err != nil {
		return nil, err
	}
	return []Payload{HandRecorded{Hand: n, Dealer: s.Setup.Players[s.DealerOf(n)], Record: rec,
		PotAfter: addUnits(s.pot, sc.PotDelta), Scored: sc}}, nil
}

func (s *State) decideAnnounce(c Announce) ([]Payload, error) {
	r := c.Record
	for _, f := range []struct {
		name  string
		given bool
	}{{"points", r.Points != nil}, {"tricks", r.Tricks != nil}, {"ramsch", r.Ramsch != nil}, {"kontra", r.Kontra != nil}, {"matzl", r.Matzl != ""}} {
		if f.given {
			return nil, catalogue.Input(f.name, "step.later", problem.Field(f.name))
		}
	}
	n := s.NextHand()
	if err := s.check(c.Checks, n); err != nil {
		return nil, err
	}
	if err := s.mayRecord(n, r.Contract); err != nil {
		return nil, err
	}
	if err := payout.CheckAnnouncement(s.Setup, payout.Table{Dealer: s.DealerOf(n), Pot: s.pot}, r, !c.stored); err != nil {
		return nil, err
	}
	return []Payload{DealAnnounced{Hand: n, Record: r}}, nil
}

// decideStep appends one step of the deal being recorded, after checking the
// deal as it will then stand.
func (s *State) decideStep(p Payload, set func(*payout.Record)) ([]Payload, error) {
	if s.Pending == nil {
		return nil, catalogue.Conflict("conflict.no-deal")
	}
	rec := s.Pending.Record
	set(&rec)
	if err := payout.CheckAnnouncement(s.Setup, payout.Table{Dealer: s.DealerOf(s.Pending.Hand), Pot: s.pot}, rec, true); err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case DealKontra:
		p.Hand = s.Pending.Hand
		return []Payload{p}, nil
	case DealMatzl:
		p.Hand = s.Pending.Hand
		return []Payload{p}, nil
	}
	return nil, fmt.Errorf("decide step: %T is not a step", p)
}

func (s *State) decideClose(c Close) ([]Payload, error) {
	if c.Seen != 0 && c.Seen != s.Version {
		return nil, catalogue.Conflict("conflict.close-changed")
	}
	out, err := s.closeWith(c.RemainderTo, !c.paidForgotten)
	if err != nil {
		return nil, err
	}
	if err := checkTransfers(s.Setup.Players, out.Balances, out.Transfers); err != nil {
		return nil, fmt.Errorf("close: %w", err) // a fault in Settle: nothing is written
	}
	shares := make(map[string]decimal.Decimal, len(out.Split))
	for seat, share := range out.Split {
		shares[s.Setup.Players[seat]] = share
	}
	ts := out.Transfers[len(out.Paid):]
	if c.transfersNull && len(ts) == 0 {
		ts = nil
	}
	return []Payload{GameClosed{RemainderTo: out.RemainderTo, Split: shares, Paid: out.Paid, Transfers: ts}}, nil
}
