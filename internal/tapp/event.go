package tapp

import (
	"encoding/json"
	"fmt"
	"time"

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
	// A record made by mistake taken back (undo): the last deal, as if it
	// had never been recorded; its number and dealer's turn are free again.
	TypeHandRetracted = "hand.retracted"
	TypeHandRescored  = "hand.rescored" // a later deal re-scored after an earlier one changed
	TypeGameClosed    = "game.closed"
	TypeGameReopened  = "game.reopened" // a closed evening opened again, with why

	// Recording a deal step by step as it happens at the table: the
	// contract announced, each kontra raise, the matzl caught; the count
	// then appends hand.recorded with the whole record, exactly as the
	// one-call form does.
	TypeDealAnnounced = "deal.announced"
	TypeDealKontra    = "deal.kontra"
	TypeDealMatzl     = "deal.matzl"

	// The end of a Württemberg evening (rules.md "End of the evening"):
	// someone says "Herz-As"; the player dealt ♥A in the next deal deals
	// the last regular deal (if it lay in the tapp, the question passes to
	// the deal after); then every player deals one Zwangsramsch.
	TypeHerzAs          = "game.herz-as"
	TypeHerzAsHolder    = "game.herz-as-holder"
	TypeHerzAsWithdrawn = "game.herz-as-withdrawn"
)

// SchemaVersion of every event type above.
const SchemaVersion = 1

// Event is one of a game's facts as the fold reads it: its place in the
// game's stream, when it was stored, the hash that chains it, and its
// payload.
type Event struct {
	Version int64
	At      time.Time
	Hash    string
	Data    Payload
	// Raw is Data as the store holds it (JSON). The fold keeps a copy of
	// what a scored deal reads its record and explanation from
	// (stored.go), so the bytes may be the caller's to reuse. nil: the
	// fold encodes Data.
	Raw []byte
}

// Payload is the data of one event type.
type Payload interface {
	EventType() string
}

// GameStarted: variant, players in seat order, unit value, currency and the
// house rules as api.md shows them (defaults filled in).
type GameStarted struct {
	Variant  payout.Variant             `json:"variant"`
	Players  []string                   `json:"players"`
	Unit     string                     `json:"unit"` // as given, so "0.50" keeps its places
	Currency string                     `json:"currency"`
	Rules    map[string]json.RawMessage `json:"rules"`
	ReadID   string                     `json:"read_id,omitempty"` // the read-only link's key
	Group    string                     `json:"group,omitempty"`   // the group the evening belongs to
}

