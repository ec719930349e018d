package tapp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
	"tappbook/internal/problem"
)

// Command is something the table asks of a game. Decide turns it into the
// events that say it happened, or refuses it.
type Command interface {
	// Kind is the type of the command's own event among those it appends
	// (rescores may follow a correction); a repeated idempotency key must
	// come with the same kind of command.
	Kind() string
}

// Checks are the optional guards of a recording (api.md): the dealer the
// phone thinks deals, and the number it thinks the deal gets.
type Checks struct {
	Dealer       *string
	ExpectedHand *int
	// Entered, for a correction: how many times the deal's record had
	// been entered when the correction was begun (Hand.Entered, the API's
	// "revisions"). Another client's correction since is not quietly undone.
	Entered *int
	// Changes, for a correction: Hand.Changes when it was begun (the
	// correction form's): neither a correction nor a void since is undone.
	Changes *int
}

// Start begins an evening. The ids are made by the caller: Decide makes no
// randomness of its own.
type Start struct {
	ID, ReadID string
	Variant    string
	Players    []string
	Unit       string // decimal; "" means 1
	Currency   string
	Rules      map[string]json.RawMessage
	Group      string
	// UnitKept: the unit is the one a group or an earlier evening already
	// plays for (a group's evening, "again"), taken as it is: one stored
	// before units finer than their currency were refused still goes on.
	UnitKept bool `json:"-"`
}

// RecordHand records the next deal, all of it given at once.
type RecordHand struct {
	Record payout.Record
	Checks Checks
}

// Announce starts recording the next deal step by step: the contract and
// who plays it, as announced at the table. Announcing again replaces it.
type Announce struct {
	Record payout.Record
	Checks Checks
}

// RaiseKontra sets the kontra level of the deal being recorded (a lower
// level takes back a mistaken raise).
type RaiseKontra struct{ Level int }

// CatchMatzl records which side caught the matzl in the deal being recorded.
type CatchMatzl struct{ Side string }

// Count ends a deal recorded step by step: the counts (points, tricks,
// Ramsch scores) join what was announced, and the deal is recorded exactly
// as RecordHand would record the whole.
type Count struct {
	Counts payout.Record
	Checks Checks
}

// CorrectHand replaces deal n's record; later deals whose table changed are
// re-scored.
type CorrectHand struct {
	Hand   int
	Record payout.Record
	Reason string
	Checks Checks
}

// VoidHand makes deal n no longer count; its dealer turn stays taken.
type VoidHand struct {
	Hand   int
	Reason string
	// stakeBack: decided again as a void stored before the old-tapp stake
	// stayed in the pot (an import), which took it back.
	stakeBack bool
}

// RetractHand takes back deal n, which must be the last recorded, as if it
// had never been recorded (undo): a record made by mistake. A deal played
// that does not count (a misdeal) is voided instead.
type RetractHand struct {
	Hand   int
	Reason string
}

// AnnounceHerzAs: someone said "Herz-As" after the last recorded deal.
type AnnounceHerzAs struct{}

// SayHerzAsHolder: who was dealt ♥A in the deal the question is about, or
// that it lay in the tapp.
type SayHerzAsHolder struct {
	Player string
	InTapp bool
	// Change names another player than the one named (a mis-tap), while
	// no deal recorded is regular under one answer and forced under the
	// other.
	Change bool
}

// WithdrawHerzAs takes back a Herz-As said by mistake, before any
// Zwangsramsch is played.
type WithdrawHerzAs struct{ Reason string }

// Close ends the evening: the pot is shared out and who pays whom is fixed.
// Seen, when not 0, is the version of the game whose settlement the closer
// was shown: an evening changed since (a deal recorded on another phone)
// is not closed on numbers nobody saw.
type Close struct {
	RemainderTo []string
	Seen        int64
}

// Reopen opens a closed evening again, with why: a deal found wrong while
// settling can then be corrected, and the evening closed again.
type Reopen struct{ Reason string }

