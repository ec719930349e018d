package tapp

import (
	"encoding/json"
	"fmt"

	"tappbook/internal/payout"
)

// A game keeps each deal's record and explanation in the bytes its event was
// stored as, and reads them from there when a page shows them: in memory,
// a deal is its amounts and those bytes, not a decoded record, explanation
// and sentence of its own.

// stored is what a deal keeps of its event's payload as the store holds it
// (JSON): of a recorded, corrected or re-scored deal, the members it reads
// (keptNames), as they stand in the stored bytes.
type stored []byte

// keptCount is how many members a deal keeps (keptNames).
const keptCount = 4

// member is one member of a payload a deal keeps: its name (keptNames')
// and its value as it stands in the bytes.
type member struct {
	name  string
	value []byte
}

// keptMembers finds the members of p a deal keeps (keptNames), the first of
// each name as member does, and the length of an object of them alone; false
// when p is not in the shape encoding/json writes (member then reads it
// with encoding/json), and is kept whole.
func (p stored) keptMembers(out *[keptCount]member) (n, size int, ok bool) {
	s := byteScanner{b: p}
	ok = s.object(func(name []byte) bool {
		s.ws()
		start := s.i
		if !s.skip() {
			return false
		}
		if k := keptIndex(name); k >= 0 && !hasMember(out[:n], keptNames[k]) {
			out[n] = member{name: keptNames[k], value: p[start:s.i]}
			n++
		}
		return true
	})
	return n, membersSize(out[:n]), ok
}

func hasMember(ms []member, name string) bool {
	for _, m := range ms {
		if m.name == name {
			return true
		}
	}
	return false
}

// membersSize is the length of an object of ms alone (appendMembers).
func membersSize(ms []member) int {
	size := len("{}")
	for i, m := range ms {
		if i > 0 {
			size++ // the comma
		}
		size += len(`"":`) + len(m.name) + len(m.value)
	}
	return size
}

// keptNames are the members of its payload a deal keeps: the ones it
// reads its record and explanation from. The rest (its number, dealer,
// deltas and pots, about a quarter of the bytes) the state holds already,
// as amounts. Never written.
var keptNames = [keptCount]string{"record", "explanation", "text", "ruleset"}

// keptIndex is name's place in keptNames, -1 for a member a deal does not
// keep.
func keptIndex(name []byte) int8 {
	for i, k := range keptNames {
		if k == string(name) {
			return int8(i)
		}
	}
	return -1
}

// keptAt is where a member a deal keeps stands in its payload, as
// scanDealRead finds it in its one pass: its name's place in keptNames
// and its value's first and last byte (+1).
type keptAt struct {
	name     int8
	from, to int32
}

// members gives the members at kept in p.
func members(p []byte, kept []keptAt, out *[keptCount]member) []member {
	for i, k := range kept {
		out[i] = member{name: keptNames[k.name], value: p[k.from:k.to]}
	}
	return out[:len(kept)]
}

// appendMembers appends an object of ms to dst.
func appendMembers(dst []byte, ms []member) []byte {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.name...)
		dst = append(dst, '"', ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}')
}

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

// raw is what a deal keeps of e's payload as stored (keep).
func (f *Folder) raw(e Event) (stored, error) {
	b := e.Raw
	if b == nil {
		var err error
		if b, err = encodePayload(e.Data); err != nil {
			return nil, fmt.Errorf("encode %s: %w", e.Data.EventType(), err)
		}
	}
	return f.keep(b), nil
}

// keptChunk is the most a folder's chunk of kept bytes grows to (keep).
const keptChunk = 16 << 10

// keep copies what a deal keeps of a payload (stored.keptMembers) into the
// folder's chunk, so that the deals of a game folded from its history
// share a few allocations rather than one each. A chunk starts at the
// first deal's length and doubles up to keptChunk: a command that records
// one deal allocates that deal's bytes, no more. Bytes handed out are never
// written again.
func (f *Folder) keep(p stored) stored {
	var ms [keptCount]member
	n, size, ok := p.keptMembers(&ms)
	return f.keepMembers(p, ms[:n], size, ok)
}

// keepMembers copies the members ms of p, an object of size bytes, into
// the folder's chunk, as keep does; all of p when ok is false.
func (f *Folder) keepMembers(p stored, ms []member, size int, ok bool) stored {
	if !ok {
		size = len(p)
	}
	if size > cap(f.chunk)-len(f.chunk) {
		f.chunk = make([]byte, 0, max(size, min(2*cap(f.chunk), keptChunk)))
	}
	start := len(f.chunk)
	if ok {
		f.chunk = appendMembers(f.chunk, ms)
	} else {
		f.chunk = append(f.chunk, p...)
	}
	return f.chunk[start:len(f.chunk):len(f.chunk)]
}
