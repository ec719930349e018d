package group

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// The group's event types: each a fact about the circle of players. Their
// names and shapes are stored forever; a change of shape is a new schema
// version, never an edit of an old one.
const (
	TypeStarted         = "group.started"
	TypeMemberAdded     = "member.added"
	TypeEveningJoined   = "evening.joined"
	TypePaymentRecorded = "payment.recorded"
	TypePaymentVoided   = "payment.voided"
)

// SchemaVersion of every event type above.
const SchemaVersion = 1

// IsType reports whether an event type is one of a group's: the store holds
// groups and games side by side, and the first event of a stream says which
// it is.
func IsType(typ string) bool {
	switch typ {
	case TypeStarted, TypeMemberAdded, TypeEveningJoined, TypePaymentRecorded, TypePaymentVoided,
		TypeMemberPaySet, TypePaymentConfirmed:
		return true
	}
	return false
}

// Event is one of a group's facts as the fold reads it: its place in the
// group's stream, when it was stored, and its payload.
type Event struct {
	Version int64
	At      time.Time
	Data    Payload
}

// Payload is the data of one event type.
type Payload interface {
	EventType() string
}

// Started: the group's name and the money its evenings play for. The
// members come as member.added events in the same batch.
type Started struct {
	Name     string `json:"name"`
	Unit     string `json:"unit"` // as given, so "0.50" keeps its places
	Currency string `json:"currency"`
	ReadID   string `json:"read_id,omitempty"` // the read-only link's key
}

// MemberAdded: a player joined the group, by name as games keep it.
type MemberAdded struct {
	Name string `json:"name"`
}

// EveningJoined: an evening of the group was started, as game Game with
// its read-only key. It is written before the game's own first event, so a
// game the group does not list can never hold money the tab misses; an
// evening whose game never got its first event (a crash in between) is one
// that was never played.
type EveningJoined struct {
	Game   string `json:"game"`
	ReadID string `json:"read_id"`
}

// PaymentRecorded: From paid To an amount of the group's currency, outside
// any evening, numbered from 1 in the group.
type PaymentRecorded struct {
	Payment int             `json:"payment"`
	From    string          `json:"from"`
	To      string          `json:"to"`
	Amount  decimal.Decimal `json:"amount"`
	Note    string          `json:"note,omitempty"`
	// State "paid": the payer says it is sent; its payee is to confirm it
	// (payment.confirmed). "" is a payment recorded as done.
	State string `json:"state,omitempty"`
}

// PaymentVoided: payment n no longer counts, with why.
type PaymentVoided struct {
	Payment int    `json:"payment"`
	Reason  string `json:"reason"`
}

func (Started) EventType() string         { return TypeStarted }
func (MemberAdded) EventType() string     { return TypeMemberAdded }
func (EveningJoined) EventType() string   { return TypeEveningJoined }
func (PaymentRecorded) EventType() string { return TypePaymentRecorded }
func (PaymentVoided) EventType() string   { return TypePaymentVoided }

// Decode reads a stored event's payload.
func Decode(typ string, data []byte) (Payload, error) {
	var p Payload
	var err error
	switch typ {
	case TypeStarted:
		p, err = decodeJSON[Started](data)
	case TypeMemberAdded:
		p, err = decodeJSON[MemberAdded](data)
	case TypeEveningJoined:
		p, err = decodeJSON[EveningJoined](data)
	case TypePaymentRecorded:
		p, err = decodeJSON[PaymentRecorded](data)
	case TypePaymentVoided:
		p, err = decodeJSON[PaymentVoided](data)
	case TypeMemberPaySet:
		p, err = decodeJSON[MemberPaySet](data)
	case TypePaymentConfirmed:
		p, err = decodeJSON[PaymentConfirmed](data)
	default:
		return nil, fmt.Errorf("decode group event: unknown event type %q", typ)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", typ, err)
	}
	return p, nil
}

func decodeJSON[T Payload](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}