func (Start) Kind() string           { return TypeGameStarted }
func (RecordHand) Kind() string      { return TypeHandRecorded }
func (Announce) Kind() string        { return TypeDealAnnounced }
func (RaiseKontra) Kind() string     { return TypeDealKontra }
func (CatchMatzl) Kind() string      { return TypeDealMatzl }
func (Count) Kind() string           { return TypeHandRecorded }
func (CorrectHand) Kind() string     { return TypeHandCorrect }
func (VoidHand) Kind() string        { return TypeHandVoided }
func (RetractHand) Kind() string     { return TypeHandRetracted }
func (AnnounceHerzAs) Kind() string  { return TypeHerzAs }
func (SayHerzAsHolder) Kind() string { return TypeHerzAsHolder }
func (WithdrawHerzAs) Kind() string  { return TypeHerzAsWithdrawn }
func (Close) Kind() string           { return TypeGameClosed }
func (Reopen) Kind() string          { return TypeGameReopened }

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
		return s.decideRecord(c.Record, c.Checks, true)
	case Count:
		if s.Pending == nil {
			return nil, catalogue.Conflict("conflict.no-deal")
		}
		rec := s.Pending.Record
		rec.Points, rec.Tricks, rec.Ramsch = c.Counts.Points, c.Counts.Tricks, c.Counts.Ramsch
		// The announcement was checked as new when it was stored; one
		// stored before a check was added is not refused now.
		return s.decideRecord(rec, c.Checks, false)
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
	if err := payout.CheckAnnouncement(s.Setup, payout.Table{Dealer: s.DealerOf(n), Pot: s.pot}, r); err != nil {
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
	if err := payout.CheckAnnouncement(s.Setup, payout.Table{Dealer: s.DealerOf(s.Pending.Hand), Pot: s.pot}, rec); err != nil {
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

func (s *State) decideCorrect(c CorrectHand) ([]Payload, error) {
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	n := c.Hand
	h := s.Hand(n)
	if h == nil {
		return nil, catalogue.NotFound("notfound.hand", n)
	}
	if err := s.check(c.Checks, n); err != nil {
		return nil, err
	}
	if (c.Checks.Entered != nil && *c.Checks.Entered != h.Entered()) || (c.Checks.Changes != nil && *c.Checks.Changes != h.Changes()) {
		now := strings.TrimSuffix(h.Result().Text(), ".")
		if h.Voided {
			now = "voided (" + h.VoidReason + ")"
		}
		return nil, catalogue.Conflict("conflict.entered", n, now)
	}
	if e := s.End(); e.ForcedDeal(n) && c.Record.Contract != s.Variant().ForcedContract {
		return nil, catalogue.Conflict("conflict.forced", n, n-e.LastRegular, len(s.Setup.Players))
	}
	pot := s.PotBefore(n)
	// A deal brought back as it was (the undo taken back) is its stored
	// record, not a new one.
	sc, err := s.scored(payout.Table{Dealer: s.DealerOf(n), Pot: pot}, c.Record, !reflect.DeepEqual(c.Record, h.Record()))
	if err != nil {
		return nil, err
	}
	potAfter := addUnits(pot, sc.PotDelta)
	later, err := s.rescore(n, potAfter)
	if err != nil {
		return nil, err
	}
	first := HandCorrected{Hand: n, Record: c.Record, Reason: reason, PotAfter: potAfter, Scored: sc}
	return append([]Payload{first}, later...), nil
}

func (s *State) decideVoid(c VoidHand) ([]Payload, error) {
	h := s.Hand(c.Hand)
	if h == nil {
		return nil, catalogue.NotFound("notfound.hand", c.Hand)
	}
	if h.Voided {
		return nil, catalogue.Conflict("conflict.voided", c.Hand)
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	if reason == "" {
		return nil, catalogue.Input("reason", "void.reason")
	}
	void := HandVoided{Hand: c.Hand, Reason: reason}
	potAfter := s.PotBefore(c.Hand)
	if s.Variant().HasPot && !c.stakeBack {
		// rules.md "Decisions": a misdeal was dealt, so the dealer's
		// stake stays in the pot.
		stake := s.Setup.Rules.Stake
		void.StakeKept = &stake
		potAfter = addUnits(potAfter, stake)
	}
	later, err := s.rescore(c.Hand, potAfter)
	if err != nil {
		return nil, err
	}
	return append([]Payload{void}, later...), nil
}

// decideRetract takes back the last deal as if never recorded. Being the
// last, no later deal is re-scored; the stake of an old-tapp deal leaves
// the pot with it (rules.md "Decisions").
func (s *State) decideRetract(c RetractHand) ([]Payload, error) {
	h := s.Hand(c.Hand)
	if h == nil {
		return nil, catalogue.NotFound("notfound.hand", c.Hand)
	}
	if last := len(s.hands.items); c.Hand != last {
		return nil, catalogue.Conflict("conflict.retract-not-last", c.Hand, last)
	}
	if s.HerzAs != nil && c.Hand <= s.HerzAs.AfterHand {
		// The end of the evening was counted from this deal on.
		return nil, catalogue.Conflict("conflict.retract-herz-as", c.Hand)
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	return []Payload{HandRetracted{Hand: c.Hand, Dealer: s.Setup.Players[h.Dealer], Reason: reason}}, nil
}

// rescore walks the deals after n, given the pot after deal n as it will
// now be, and re-scores each counted deal whose pot before it changed; it
// stops where the pot is as it was, since from there on nothing changes.
// The pot each deal met is carried forward once, so the walk is linear in
// the deals it passes, and a deal whose result cannot depend on the pot
// (payout.Descriptor.PotMatters) is passed without being scored. Deals of
// variants without a pot never change.
func (s *State) rescore(n int, potAfter decimal.Decimal) ([]Payload, error) {
	var out []Payload
	pot := totalOf(potAfter)
	was := totalOf(s.PotBefore(n + 1)) // the pot deal n+1 met before this change
	for k := n + 1; k <= len(s.hands.items); k++ {
		h := s.Hand(k)
		if h.Voided {
			if h.kept != nil { // a stake kept moves the pot alike either way
				pot, was = pot.plusPot(h.kept), was.plusPot(h.kept)
			}
			continue
		}
		if pot.equal(was) {
			break
		}
		old := h.Result()
		was = was.plusPot(&old.amounts)
		if !h.potMatters {
			pot = pot.plusPot(&old.amounts)
			continue
		}
		res, err := payout.Score(s.Setup, payout.Table{Dealer: s.DealerOf(k), Pot: pot.decimal()}, h.Record())
		if err != nil {
			return nil, fmt.Errorf("re-score hand %d: %w", k, err)
		}
		pot = pot.plus(res.PotDelta)
		if old.equal(res.Deltas, res.PotDelta) && old.Text() == res.Explanation.Text() {
			continue
		}
		sc, err := NewScored(s.Setup, res)
		if err != nil {
			return nil, fmt.Errorf("re-score hand %d: %w", k, err)
		}
		out = append(out, HandRescored{Hand: k, Cause: n, PotAfter: pot.decimal(), Scored: sc})
	}
	return out, nil
}

func (s *State) decideHerzAs() ([]Payload, error) {
	if !s.Variant().EndsWithHerzAs {
		return nil, catalogue.Conflict("conflict.herz-as-variant", problem.Variant(string(s.Setup.Variant)))
	}
	if s.HerzAs != nil {
		return nil, catalogue.Conflict("conflict.herz-as-again")
	}
	return []Payload{HerzAs{AfterHand: len(s.hands.items)}}, nil
}

func (s *State) decideHolder(c SayHerzAsHolder) ([]Payload, error) {
	e := s.End()
	if s.HerzAs == nil {
		return nil, catalogue.Conflict("conflict.herz-as-none")
	}
	if e.Holder != "" && c.Change {
		return s.decideHolderChange(c, e)
	}
	if e.Holder != "" {
		return nil, catalogue.Conflict("conflict.herz-as-holder-known", e.Holder, e.HolderHand)
	}
	if e.Question > s.NextHand() {
		return nil, catalogue.Conflict("conflict.herz-as-holder-early", e.Question)
	}
	if c.InTapp {
		if c.Player != "" {
			return nil, catalogue.Input("player", "herz-as.both")
		}
		return []Payload{HerzAsHolder{Hand: e.Question, InTapp: true}}, nil
	}
	if c.Player == "" {
		return nil, catalogue.Input("player", "herz-as.player-missing")
	}
	if _, err := s.Setup.SeatOf("player", c.Player); err != nil {
		return nil, err
	}
	return []Payload{HerzAsHolder{Hand: e.Question, Player: c.Player}}, nil
}

// decideHolderChange names another player as dealt the ♥A in the same deal.
// Who it is decides the last regular deal (rules.md Württemberg end of the
// evening): the change is refused once a deal is recorded past the last
// regular deal of either answer, which one of them would make forced.
func (s *State) decideHolderChange(c SayHerzAsHolder, e End) ([]Payload, error) {
	if c.InTapp || c.Player == "" {
		return nil, catalogue.Input("player", "herz-as.player-missing")
	}
	seat, err := s.Setup.SeatOf("player", c.Player)
	if err != nil {
		return nil, err
	}
	if s.Setup.Players[seat] == e.Holder {
		return nil, catalogue.Conflict("conflict.herz-as-holder-known", e.Holder, e.HolderHand)
	}
	last, _, _ := payout.WuerttembergEnd(len(s.Setup.Players), seat, e.HolderHand, s.NextHand())
	if played := len(s.hands.items); played > min(last, e.LastRegular) {
		return nil, catalogue.Conflict("conflict.herz-as-holder-late", e.Holder, min(last, e.LastRegular), played)
	}
	return []Payload{HerzAsHolder{Hand: e.HolderHand, Player: s.Setup.Players[seat]}}, nil
}

func (s *State) decideWithdraw(c WithdrawHerzAs) ([]Payload, error) {
	if s.HerzAs == nil {
		return nil, catalogue.Conflict("conflict.herz-as-none")
	}
	if e := s.End(); e.LastRegular > 0 && len(s.hands.items) > e.LastRegular {
		return nil, catalogue.Conflict("conflict.herz-as-withdraw")
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	return []Payload{HerzAsWithdrawn{Reason: reason}}, nil
}

func (s *State) decideClose(c Close) ([]Payload, error) {
	if c.Seen != 0 && c.Seen != s.Version {
		return nil, catalogue.Conflict("conflict.close-changed")
	}
	out, err := s.closeWith(c.RemainderTo)
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
	return []Payload{GameClosed{RemainderTo: out.RemainderTo, Split: shares, Transfers: out.Transfers}}, nil
}
