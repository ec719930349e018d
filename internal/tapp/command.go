package tapp

import (
	"encoding/json"

	"tappbook/internal/payout"
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
	stored bool // decided again from its events (import, verify): see payout.Score
}

// Announce starts recording the next deal step by step: the contract and
// who plays it, as announced at the table. Announcing again replaces it.
type Announce struct {
	Record payout.Record
	Checks Checks
	stored bool // decided again from its events (import, verify): see payout.Score
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
	stored bool // decided again from its events (import, verify): see payout.Score
}

// CorrectHand replaces deal n's record; later deals whose table changed are
// re-scored.
type CorrectHand struct {
	Hand   int
	Record payout.Record
	Reason string
	Checks Checks
	stored bool // decided again from its events (import, verify): see payout.Score
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
	// paidForgotten: a close stored before payments were carried, which
	// settled the whole balances (Redecide).
	paidForgotten bool
	// transfersNull: a close where nobody owed, stored by a build that
	// wrote its transfers null rather than [] (Redecide).
	transfersNull bool
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
