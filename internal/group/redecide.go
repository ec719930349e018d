package group

import (
	"bytes"
	"encoding/json"
	"fmt"

	"tappbook/internal/tapp"
)

// Stored is one of a group's events as an import brings it: its version,
// its payload and the bytes it was stored as.
type Stored struct {
	Version int64
	Data    Payload
	Raw     []byte
}

// EveningGame is what the game of an evening says of itself, for the join
// to be decided again: its players, unit and currency. ok is false when
// the evening's game is not at hand (an evening never played has none).
type EveningGame func(game string) (players []string, unit, currency string, ok bool)

// Redecide decides again, on the group s as it stands before them, the
// command whose events a batch holds (the events one command appended, as
// an import brings them), and says what is wrong unless Decide gives those
// very events now: a value the pages and the API refuse (a payment of
// 0.001 CHF, a currency XXXX) is refused here with the same words. The
// join of an evening is decided with the players, unit and currency the
// evening's game gives (evening), as tappbook decides it when the evening
// starts; without the game, with the members the batch adds and the
// group's money. Nothing is folded.
func Redecide(s *State, batch []Stored, evening EveningGame) error {
	if len(batch) == 0 {
		return fmt.Errorf("redecide: no events")
	}
	c, err := commandOf(s, batch, evening)
	if err != nil {
		return err
	}
	got, err := Decide(s, c)
	if err != nil {
		return fmt.Errorf("tappbook refuses it: %w", err)
	}
	for i, p := range got {
		if i >= len(batch) {
			return fmt.Errorf("tappbook appends %d events for this command, the file has %d (a %s is missing)", len(got), len(batch), p.EventType())
		}
		want := batch[i]
		if want.Data.EventType() != p.EventType() {
			return fmt.Errorf("event %d: tappbook appends %s here, the file has %s", want.Version, p.EventType(), want.Data.EventType())
		}
		b, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("event %d: %w", want.Version, err)
		}
		if !bytes.Equal(b, want.Raw) {
			return fmt.Errorf("event %d (%s): %s", want.Version, p.EventType(), tapp.FieldDiffers(want.Raw, b))
		}
	}
	if len(batch) > len(got) {
		extra := batch[len(got)]
		return fmt.Errorf("event %d: tappbook appends %d events for this command, the file has %d more (%s)", extra.Version, len(got), len(batch)-len(got), extra.Data.EventType())
	}
	return nil
}

// commandOf gives the command that appended a batch: its last event says
// which (a join's and a start's members come before it, or after).
func commandOf(s *State, batch []Stored, evening EveningGame) (Command, error) {
	var added []string
	for _, e := range batch {
		if m, ok := e.Data.(MemberAdded); ok {
			added = append(added, m.Name)
		}
	}
	switch p := batch[0].Data.(type) {
	case Started:
		return Start{ID: s.ID, ReadID: p.ReadID, Name: p.Name, Players: added, Unit: p.Unit, Currency: p.Currency}, nil
	case PaymentRecorded:
		amount, err := amountText(batch[0].Raw)
		if err != nil {
			return nil, err
		}
		return RecordPayment{From: p.From, To: p.To, Amount: amount, Note: p.Note, State: p.State}, nil
	case PaymentVoided:
		return VoidPayment{Payment: p.Payment, Reason: p.Reason}, nil
	case MemberPaySet:
		return SetMemberPay{Member: p.Member, Details: p.Details}, nil
	case PaymentConfirmed:
		return ConfirmPayment{Payment: p.Payment, By: p.By}, nil
	}
	if j, ok := batch[len(batch)-1].Data.(EveningJoined); ok {
		c := JoinEvening{Game: j.Game, ReadID: j.ReadID, Players: added, Unit: s.UnitText, Currency: s.Currency}
		if players, unit, currency, ok := evening(j.Game); ok {
			c.Players, c.Unit, c.Currency = players, unit, currency
		}
		return c, nil
	}
	if len(added) == len(batch) {
		return AddMembers{Players: added}, nil
	}
	return nil, fmt.Errorf("%s is not the first event of any command tappbook appends to a group", batch[0].Data.EventType())
}

// amountText is a payment's amount as the file writes it: decided again
// from its text, so that 1e9999 is refused as the API refuses it.
func amountText(raw []byte) (string, error) {
	var p struct {
		Amount json.RawMessage `json:"amount"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", fmt.Errorf("the payment's amount: %w", err)
	}
	var text string
	if json.Unmarshal(p.Amount, &text) == nil {
		return text, nil
	}
	return string(p.Amount), nil // a number, as written
}
