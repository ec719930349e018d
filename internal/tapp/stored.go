package tapp

import (
	"encoding/json"

	"tappbook/internal/payout"
)

// A game keeps each deal's record and explanation in the bytes its event was
// stored as, and reads them from there when a page shows them: in memory,
// a deal is its amounts and those bytes, not a decoded record, explanation
// and sentence of its own.

// stored is one event's payload as the store holds it (JSON): a recorded,
// corrected or re-scored deal.
type stored []byte

// member gives the value of the payload's top-level member name, as it
// stands in the bytes; false when there is none.
func (p stored) member(name string) ([]byte, bool) {
	s := byteScanner{b: p}
	var value []byte
	found := false
	ok := s.object(func(n []byte) bool {
		s.ws()
		start := s.i
		if !s.skip() {
			return false
		}
		if !found && string(n) == name {
			value, found = p[start:s.i], true
		}
		return true
	})
	if ok {
		return value, found
	}
	// Not the shape encoding/json writes (an escaped member name):
	// encoding/json reads it.
	var m map[string]json.RawMessage
	if json.Unmarshal(p, &m) != nil {
		return nil, false
	}
	v, found := m[name]
	return v, found
}

// record decodes the deal as entered.
func (p stored) record() payout.Record {
	var r payout.Record
	b, ok := p.member("record")
	if !ok {
		return r
	}
	s := byteScanner{b: b}
	if s.record(&r) {
		return r
	}
	r = payout.Record{}
	_ = json.Unmarshal(b, &r) // it decoded when the game was folded
	return r
}

// text decodes the English explanation.
func (p stored) text() string {
	b, ok := p.member("text")
	if !ok {
		return ""
	}
	s := byteScanner{b: b}
	if t, ok := s.string(); ok {
		return t
	}
	var t string
	_ = json.Unmarshal(b, &t)
	return t
}

// explanation gives the explanation as stored, JSON.
func (p stored) explanation() json.RawMessage {
	b, _ := p.member("explanation")
	return json.RawMessage(b)
}

// ruleset gives the version of the rules the deal was scored by.
func (p stored) ruleset() string {
	b, ok := p.member("ruleset")
	if !ok {
		return ""
	}
	if string(b) == `"`+payout.RulesetVersion+`"` {
		return payout.RulesetVersion
	}
	var v string
	_ = json.Unmarshal(b, &v)
	return v
}
