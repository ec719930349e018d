// Package projection folds a game's events into what the table wants to
// know: each player's balance, the pot, the deals with every revision, who
// deals next, and who pays whom. Folding the same events always gives the
// same state, whether one at a time as they arrive or all at once.
package projection

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/payout"
)

// Game is one evening as its events tell it.
type Game struct {
	ID        string
	ReadID    string // the key of the read-only link
	Setup     payout.Setup
	Unit      decimal.Decimal
	UnitText  string // the unit as given, for its decimal places
	Currency  string
	StartedAt time.Time
	Hands     []*Hand
	Balances  []decimal.Decimal // by seat, in units; with Pot they sum to zero
	Pot       decimal.Decimal
	Closed    *Closing
	Pending   *Pending // a deal being recorded step by step, if any
	HerzAs    *HerzAsState
	Version   int64 // the stream version folded so far
}

// HerzAsState is the end of a Württemberg evening as far as it has come.
type HerzAsState struct {
	AfterHand  int // announced after this deal
	Holder     int // the seat dealt ♥A in deal AfterHand+1; -1 until known
	HolderHand int
}

// Pending is a deal announced but not yet counted.
type Pending struct {
	Hand   int
	Record payout.Record // as far as it is known: no points, tricks or Ramsch yet
	Steps  []Revision
}

// Hand is one deal with its history.
type Hand struct {
	Number     int
	Dealer     int // seat
	Record     payout.Record
	Result     Scored // what counts now; its Explanation is left out: see Explanation()
	PotAfter   decimal.Decimal
	Voided     bool
	VoidReason string
	Revisions  []Revision // oldest first: recorded, then corrections, voids and re-scorings

	explanation json.RawMessage     // of Result, decoded by Explanation()
	explained   *payout.Explanation // the same, when folded from the value itself
}

// Revision is one event in a deal's history.
type Revision struct {
	Kind   string // the event type
	At     time.Time
	Reason string
	Record *payout.Record
	Result *Scored // its Explanation is left out: see Explanation()
	Cause  int     // for a re-scoring: the deal whose change caused it

	explanation json.RawMessage
	explained   *payout.Explanation
}

// Closing is the end of the evening.
type Closing struct {
	At          time.Time
	RemainderTo []string
	Split       []decimal.Decimal // by seat
	Transfers   []Transfer
}

// Fold builds a game from its events.
func Fold(id string, evs []events.Event) (*Game, error) {
	g := &Game{ID: id}
	for _, e := range evs {
		if err := g.Apply(e); err != nil {
			return nil, err
		}
	}
	if g.Version == 0 {
		return nil, fmt.Errorf("fold game %s: no events", id)
	}
	return g, nil
}

// ApplyValue folds an event its writer still holds as the value it
// appended (a recorded deal), without decoding its JSON again; any other
// event goes through Apply. The game ends as Apply would leave it.
func (g *Game) ApplyValue(e events.Event, v any) error {
	p, ok := v.(HandRecorded)
	if !ok || e.Type != TypeHandRecorded {
		return g.Apply(e)
	}
	if e.Version != g.Version+1 {
		return fmt.Errorf("game %s: event version %d after %d", g.ID, e.Version, g.Version)
	}
	lite := recordedLite{Hand: p.Hand, Dealer: p.Dealer, Record: p.Record, PotAfter: p.PotAfter,
		scoredLite: scoredLite{Deltas: p.Deltas, PotDelta: p.PotDelta, Text: p.Text, Ruleset: p.Ruleset}}
	if err := g.applyRecorded(e, &lite); err != nil {
		return fmt.Errorf("game %s: apply event %d (%s): %w", g.ID, e.Version, e.Type, err)
	}
	h := g.Hands[len(g.Hands)-1]
	h.explained = &p.Explanation
	h.Revisions[0].explained = &p.Explanation
	g.Version = e.Version
	return nil
}

