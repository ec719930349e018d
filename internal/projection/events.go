package projection

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// The game's event types: each a fact as it happened at the table. Their
// names and shapes are stored forever; a change of shape is a new schema
// version, never an edit of an old one.
const (
	TypeGameStarted  = "game.started"
	TypeHandRecorded = "hand.recorded"
	TypeHandCorrect  = "hand.corrected"
	TypeHandVoided   = "hand.voided"
	TypeHandRescored = "hand.rescored" // a later deal re-scored after an earlier one changed
	TypeGameClosed   = "game.closed"

	// Recording a deal step by step as it happens at the table: the
	// contract announced, each kontra raise, the matzl caught; the count
	// then appends hand.recorded with the whole record, exactly as the
	// one-call form does.
	TypeDealAnnounced = "deal.announced"
	TypeDealKontra    = "deal.kontra"
	TypeDealMatzl     = "deal.matzl"

	// The end of a Württemberg evening: someone says "Herz-As"; the player
	// dealt ♥A in the next deal deals the last regular round; then every
	// player deals one Zwangsramsch.
	TypeHerzAs       = "game.herz-as"
	TypeHerzAsHolder = "game.herz-as-holder"
)

// SchemaVersion of every event type above.
const SchemaVersion = 1

// GameStarted: variant, players in seat order, unit value, currency and the
// house rules as api.md shows them (defaults filled in).
type GameStarted struct {
	Variant  payout.Variant             `json:"variant"`
	Players  []string                   `json:"players"`
	Unit     string                     `json:"unit"` // as given, so "0.50" keeps its places
	Currency string                     `json:"currency"`
	Rules    map[string]json.RawMessage `json:"rules"`
	ReadID   string                     `json:"read_id,omitempty"` // the read-only link's key
}

// Scored is what the payout engine computed for a deal, kept with the deal
// so that history never changes when the code does.
type Scored struct {
	Deltas      map[string]decimal.Decimal `json:"deltas"`
	PotDelta    decimal.Decimal            `json:"pot_delta"`
	Explanation payout.Explanation         `json:"explanation"`
	Text        string                     `json:"text"`
	Ruleset     string                     `json:"ruleset"`
}

// HandRecorded: a deal as entered, its number and dealer, what it changed,
// and the pot after it (the answer the recording phone got).
type HandRecorded struct {
	Hand     int             `json:"hand"`
	Dealer   string          `json:"dealer"`
	Record   payout.Record   `json:"record"`
	PotAfter decimal.Decimal `json:"pot_after"`
	Scored
}

// HandCorrected: deal n's record replaced, with why; a correction of a
// voided deal brings it back.
type HandCorrected struct {
	Hand     int             `json:"hand"`
	Record   payout.Record   `json:"record"`
	Reason   string          `json:"reason,omitempty"`
	PotAfter decimal.Decimal `json:"pot_after"`
	Scored
}

// HandVoided: deal n no longer counts; its dealer turn stays taken.
type HandVoided struct {
	Hand   int    `json:"hand"`
	Reason string `json:"reason"`
}

// HandRescored: deal n's result after an earlier deal was corrected or
// voided changed the table it was played at (old-tapp's pot).
type HandRescored struct {
	Hand     int             `json:"hand"`
	Cause    int             `json:"cause"` // the deal whose change made this one change
	PotAfter decimal.Decimal `json:"pot_after"`
	Scored
}

// DealAnnounced: the contract of the deal being played, with who declared
// (and partner), trump and tout as announced.
type DealAnnounced struct {
	Hand   int           `json:"hand"`
	Record payout.Record `json:"record"`
}

// DealKontra: the kontra level of the deal being played was raised to Level.
type DealKontra struct {
	Hand  int `json:"hand"`
	Level int `json:"level"`
}

// DealMatzl: a side caught the matzl in the deal being played.
type DealMatzl struct {
	Hand int    `json:"hand"`
	Side string `json:"side"`
}

// HerzAs: "Herz-As" was announced after deal AfterHand.
type HerzAs struct {
	AfterHand int `json:"after_hand"`
}

// HerzAsHolder: Player was dealt ♥A in deal Hand.
type HerzAsHolder struct {
	Hand   int    `json:"hand"`
	Player string `json:"player"`
}

// GameClosed: the evening is over; the pot is shared out and who pays whom
// is fixed.
type GameClosed struct {
	RemainderTo []string                   `json:"remainder_to,omitempty"`
	Split       map[string]decimal.Decimal `json:"split"`
	Transfers   []Transfer                 `json:"transfers"`
}
