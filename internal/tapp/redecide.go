package tapp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Redecide decides again, on the game s as it stands before them, the
// command whose events a batch holds (the events one command appended, as
// an import brings them), and says what is wrong unless Decide gives those
// very events now: a deal scored again must give the numbers the batch
// says, and a value the pages and the API refuse is refused here with the
// same words. batch holds each event's payload with its bytes (Event.Raw);
// nothing is folded. Checks the recording phone sent (dealer, expected
// deal) are not stored, so none is made.
func Redecide(s *State, batch []Event) error {
	if len(batch) == 0 {
		return fmt.Errorf("redecide: no events")
	}
	cmds, err := commandsOf(s, batch[0].Data)
	if err != nil {
		return err
	}
	// What is wrong is said of the most likely command: a later one may
	// be refused for what the first one settles.
	var why error
	for _, c := range cmds {
		got, err := Decide(s, c)
		if err != nil {
			err = fmt.Errorf("tappbook refuses it: %w", err)
		} else if err = sameEvents(batch, got); err == nil {
			return nil
		}
		if why == nil {
			why = err
		}
	}
	return why
}

// commandsOf gives the commands that may have appended a batch beginning
// with first, most likely first: a deal recorded while another was being
// recorded step by step is that deal's count, or a whole record given
// instead.
func commandsOf(s *State, first Payload) ([]Command, error) {
	switch p := first.(type) {
	case GameStarted:
		return []Command{Start{ID: s.ID, ReadID: p.ReadID, Variant: string(p.Variant), Players: p.Players,
			Unit: p.Unit, Currency: p.Currency, Rules: p.Rules, Group: p.Group}}, nil
	case HandRecorded:
		whole := RecordHand{Record: p.Record, stored: true}
		if s.Pending != nil {
			return []Command{Count{Counts: p.Record, stored: true}, whole}, nil
		}
		return []Command{whole}, nil
	case HandCorrected:
		return []Command{CorrectHand{Hand: p.Hand, Record: p.Record, Reason: p.Reason, stored: true}}, nil
	case HandVoided:
		// A void stored before the stake was kept took it back.
		return []Command{VoidHand{Hand: p.Hand, Reason: p.Reason, stakeBack: p.StakeKept == nil}}, nil
	case HandRetracted:
		return []Command{RetractHand{Hand: p.Hand, Reason: p.Reason}}, nil
	case DealAnnounced:
		return []Command{Announce{Record: p.Record, stored: true}}, nil
	case DealKontra:
		return []Command{RaiseKontra{Level: p.Level}}, nil
	case DealMatzl:
		return []Command{CatchMatzl{Side: p.Side}}, nil
	case HerzAs:
		return []Command{AnnounceHerzAs{}}, nil
	case HerzAsHolder:
		return []Command{SayHerzAsHolder{Player: p.Player, InTapp: p.InTapp, Change: s.HerzAs != nil && s.HerzAs.Holder >= 0}}, nil
	case HerzAsWithdrawn:
		return []Command{WithdrawHerzAs{Reason: p.Reason}}, nil
	case GameClosed:
		// A close stored before payments were carried settled it all. The
		// leftover units a rule gives (the biggest loser's) are stored as
		// given, though the command named none.
		cut := Close{RemainderTo: p.RemainderTo, paidForgotten: p.Paid == nil, transfersNull: p.Transfers == nil}
		byRule := Close{paidForgotten: p.Paid == nil, transfersNull: p.Transfers == nil}
		return []Command{cut, byRule}, nil
	case GameReopened:
		return []Command{Reopen{Reason: p.Reason}}, nil
	case PaySet:
		return []Command{SetPay{Player: p.Player, Details: p.Details}}, nil
	case TransferPaid:
		return []Command{MarkPaid{Transfer: p.Index, By: p.By}}, nil
	case TransferConfirmed:
		return []Command{MarkConfirmed{Transfer: p.Index, By: p.By}}, nil
	case MarkWithdrawn:
		return []Command{WithdrawMark{Transfer: p.Index, By: p.By, Confirmed: p.Mark == StateConfirmed, Reason: p.Reason}}, nil
	case HandRescored:
		return nil, fmt.Errorf("a re-scoring that no correction or void before it in the same command caused")
	}
	return nil, fmt.Errorf("redecide: unknown event %T", first)
}