// Apply folds one more event into the game. Events must come in version
// order.
func (g *Game) Apply(e events.Event) error {
	if e.Version != g.Version+1 {
		return fmt.Errorf("game %s: event version %d after %d", g.ID, e.Version, g.Version)
	}
	var err error
	switch e.Type {
	case TypeGameStarted:
		err = g.applyStarted(e)
	case TypeHandRecorded:
		var p recordedLite
		if err = decodeRecorded(e.Data, &p, g.Setup.Players); err == nil {
			err = g.applyRecorded(e, &p)
		}
	case TypeHandCorrect:
		var p correctedLite
		if err = json.Unmarshal(e.Data, &p); err == nil {
			err = g.applyCorrected(e, p)
		}
	case TypeHandVoided:
		var p HandVoided
		if err = json.Unmarshal(e.Data, &p); err == nil {
			err = g.applyVoided(e, p)
		}
	case TypeHandRescored:
		var p rescoredLite
		if err = json.Unmarshal(e.Data, &p); err == nil {
			err = g.applyRescored(e, p)
		}
	case TypeDealAnnounced:
		var p DealAnnounced
		if err = json.Unmarshal(e.Data, &p); err == nil {
			g.Pending = &Pending{Hand: p.Hand, Record: p.Record}
			g.Pending.Steps = append(g.Pending.Steps, Revision{Kind: e.Type, At: e.RecordedAt, Record: &p.Record})
		}
	case TypeDealKontra, TypeDealMatzl:
		err = g.applyStep(e)
	case TypeHerzAs:
		var p HerzAs
		if err = json.Unmarshal(e.Data, &p); err == nil {
			g.HerzAs = &HerzAsState{AfterHand: p.AfterHand, Holder: -1}
		}
	case TypeHerzAsHolder:
		var p HerzAsHolder
		if err = json.Unmarshal(e.Data, &p); err == nil {
			if g.HerzAs == nil {
				err = fmt.Errorf("♥A holder before Herz-As was announced")
			} else {
				g.HerzAs.Holder, g.HerzAs.HolderHand = g.Setup.IndexOf(p.Player), p.Hand
			}
		}
	case TypeGameClosed:
		var p GameClosed
		if err = json.Unmarshal(e.Data, &p); err == nil {
			err = g.applyClosed(e, p)
		}
	default:
		err = fmt.Errorf("unknown event type %q", e.Type)
	}
	if err != nil {
		return fmt.Errorf("game %s: apply event %d (%s): %w", g.ID, e.Version, e.Type, err)
	}
	g.Version = e.Version
	return nil
}

func (g *Game) applyStarted(e events.Event) error {
	var p GameStarted
	if err := json.Unmarshal(e.Data, &p); err != nil {
		return err
	}
	rules, err := payout.DecodeStoredRules(p.Variant, p.Rules)
	if err != nil {
		return err
	}
	g.Setup = payout.Setup{Variant: p.Variant, Players: p.Players, Rules: rules}
	if g.Unit, err = decimal.NewFromString(p.Unit); err != nil {
		return fmt.Errorf("unit %q: %w", p.Unit, err)
	}
	g.UnitText, g.Currency, g.StartedAt, g.ReadID = p.Unit, p.Currency, e.RecordedAt, p.ReadID
	g.Balances = make([]decimal.Decimal, len(p.Players))
	for i := range g.Balances {
		g.Balances[i] = decimal.Zero
	}
	g.Pot = decimal.Zero
	return nil
}

// The fold reads a deal's explanation as raw JSON and decodes it only when a
// page shows it: replaying a long history decodes no explanation at all.
type scoredLite struct {
	Deltas      map[string]decimal.Decimal `json:"deltas"`
	PotDelta    decimal.Decimal            `json:"pot_delta"`
	Explanation json.RawMessage            `json:"explanation"`
	Text        string                     `json:"text"`
	Ruleset     string                     `json:"ruleset"`
}

func (s scoredLite) scored() Scored {
	return Scored{Deltas: s.Deltas, PotDelta: s.PotDelta, Text: s.Text, Ruleset: s.Ruleset}
}

type recordedLite struct {
	Hand     int             `json:"hand"`
	Dealer   string          `json:"dealer"`
	Record   payout.Record   `json:"record"`
	PotAfter decimal.Decimal `json:"pot_after"`
	scoredLite
}

type correctedLite struct {
	Hand     int             `json:"hand"`
	Record   payout.Record   `json:"record"`
	Reason   string          `json:"reason,omitempty"`
	PotAfter decimal.Decimal `json:"pot_after"`
	scoredLite
}

type rescoredLite struct {
	Hand     int             `json:"hand"`
	Cause    int             `json:"cause"`
	PotAfter decimal.Decimal `json:"pot_after"`
	scoredLite
}

// Explanation decodes why the deal's current result is what it is.
func (h *Hand) Explanation() payout.Explanation {
	if h.explained != nil {
		return *h.explained
	}
	return decodeExplanation(h.explanation)
}

// Explanation decodes why the revision's result was what it was.
func (r Revision) Explanation() payout.Explanation {
	if r.explained != nil {
		return *r.explained
	}
	return decodeExplanation(r.explanation)
}

func decodeExplanation(raw json.RawMessage) payout.Explanation {
	var e payout.Explanation
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &e) // a stored explanation always decodes; an empty one explains nothing
	}
	return e
}

