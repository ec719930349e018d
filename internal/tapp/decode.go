package tapp

import (
	"bytes"
	"fmt"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/shopspring/decimal"

	"tappbook/internal/payout"
)

// A game is almost all recorded deals, so replaying history is mostly
// decoding hand.recorded. encoding/json spends ~5 µs and 43 allocations on
// one; reading it token by token with the JSON v2 tokenizer (the prototype
// of encoding/json/v2, maintained by the Go team) and parsing the small
// whole-unit amounts directly costs a fraction of that. The stored shape is
// the one encoding/json writes for HandRecorded; unknown members are
// skipped, as encoding/json would.

// decodeRecorded decodes a stored hand.recorded of a game with these
// players: scanRecorded reads the usual deal, the token decoder the rest.
func decodeRecorded(data []byte, p *HandRecorded, players []string) error {
	if scanRecorded(data, p, players) {
		return nil
	}
	// A fresh value, so that p itself need not live on the heap.
	q := new(HandRecorded)
	err := decodeRecordedTokens(data, q)
	*p = *q
	return err
}

// decodeRecordedTokens decodes a stored hand.recorded token by token.
func decodeRecordedTokens(data []byte, p *HandRecorded) error {
	// Stored events were written by encoding/json: no duplicate names to
	// look for.
	return jsonv2.Unmarshal(data, p, jsontext.AllowDuplicateNames(true))
}

// UnmarshalJSONFrom reads a recorded deal (see decodeRecorded). Member
// names are compared as they are read, never kept, so they cost nothing.
func (p *HandRecorded) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return readObject(dec, func(name string) error {
		var err error
		switch name {
		case "hand":
			p.Hand, err = readInt(dec)
		case "dealer":
			p.Dealer, err = readString(dec)
		case "record":
			err = readRecord(dec, &p.Record)
		case "pot_after":
			p.PotAfter, err = readDecimal(dec)
		case "deltas":
			p.Deltas, err = readDeltas(dec)
		case "pot_delta":
			p.PotDelta, err = readDecimal(dec)
		case "explanation":
			var v jsontext.Value
			if v, err = dec.ReadValue(); err == nil {
				p.Explanation = bytes.Clone(v) // v lives only until the next read
			}
		case "text":
			p.Text, err = readString(dec)
		case "ruleset":
			p.Ruleset, err = readString(dec)
		default:
			err = dec.SkipValue()
		}
		return err
	})
}

// readRecord reads a deal as entered (payout.Record's JSON form).
func readRecord(dec *jsontext.Decoder, r *payout.Record) error {
	return readObject(dec, func(name string) error {
		var err error
		switch name {
		case "contract":
			r.Contract, err = readString(dec)
		case "declarer":
			r.Declarer, err = readString(dec)
		case "partner":
			r.Partner, err = readString(dec)
		case "trump":
			r.Trump, err = readString(dec)
		case "matzl":
			r.Matzl, err = readString(dec)
		case "points":
			r.Points, err = readIntPtr(dec)
		case "tricks":
			r.Tricks, err = readIntPtr(dec)
		case "kontra":
			r.Kontra, err = readIntPtr(dec)
		case "tout":
			err = jsonv2.UnmarshalDecode(dec, &r.Tout)
		case "ramsch":
			err = jsonv2.UnmarshalDecode(dec, &r.Ramsch)
		default:
			err = dec.SkipValue()
		}
		return err
	})
}

// readObject reads {"name": value, …}, calling member with each name to
// read its value; an error says where by the decoder's position.
func readObject(dec *jsontext.Decoder, member func(name string) error) error {
	if err := openObject(dec); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if err := member(name.String()); err != nil {
			return fmt.Errorf("at %s: %w", dec.StackPointer(), err)
		}
	}
	_, err := dec.ReadToken() // '}'
	return err
}

func readIntPtr(dec *jsontext.Decoder) (*int, error) {
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		return nil, err
	}
	n, err := readInt(dec)
	return &n, err
}

// readDeltas reads {"player": amount, …}.
func readDeltas(dec *jsontext.Decoder) (map[string]decimal.Decimal, error) {
	m := make(map[string]decimal.Decimal, 4)
	err := readObject(dec, func(player string) error {
		d, err := readDecimal(dec)
		m[player] = d
		return err
	})
	return m, err
}

func openObject(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("want an object, found %v", tok.Kind())
	}
	return nil
}

func readString(dec *jsontext.Decoder) (string, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	if tok.Kind() != '"' {
		return "", fmt.Errorf("want a string, found %v", tok.Kind())
	}
	return tok.String(), nil
}

func readInt(dec *jsontext.Decoder) (int, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return 0, err
	}
	if tok.Kind() != '0' {
		return 0, fmt.Errorf("want a number, found %v", tok.Kind())
	}
	return strconv.Atoi(tok.String())
}

// readDecimal reads an amount, stored as a decimal string ("-2", "0.50");
// a JSON number is read too, as decimal.Decimal's own decoder does.
func readDecimal(dec *jsontext.Decoder) (decimal.Decimal, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return decimal.Decimal{}, err
	}
	if k := tok.Kind(); k != '"' && k != '0' {
		return decimal.Decimal{}, fmt.Errorf("want an amount, found %v", k)
	}
	s := tok.String()
	// Deals move whole units: most amounts are small integers, parsed
	// without going through decimal's general parser.
	if n, ok := digits([]byte(s)); ok {
		return wholeUnits(n), nil
	}
	return decimal.NewFromString(s)
}
