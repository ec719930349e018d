package tapp

import (
	"bytes"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// Replaying history is almost all reading hand.recorded, and even the token
// decoder spent most of a replay's time there. scanRecorded reads the one
// shape the store holds, as encoding/json wrote it (plain strings, whole
// numbers, amounts as decimal strings), straight from the bytes, making
// nothing it can share: player names come from the game's seats, small
// amounts from a table. Anything else (an escaped string, a float, a
// Ramsch, a null) makes it give up, and the token decoder reads the deal.
// A property test checks both against encoding/json.

// scanRecorded reads a stored hand.recorded into p; false means it met
// something outside its shape and p is to be read again by the decoder.
func scanRecorded(data []byte, p *HandRecorded, players []string) bool {
	s := byteScanner{b: data, names: players}
	ok := s.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "hand":
			p.Hand, ok = s.int()
		case "dealer":
			p.Dealer, ok = s.name()
		case "record":
			ok = s.record(&p.Record)
		case "explanation", "text", "ruleset":
			ok = s.scored(name, p)
		case "pot_after":
			p.PotAfter, ok = s.amount()
		case "deltas":
			p.Deltas, ok = s.deltas()
		case "pot_delta":
			p.PotDelta, ok = s.amount()
		default:
			ok = s.skip()
		}
		return ok
	})
	s.ws()
	return ok && s.i == len(s.b)
}

// scanDealRead reads of a stored hand.recorded what the fold reads
// (DecodeForFold): the number, the dealer, the contract and the amounts by
// seat, and where the members a deal keeps stand. The rest is checked as scanRecorded checks it, and skipped; a name
// not at the table (players) makes it give up too.
func scanDealRead(data []byte, d *dealRead, players []string) bool {
	if len(players) > maxSeats || len(data) > math.MaxInt32 {
		return false
	}
	s := byteScanner{b: data, names: players}
	ok := s.object(func(name []byte) bool {
		s.ws()
		from := s.i
		var ok bool
		switch string(name) {
		case "hand":
			d.hand, ok = s.int()
		case "dealer":
			d.dealer, ok = s.name()
		case "record":
			ok = s.contract(&d.contract)
		case "pot_after":
			_, ok = s.amount()
		case "deltas":
			ok = s.bySeat(&d.deltas)
		case "pot_delta":
			d.potDelta, ok = s.amount()
		default:
			ok = s.skip()
		}
		if k := keptIndex(name); ok && k >= 0 && !d.keeps(k) {
			d.kept[d.nKept] = keptAt{name: k, from: int32(from), to: int32(s.i)}
			d.nKept++
		}
		return ok
	})
	s.ws()
	return ok && s.i == len(s.b)
}

// keeps says whether the deal keeps the member keptNames[k] already.
func (d *dealRead) keeps(k int8) bool {
	for _, at := range d.kept[:d.nKept] {
		if at.name == k {
			return true
		}
	}
	return false
}

// scored reads a recorded deal's explanation, text or ruleset.
func (s *byteScanner) scored(name []byte, p *HandRecorded) bool {
	switch string(name) {
	case "explanation":
		s.ws()
		start := s.i
		if !s.skip() {
			return false
		}
		p.Explanation = bytes.Clone(s.b[start:s.i])
		return true
	case "text":
		var ok bool
		p.Text, ok = s.string()
		return ok
	}
	b, ok := s.str()
	if ok {
		p.Ruleset = payout.RulesetVersion // nearly every deal's
		if string(b) != p.Ruleset {
			p.Ruleset = string(b)
		}
	}
	return ok
}

// contract reads only a record's contract, shared with the variants' own
// names of it.
func (s *byteScanner) contract(c *string) bool {
	return s.object(func(name []byte) bool {
		if string(name) != "contract" {
			return s.skip()
		}
		b, ok := s.str()
		*c = internContract(b)
		return ok
	})
}

// knownContracts are every variant's contracts, made once and never written:
// a fold shares them rather than making the same few strings per deal.
var knownContracts = func() []string {
	var out []string
	for _, v := range payout.Variants() {
		out = append(out, payout.Contracts(v)...)
	}
	return out
}()

func internContract(b []byte) string {
	for _, c := range knownContracts {
		if c == string(b) {
			return c
		}
	}
	return string(b)
}

// record reads a deal as entered; a Ramsch or a null is left to the
// decoder.
func (s *byteScanner) record(r *payout.Record) bool {
	var ints *[3]int // points, tricks, kontra: one allocation for all three
	num := func(k int) (*int, bool) {
		n, ok := s.int()
		if ints == nil {
			ints = new([3]int)
		}
		ints[k] = n
		return &ints[k], ok
	}
	return s.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "contract":
			r.Contract, ok = s.string()
		case "declarer":
			r.Declarer, ok = s.name()
		case "partner":
			r.Partner, ok = s.name()
		case "trump":
			r.Trump, ok = s.string()
		case "matzl":
			r.Matzl, ok = s.string()
		case "points":
			r.Points, ok = num(0)
		case "tricks":
			r.Tricks, ok = num(1)
		case "kontra":
			r.Kontra, ok = num(2)
		case "tout":
			r.Tout, ok = s.bool()
		case "won":
			r.Won, ok = s.bool()
		case "ramsch":
			return false
		default:
			ok = s.skip()
		}
		return ok
	})
}