func (g *Game) applyRecorded(e events.Event, p *recordedLite) error {
	if p.Hand != len(g.Hands)+1 {
		return fmt.Errorf("hand %d recorded after %d hands", p.Hand, len(g.Hands))
	}
	// A deal, its first revision and what that revision points to, in one
	// allocation: a long history is mostly these.
	a := &struct {
		hand   Hand
		first  [1]Revision
		record payout.Record
		result Scored
	}{record: p.Record, result: p.scored()}
	h := &a.hand
	*h = Hand{Number: p.Hand, Dealer: g.Setup.IndexOf(p.Dealer), Record: p.Record, PotAfter: p.PotAfter, explanation: p.Explanation}
	a.first[0] = Revision{Kind: e.Type, At: e.RecordedAt, Record: &a.record, Result: &a.result, explanation: p.Explanation}
	h.Revisions = a.first[:1:1] // a later revision is appended to a copy
	g.Hands = append(g.Hands, h)
	g.Pending = nil // a deal recorded ends any deal being recorded step by step
	return g.count(h, a.result)
}

func (g *Game) applyStep(e events.Event) error {
	if g.Pending == nil {
		return fmt.Errorf("%s with no deal announced", e.Type)
	}
	if e.Type == TypeDealKontra {
		var p DealKontra
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return err
		}
		g.Pending.Record.Kontra = &p.Level
	} else {
		var p DealMatzl
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return err
		}
		g.Pending.Record.Matzl = p.Side
	}
	rec := g.Pending.Record
	g.Pending.Steps = append(g.Pending.Steps, Revision{Kind: e.Type, At: e.RecordedAt, Record: &rec})
	return nil
}

func (g *Game) applyCorrected(e events.Event, p correctedLite) error {
	h, err := g.hand(p.Hand)
	if err != nil {
		return err
	}
	if !h.Voided {
		g.uncount(h)
	}
	h.Voided, h.VoidReason, h.Record, h.PotAfter, h.explanation, h.explained = false, "", p.Record, p.PotAfter, p.Explanation, nil
	s := p.scored()
	h.Revisions = append(h.Revisions, Revision{Kind: e.Type, At: e.RecordedAt, Reason: p.Reason, Record: &p.Record, Result: &s, explanation: p.Explanation})
	return g.count(h, s)
}

func (g *Game) applyVoided(e events.Event, p HandVoided) error {
	h, err := g.hand(p.Hand)
	if err != nil {
		return err
	}
	if h.Voided {
		return fmt.Errorf("hand %d is already voided", p.Hand)
	}
	g.uncount(h)
	h.Voided, h.VoidReason = true, p.Reason
	h.Revisions = append(h.Revisions, Revision{Kind: e.Type, At: e.RecordedAt, Reason: p.Reason})
	return nil
}

func (g *Game) applyRescored(e events.Event, p rescoredLite) error {
	h, err := g.hand(p.Hand)
	if err != nil {
		return err
	}
	if h.Voided {
		return fmt.Errorf("hand %d is voided and cannot be re-scored", p.Hand)
	}
	g.uncount(h)
	h.PotAfter, h.explanation, h.explained = p.PotAfter, p.Explanation, nil
	s := p.scored()
	h.Revisions = append(h.Revisions, Revision{Kind: e.Type, At: e.RecordedAt, Result: &s, Cause: p.Cause, explanation: p.Explanation})
	return g.count(h, s)
}

func (g *Game) applyClosed(e events.Event, p GameClosed) error {
	if g.Closed != nil {
		return fmt.Errorf("the game is already closed")
	}
	split, err := g.bySeat(p.Split)
	if err != nil {
		return err
	}
	for seat, share := range split {
		g.Balances[seat] = g.Balances[seat].Add(share)
		g.Pot = g.Pot.Sub(share)
	}
	g.Closed = &Closing{At: e.RecordedAt, RemainderTo: p.RemainderTo, Split: split, Transfers: p.Transfers}
	return nil
}

// count adds a deal's result to the balances and the pot.
func (g *Game) count(h *Hand, s Scored) error {
	for name := range s.Deltas {
		if g.Setup.IndexOf(name) < 0 {
			return fmt.Errorf("hand %d: %q is not a player", h.Number, name)
		}
	}
	for name, d := range s.Deltas {
		seat := g.Setup.IndexOf(name)
		g.Balances[seat] = addUnits(g.Balances[seat], d)
	}
	g.Pot = addUnits(g.Pot, s.PotDelta)
	h.Result = s
	return nil
}