// Scored is what the payout engine computed for a deal, kept with the deal
// so that history never changes when the code does. The explanation stays
// in its stored JSON until a page shows it.
type Scored struct {
	Deltas      map[string]decimal.Decimal `json:"deltas"`
	PotDelta    decimal.Decimal            `json:"pot_delta"`
	Explanation json.RawMessage            `json:"explanation"`
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
// StakeKept, where there is a pot (old-tapp), is the dealer's stake that
// stays in it: the deal was dealt (rules.md "Decisions"). A void stored
// before that decision has none and takes the stake back with the rest.
type HandVoided struct {
	Hand      int              `json:"hand"`
	Reason    string           `json:"reason"`
	StakeKept *decimal.Decimal `json:"stake_kept,omitempty"`
}

// HandRetracted: deal n, the last recorded, is taken back as if it had
// never been recorded (api.md "Corrections": retract); the next deal
// recorded is deal n again, dealt by Dealer.
type HandRetracted struct {
	Hand   int    `json:"hand"`
	Dealer string `json:"dealer"`
	Reason string `json:"reason,omitempty"`
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

// HerzAsHolder: Player was dealt ♥A in deal Hand, or, InTapp, it lay in the
// tapp and the question passes to the next deal.
type HerzAsHolder struct {
	Hand   int    `json:"hand"`
	Player string `json:"player,omitempty"`
	InTapp bool   `json:"in_tapp,omitempty"`
}

// HerzAsWithdrawn: the announcement was a mistake and is taken back.
type HerzAsWithdrawn struct {
	Reason string `json:"reason,omitempty"`
}

// GameClosed: the evening is over; the pot is shared out and who pays whom
// is fixed.
type GameClosed struct {
	RemainderTo []string                   `json:"remainder_to,omitempty"`
	Split       map[string]decimal.Decimal `json:"split"`
	// Paid: the payments made on an earlier close of the evening, which
	// Transfers take as paid. A close written before they were carried has
	// none, and its transfers settle the whole balances.
	Paid      []Transfer `json:"paid,omitempty"`
	Transfers []Transfer `json:"transfers"`
}

// GameReopened: a closed evening is open again, for a deal to be corrected
// or recorded; the pot shared out at the close goes back into it, and a
// later close settles the evening afresh.
type GameReopened struct {
	Reason string `json:"reason"`
}

func (GameStarted) EventType() string     { return TypeGameStarted }
func (HandRecorded) EventType() string    { return TypeHandRecorded }
func (HandCorrected) EventType() string   { return TypeHandCorrect }
func (HandVoided) EventType() string      { return TypeHandVoided }
func (HandRetracted) EventType() string   { return TypeHandRetracted }
func (HandRescored) EventType() string    { return TypeHandRescored }
func (DealAnnounced) EventType() string   { return TypeDealAnnounced }
func (DealKontra) EventType() string      { return TypeDealKontra }
func (DealMatzl) EventType() string       { return TypeDealMatzl }
func (HerzAs) EventType() string          { return TypeHerzAs }
func (HerzAsHolder) EventType() string    { return TypeHerzAsHolder }
func (HerzAsWithdrawn) EventType() string { return TypeHerzAsWithdrawn }
func (GameClosed) EventType() string      { return TypeGameClosed }
func (GameReopened) EventType() string    { return TypeGameReopened }

// Decode reads a stored event's payload. players, when known, are the
// game's seats: names read from a recorded deal share their strings. A
// recorded deal, nearly all of a long history, is read by a byte scanner
// for the shape the store holds, with a token decoder for anything else.
func Decode(typ string, data []byte, players []string) (Payload, error) {
	var p Payload
	var err error
	switch typ {
	case TypeHandRecorded:
		var v HandRecorded
		err = decodeRecorded(data, &v, players)
		p = v
	case TypeGameStarted:
		p, err = decodeJSON[GameStarted](data)
	case TypeHandCorrect:
		p, err = decodeJSON[HandCorrected](data)
	case TypeHandVoided:
		p, err = decodeJSON[HandVoided](data)
	case TypeHandRescored:
		p, err = decodeJSON[HandRescored](data)
	case TypeHandRetracted:
		p, err = decodeJSON[HandRetracted](data)
	case TypeDealAnnounced:
		p, err = decodeJSON[DealAnnounced](data)
	case TypeDealKontra:
		p, err = decodeJSON[DealKontra](data)
	case TypeDealMatzl:
		p, err = decodeJSON[DealMatzl](data)
	case TypeHerzAs:
		p, err = decodeJSON[HerzAs](data)
	case TypeHerzAsHolder:
		p, err = decodeJSON[HerzAsHolder](data)
	case TypeHerzAsWithdrawn:
		p, err = decodeJSON[HerzAsWithdrawn](data)
	case TypeGameClosed:
		p, err = decodeJSON[GameClosed](data)
	case TypeGameReopened:
		p, err = decodeJSON[GameReopened](data)
	case TypePaySet:
		p, err = decodeJSON[PaySet](data)
	case TypeTransferPaid:
		p, err = decodeJSON[TransferPaid](data)
	case TypeTransferConfirmed:
		p, err = decodeJSON[TransferConfirmed](data)
	case TypeMarkWithdrawn:
		p, err = decodeJSON[MarkWithdrawn](data)
	default:
		return nil, fmt.Errorf("decode event: unknown event type %q", typ)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", typ, err)
	}
	return p, nil
}

// DecodeForFold reads a stored event's payload as far as the fold reads it
// (Folder.Apply), for a replay: of a recorded deal, its number, dealer,
// contract and amounts by seat (dealRead), without the rest of its record,
// its explanation or its sentence, which the fold reads from the event's
// bytes when a page asks for them (Event.Raw). Anything else, and a deal
// it cannot read so, it reads as Decode does.
func DecodeForFold(typ string, data []byte, players []string) (Payload, error) {
	if typ != TypeHandRecorded {
		return Decode(typ, data, players)
	}
	var d dealRead
	if scanDealRead(data, &d, players) {
		return d, nil
	}
	return Decode(typ, data, players)
}

// dealRead is a recorded deal as DecodeForFold reads it: what the fold
// needs of it, in a quarter of a HandRecorded's bytes and without a map
// of the amounts by name. Folder.Apply folds it as that HandRecorded.
type dealRead struct {
	hand     int
	dealer   string
	contract string
	deltas   [maxSeats]decimal.Decimal // by seat
	potDelta decimal.Decimal
	kept     [keptCount]keptAt // what the deal keeps of the payload (keep)
	nKept    int8
}

func (dealRead) EventType() string { return TypeHandRecorded }

func decodeJSON[T Payload](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}
