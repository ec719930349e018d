package payout

import (
	"slices"
	"strconv"

	"tappbook/internal/jsonenc"
)

// A recorded deal's record and explanation are encoded with every deal;
// these write the JSON encoding/json writes for them (struct order, the
// same omitempty), without reflection. TestJSONAsEncodingJSON compares
// them on random deals of every variant.

// AppendJSON appends the record as encoding/json writes it.
func (r Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"contract":`...)
	b = jsonenc.String(b, r.Contract)
	b = optString(b, `,"declarer":`, r.Declarer)
	b = optString(b, `,"partner":`, r.Partner)
	b = optString(b, `,"trump":`, r.Trump)
	b = optInt(b, `,"points":`, r.Points)
	b = optInt(b, `,"tricks":`, r.Tricks)
	if r.Won != nil {
		b = strconv.AppendBool(append(b, `,"won":`...), *r.Won)
	}
	if r.Tout != nil {
		b = strconv.AppendBool(append(b, `,"tout":`...), *r.Tout)
	}
	b = optInt(b, `,"kontra":`, r.Kontra)
	b = optString(b, `,"matzl":`, r.Matzl)
	if len(r.Ramsch) > 0 {
		b = append(b, `,"ramsch":{`...)
		names := make([]string, 0, len(r.Ramsch))
		for name := range r.Ramsch {
			names = append(names, name)
		}
		slices.Sort(names)
		for i, name := range names {
			if i > 0 {
				b = append(b, ',')
			}
			s := r.Ramsch[name]
			b = append(jsonenc.String(b, name), `:{"points":`...)
			b = append(jsonenc.IntPtr(b, s.Points), `,"tricks":`...)
			b = append(jsonenc.IntPtr(b, s.Tricks), '}')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// AppendJSON appends the explanation as encoding/json writes it.
func (e Explanation) AppendJSON(b []byte) []byte {
	b = append(b, `{"contract":`...)
	b = jsonenc.String(b, e.Contract)
	b = optString(b, `,"trump":`, e.Trump)
	if e.Tout {
		b = append(b, `,"tout":true`...)
	}
	b = optString(b, `,"declarer":`, e.Declarer)
	b = optString(b, `,"partner":`, e.Partner)
	b = jsonenc.String(append(b, `,"outcome":`...), string(e.Outcome))
	b = optInt(b, `,"points":`, e.Points)
	b = optInt(b, `,"tricks":`, e.Tricks)
	b = append(b, `,"steps":`...)
	if e.Steps == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range e.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonenc.String(append(b, `{"kind":`...), s.Kind)
			b = optString(b, `,"player":`, s.Player)
			b = optString(b, `,"name":`, s.Name)
			b = jsonenc.Decimal(append(b, `,"n":`...), s.N)
			if s.Exact != nil {
				b = jsonenc.Decimal(append(b, `,"exact":`...), *s.Exact)
			}
			b = append(jsonenc.Decimal(append(b, `,"value":`...), s.Value), '}')
		}
		b = append(b, ']')
	}
	b = jsonenc.Decimal(append(b, `,"value":`...), e.Value)
	return append(b, '}')
}

// optString appends a member that omitempty leaves out when empty.
func optString(b []byte, member, s string) []byte {
	if s == "" {
		return b
	}
	return jsonenc.String(append(b, member...), s)
}

// optInt appends a member that omitempty leaves out when nil.
func optInt(b []byte, member string, p *int) []byte {
	if p == nil {
		return b
	}
	return strconv.AppendInt(append(b, member...), int64(*p), 10)
}