// deltas reads {"player": amount, …}.
func (s *byteScanner) deltas() (map[string]decimal.Decimal, bool) {
	m := make(map[string]decimal.Decimal, len(s.names))
	ok := s.object(func(name []byte) bool {
		d, ok := s.amount()
		m[s.intern(name)] = d
		return ok
	})
	return m, ok
}

// bySeat reads {"player": amount, …} into the amounts of the players'
// seats; a name of no player makes it give up.
func (s *byteScanner) bySeat(out *[maxSeats]decimal.Decimal) bool {
	return s.object(func(name []byte) bool {
		seat := slices.Index(s.names, string(name))
		if seat < 0 {
			return false
		}
		var ok bool
		out[seat], ok = s.amount()
		return ok
	})
}

// byteScanner walks JSON as encoding/json writes it.
type byteScanner struct {
	b     []byte
	i     int
	names []string // strings to share rather than allocate: the players
}

func (s *byteScanner) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\t' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *byteScanner) next(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads {"name": value, …}, calling member with each name to read
// its value.
func (s *byteScanner) object(member func(name []byte) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	for {
		name, ok := s.str()
		if !ok || !s.next(':') || !member(name) {
			return false
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// str reads a string with nothing to unescape, as it stands in the input.
func (s *byteScanner) str() ([]byte, bool) {
	if !s.next('"') {
		return nil, false
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			b := s.b[start:s.i]
			s.i++
			return b, ascii || utf8.Valid(b)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

func (s *byteScanner) string() (string, bool) {
	b, ok := s.str()
	return string(b), ok
}

// name reads a player's name, shared with the game's seats.
func (s *byteScanner) name() (string, bool) {
	b, ok := s.str()
	return s.intern(b), ok
}

func (s *byteScanner) intern(b []byte) string {
	for _, n := range s.names {
		if n == string(b) {
			return n
		}
	}
	return string(b)
}

// digits reads an optional minus and up to 18 digits: a whole number that
// fits an int64.
func digits(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func (s *byteScanner) bool() (*bool, bool) {
	s.ws()
	for _, lit := range []string{"true", "false"} {
		if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
			s.i += len(lit)
			v := lit == "true"
			return &v, true
		}
	}
	return nil, false
}

func (s *byteScanner) int() (int, bool) {
	s.ws()
	start := s.i
	for s.i < len(s.b) && (s.b[s.i] == '-' || s.b[s.i] >= '0' && s.b[s.i] <= '9') {
		s.i++
	}
	n, ok := digits(s.b[start:s.i])
	return int(n), ok
}

// amount reads an amount stored as a decimal string ("-2", "0.50").
func (s *byteScanner) amount() (decimal.Decimal, bool) {
	b, ok := s.str()
	if !ok {
		return decimal.Decimal{}, false
	}
	if n, ok := digits(b); ok {
		return wholeUnits(n), true
	}
	d, err := decimal.NewFromString(string(b))
	return d, err == nil
}

// skip passes over one value of any kind, checking only that brackets and
// strings close.
func (s *byteScanner) skip() bool {
	s.ws()
	depth := 0
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case '"':
			if !s.skipString() {
				return false
			}
		case '{', '[':
			depth++
			s.i++
			continue
		case '}', ']':
			if depth == 0 {
				return false
			}
			depth--
			s.i++
		case ',', ':':
			if depth == 0 {
				return false
			}
			s.i++
			continue
		default:
			// a number or a literal runs to the next delimiter
			start := s.i
			for s.i < len(s.b) && !delimiter[s.b[s.i]] {
				s.i++
			}
			if s.i == start {
				s.i++ // white space inside a container
				continue
			}
		}
		if depth == 0 {
			return true
		}
	}
	return false
}

// skipString passes over the string at s.i, looking for its closing quote
// with bytes.IndexByte (most of a stored deal's bytes are its sentence and
// its explanation's strings): a quote after an odd number of backslashes
// is escaped.
func (s *byteScanner) skipString() bool {
	from := s.i + 1
	for {
		q := bytes.IndexByte(s.b[from:], '"')
		if q < 0 {
			return false
		}
		q += from
		escapes := 0
		for k := q - 1; k > s.i && s.b[k] == '\\'; k-- {
			escapes++
		}
		if escapes%2 == 0 {
			s.i = q + 1
			return true
		}
		from = q + 1
	}
}

// delimiter marks the bytes that end a number or a literal.
var delimiter = func() (d [256]bool) {
	for _, c := range []byte(",:{}[]\" \n\t\r") {
		d[c] = true
	}
	return d
}()