// uncount takes a deal's current result back out.
func (g *Game) uncount(h *Hand) {
	for name, d := range h.Result.Deltas {
		seat := g.Setup.IndexOf(name)
		g.Balances[seat] = addUnits(g.Balances[seat], d.Neg())
	}
	g.Pot = addUnits(g.Pot, h.Result.PotDelta.Neg())
}

func (g *Game) bySeat(m map[string]decimal.Decimal) ([]decimal.Decimal, error) {
	out := make([]decimal.Decimal, len(g.Setup.Players))
	for i := range out {
		out[i] = decimal.Zero
	}
	for name, d := range m {
		seat := g.Setup.IndexOf(name)
		if seat < 0 {
			return nil, fmt.Errorf("%q is not a player", name)
		}
		out[seat] = d
	}
	return out, nil
}

func (g *Game) hand(n int) (*Hand, error) {
	if n < 1 || n > len(g.Hands) {
		return nil, fmt.Errorf("there is no hand %d", n)
	}
	return g.Hands[n-1], nil
}

// Hand returns deal n, or nil.
func (g *Game) Hand(n int) *Hand {
	h, _ := g.hand(n)
	return h
}

// DealerOf is the seat that deals hand n (1-based): the first player deals
// first, and the deal moves one seat on after every deal, passed in and
// voided ones included.
func (g *Game) DealerOf(n int) int { return (n - 1) % len(g.Setup.Players) }

// NextHand is the number the next deal gets.
func (g *Game) NextHand() int { return len(g.Hands) + 1 }

// NextDealer is the seat that deals next.
func (g *Game) NextDealer() int { return g.DealerOf(g.NextHand()) }

// PotBefore is the pot as it stood before deal n: the results of the
// counted deals before it.
func (g *Game) PotBefore(n int) decimal.Decimal {
	pot := decimal.Zero
	for _, h := range g.Hands[:n-1] {
		if !h.Voided {
			pot = pot.Add(h.Result.PotDelta)
		}
	}
	return pot
}

// Counted is the number of deals that count (not voided).
func (g *Game) Counted() int {
	n := 0
	for _, h := range g.Hands {
		if !h.Voided {
			n++
		}
	}
	return n
}

// NewScored turns a payout result into the stored form, keyed by name.
func NewScored(s payout.Setup, r payout.Result) Scored {
	deltas := make(map[string]decimal.Decimal, len(r.Deltas))
	for seat, d := range r.Deltas {
		deltas[s.Players[seat]] = d
	}
	return Scored{Deltas: deltas, PotDelta: r.PotDelta, Explanation: r.Explanation, Text: r.Explanation.Text(), Ruleset: payout.RulesetVersion}
}

// Equal reports whether two results move the same amounts.
func (s Scored) Equal(o Scored) bool {
	if !s.PotDelta.Equal(o.PotDelta) || len(s.Deltas) != len(o.Deltas) {
		return false
	}
	for k, v := range s.Deltas {
		if !v.Equal(o.Deltas[k]) {
			return false
		}
	}
	return s.Text == o.Text
}

// End phases of a Württemberg evening.
const (
	PhaseNone      = ""          // nobody said Herz-As
	PhaseAnnounced = "announced" // said; the next deal shows who has ♥A
	PhaseHolder    = "holder"    // that deal is played: who was dealt ♥A?
	PhaseLastRound = "last-round"
	PhaseForced    = "forced" // Zwangsramsch
	PhaseDone      = "done"
)

// EndPhase says where the end of the evening stands for the next deal.
type EndPhase struct {
	Phase       string
	LastRegular int // the last regular deal: the next one the ♥A holder deals
	Forced      int // which Zwangsramsch the next deal is, 1…players
}

// End tells where the end of a Württemberg evening stands. The ♥A holder
// deals the last regular deal: the first deal after the one they were dealt
// ♥A in that they deal. Then each player deals one Zwangsramsch.
func (g *Game) End() EndPhase {
	h := g.HerzAs
	if h == nil {
		return EndPhase{}
	}
	next := g.NextHand()
	if h.Holder < 0 {
		if next <= h.AfterHand+1 {
			return EndPhase{Phase: PhaseAnnounced}
		}
		return EndPhase{Phase: PhaseHolder}
	}
	last, forced, done := payout.WuerttembergEnd(len(g.Setup.Players), h.Holder, h.HolderHand, next)
	switch {
	case done:
		return EndPhase{Phase: PhaseDone, LastRegular: last}
	case forced > 0:
		return EndPhase{Phase: PhaseForced, LastRegular: last, Forced: forced}
	}
	return EndPhase{Phase: PhaseLastRound, LastRegular: last}
}
