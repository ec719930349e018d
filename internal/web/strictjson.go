package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// checkJSON reads a request body as JSON text before encoding/json decodes
// it into v, for what encoding/json lets through and an API that moves
// money must not: a name given twice (the last one won: "points":70 then
// "points":30 was recorded as lost), a name in other letter case than the
// field's ("POINTS" set points), bytes that are not UTF-8 (turned into
// U+FFFD in a player's name), and a body that is not an object (null read
// as {}). The tokenizer is the JSON v2 prototype's, maintained by the Go
// team; it refuses duplicate names and invalid UTF-8 by itself.
func checkJSON(body []byte, v any) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	if k := dec.PeekKind(); k != '{' {
		if k != 0 && dec.SkipValue() == nil {
			return malformed(fmt.Sprintf("the request body must be a JSON object, not %s", kindName(k)))
		}
		return nil // not JSON: encoding/json says where
	}
	err := checkValue(dec, reflect.TypeOf(v))
	var syn *jsontext.SyntacticError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &syn):
		return err // a name in other letter case
	case errors.Is(err, jsontext.ErrDuplicateName):
		return malformed(fmt.Sprintf("the request body names %s twice; give each field once", pointerName(syn.JSONPointer)))
	case strings.Contains(syn.Err.Error(), "UTF-8") || strings.Contains(syn.Err.Error(), "surrogate"):
		return malformed("the request body is not valid UTF-8 text: write names and notes in UTF-8")
	}
	return nil // not JSON: encoding/json says where
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// checkValue reads one value, checking the member names of every object
// in it against the Go type it is decoded into (nil: any names).
func checkValue(dec *jsontext.Decoder, t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && reflect.PointerTo(t).Implements(unmarshaler) {
		t = nil // a type that reads itself: its names are its own business
	}
	switch dec.PeekKind() {
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		for dec.PeekKind() != '}' {
			raw, err := dec.ReadValue() // the name, quoted: read without a copy
			if err != nil {
				return err
			}
			var member reflect.Type
			switch {
			case t != nil && t.Kind() == reflect.Struct:
				name := raw[1 : len(raw)-1]
				if bytes.IndexByte(name, '\\') >= 0 {
					if name, err = jsontext.AppendUnquote(nil, raw); err != nil {
						return err
					}
				}
				var folded bool
				if member, folded = memberType(t, name); folded {
					return unknownField(string(name)) // encoding/json would read it as a field
				}
			case t != nil && t.Kind() == reflect.Map:
				member = t.Elem()
			}
			if err := checkValue(dec, member); err != nil {
				return err
			}
		}
		_, err := dec.ReadToken()
		return err
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.PeekKind() != ']' {
			if err := checkValue(dec, elem); err != nil {
				return err
			}
		}
		_, err := dec.ReadToken()
		return err
	}
	return dec.SkipValue()
}

// memberType finds the field of struct t that JSON member name is read
// into, as encoding/json names fields (embedded structs' fields in line):
// its type, or folded when name matches a field only in letter case.
func memberType(t reflect.Type, name []byte) (member reflect.Type, folded bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		field, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && field == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if m, fo := memberType(ft, name); m != nil || fo {
					return m, fo
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if field == "" {
			field = f.Name
		}
		switch {
		case field == string(name):
			return f.Type, false
		case bytes.EqualFold([]byte(field), name):
			folded = true
		}
	}
	return nil, folded
}

// pointerName writes a JSON pointer (/ramsch/Anna) as the API's field
// names are written in messages (ramsch.Anna).
func pointerName(p jsontext.Pointer) string {
	var parts []string
	for tok := range p.Tokens() {
		parts = append(parts, tok)
	}
	return fmt.Sprintf("%q", strings.Join(parts, "."))
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "true or false"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '[':
		return "a list"
	}
	return "something else"
}

// pathAt is the dotted path of the value that ends at offset in body
// ("ramsch.Anna.points"), or "" when body is no JSON up to there.
func pathAt(body []byte, offset int64) string {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for dec.InputOffset() < offset {
		if _, err := dec.ReadToken(); err != nil {
			return ""
		}
	}
	var parts []string
	for tok := range dec.StackPointer().Tokens() {
		parts = append(parts, tok)
	}
	return strings.Join(parts, ".")
}