// sameEvents says how what Decide gives now differs from a batch, or nil
// when it is the batch byte for byte.
func sameEvents(batch []Event, got []Payload) error {
	for i, p := range got {
		if i >= len(batch) {
			return fmt.Errorf("tappbook appends %d events for this command, the file has %d (a %s is missing)", len(got), len(batch), p.EventType())
		}
		want := batch[i]
		if want.Data.EventType() != p.EventType() {
			return fmt.Errorf("event %d: tappbook appends %s here, the file has %s", want.Version, p.EventType(), want.Data.EventType())
		}
		b, err := encodePayload(p)
		if err != nil {
			return fmt.Errorf("event %d: %w", want.Version, err)
		}
		if bytes.Equal(b, want.Raw) {
			continue
		}
		if d := amountsDiffer(want.Data, p); d != "" {
			return fmt.Errorf("event %d: %s", want.Version, d)
		}
		return fmt.Errorf("event %d (%s): %s", want.Version, p.EventType(), FieldDiffers(want.Raw, b))
	}
	if len(batch) > len(got) {
		return fmt.Errorf("event %d: tappbook appends %d events for this command, the file has %d more (%s)", batch[len(got)].Version, len(got), len(batch)-len(got), batch[len(got)].Data.EventType())
	}
	return nil
}

// amountsDiffer says, in a sentence, how the money a deal moves differs
// between what a file says and what scoring it again gives ("" when it
// does not, or the events score no deal).
func amountsDiffer(file, now Payload) string {
	a, hand, okA := scoredOf(file)
	b, _, okB := scoredOf(now)
	if !okA || !okB {
		return ""
	}
	names := make([]string, 0, len(b.Deltas))
	for n := range b.Deltas {
		names = append(names, n)
	}
	for n := range a.Deltas {
		if _, ok := b.Deltas[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		if !a.Deltas[n].Equal(b.Deltas[n]) {
			return fmt.Sprintf("deal %d scored again gives %s %s units, but the file says %s", hand, n, b.Deltas[n], a.Deltas[n])
		}
	}
	if !a.PotDelta.Equal(b.PotDelta) {
		return fmt.Sprintf("deal %d scored again moves %s units into the pot, but the file says %s", hand, b.PotDelta, a.PotDelta)
	}
	return ""
}

// scoredOf is what a scored event stores, with its deal's number.
func scoredOf(p Payload) (Scored, int, bool) {
	switch p := p.(type) {
	case HandRecorded:
		return p.Scored, p.Hand, true
	case HandCorrected:
		return p.Scored, p.Hand, true
	case HandRescored:
		return p.Scored, p.Hand, true
	}
	return Scored{}, 0, false
}

// FieldDiffers names the first field of a JSON object in which what a file
// says (file) differs from what tappbook writes (now), with both values,
// each cut to a readable length.
func FieldDiffers(file, now []byte) string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal(file, &a) != nil || json.Unmarshal(now, &b) != nil {
		return fmt.Sprintf("the file says %s, but tappbook writes %s", cut(file), cut(now))
	}
	keys := make([]string, 0, len(a)+len(b))
	for k := range b {
		keys = append(keys, k)
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, inA := a[k]
		vb, inB := b[k]
		switch {
		case !inA:
			return fmt.Sprintf("the file has no %q, tappbook writes %s", k, cut(vb))
		case !inB:
			return fmt.Sprintf("the file has %q, which tappbook does not write", k)
		case !bytes.Equal(va, vb):
			return fmt.Sprintf("%q is %s in the file, but tappbook writes %s", k, cut(va), cut(vb))
		}
	}
	return "the same values in another order or form than tappbook writes them"
}

// cut shortens a value for a message.
func cut(b []byte) string {
	const most = 120
	if len(b) <= most {
		return string(b)
	}
	return string(b[:most]) + "…"
}
