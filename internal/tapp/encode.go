package tapp

import (
	"encoding/json"
	"strconv"

	"tappbook/internal/jsonenc"
)

// The events a deal appends write their own JSON (the store calls
// AppendJSON instead of encoding/json), byte for byte as encoding/json
// writes them: TestEventsEncodeAsEncodingJSON compares them on random
// deals.

// AppendJSON appends the event's payload as encoding/json writes it.
func (p HandRecorded) AppendJSON(b []byte) ([]byte, error) {
	start := len(b)
	b = strconv.AppendInt(append(b, `{"hand":`...), int64(p.Hand), 10)
	b = jsonenc.String(append(b, `,"dealer":`...), p.Dealer)
	b = p.Record.AppendJSON(append(b, `,"record":`...))
	b = jsonenc.Decimal(append(b, `,"pot_after":`...), p.PotAfter)
	return p.Scored.appendJSON(b, start, p)
}

// AppendJSON appends the event's payload as encoding/json writes it.
func (p HandCorrected) AppendJSON(b []byte) ([]byte, error) {
	start := len(b)
	b = strconv.AppendInt(append(b, `{"hand":`...), int64(p.Hand), 10)
	b = p.Record.AppendJSON(append(b, `,"record":`...))
	if p.Reason != "" {
		b = jsonenc.String(append(b, `,"reason":`...), p.Reason)
	}
	b = jsonenc.Decimal(append(b, `,"pot_after":`...), p.PotAfter)
	return p.Scored.appendJSON(b, start, p)
}

// AppendJSON appends the event's payload as encoding/json writes it.
func (p HandRescored) AppendJSON(b []byte) ([]byte, error) {
	start := len(b)
	b = strconv.AppendInt(append(b, `{"hand":`...), int64(p.Hand), 10)
	b = strconv.AppendInt(append(b, `,"cause":`...), int64(p.Cause), 10)
	b = jsonenc.Decimal(append(b, `,"pot_after":`...), p.PotAfter)
	return p.Scored.appendJSON(b, start, p)
}

// appendJSON appends the scored members and closes the payload, whole,
// which began at b[start]. An explanation encoding/json would compact or
// escape (one not written by encoding/json or jsonenc) makes the whole
// payload go through encoding/json instead.
func (s Scored) appendJSON(b []byte, start int, whole Payload) ([]byte, error) {
	b = jsonenc.DecimalMap(append(b, `,"deltas":`...), s.Deltas)
	b = jsonenc.Decimal(append(b, `,"pot_delta":`...), s.PotDelta)
	b, ok := jsonenc.Raw(append(b, `,"explanation":`...), s.Explanation)
	if !ok {
		out, err := json.Marshal(whole)
		return append(b[:start], out...), err
	}
	b = jsonenc.String(append(b, `,"text":`...), s.Text)
	b = jsonenc.String(append(b, `,"ruleset":`...), s.Ruleset)
	return append(b, '}'), nil
}

// encodePayload is a payload as the store writes it.
func encodePayload(p Payload) ([]byte, error) {
	if a, ok := p.(interface {
		AppendJSON([]byte) ([]byte, error)
	}); ok {
		return a.AppendJSON(make([]byte, 0, 512))
	}
	return json.Marshal(p)
}
