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
	k := dec.PeekKind()
	err := dec.SkipValue()
	if err == nil && k != '{' {
		return malformed(fmt.Sprintf("the request body must be a JSON object, not %s", kindName(k)))
	}
	if err == nil {
		dec = jsontext.NewDecoder(bytes.NewReader(body))
		err = checkValue(dec, reflect.TypeOf(v))
	}
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
	return nil // not JSON at all: encoding/json says where
}

// checkValue reads one value, checking the member names of every object
// in it against the Go type it is decoded into.
func checkValue(dec *jsontext.Decoder, t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		t = nil // a type that reads itself: its names are its own business
	}
	switch dec.PeekKind() {
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = jsonFields(t, map[string]reflect.Type{})
		}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			name := tok.String()
			var member reflect.Type
			switch {
			case fields != nil:
				var ok bool
				if member, ok = fields[name]; !ok {
					for f := range fields {
						if strings.EqualFold(f, name) {
							return unknownField(name) // encoding/json would read it as f
						}
					}
				}
			case t != nil && t.Kind() == reflect.Map:
				member = t.Elem()
			}
			if err := checkValue(dec, member); err != nil {
				return err
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		return nil
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
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		return nil
	}
	if err := dec.SkipValue(); err != nil {
		return err
	}
	return nil
}

// jsonFields gives a struct's JSON member names as encoding/json names
// them, with embedded structs' fields in line.
func jsonFields(t reflect.Type, into map[string]reflect.Type) map[string]reflect.Type {
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				jsonFields(ft, into)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[name] = f.Type
	}
	return into
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
