// Package problem is tappbook's one vocabulary of refusals. A refused
// request is an *Error: its kind (bad input, not found, a conflict with the
// state of the game), a stable code the UI translates, the field at fault
// and the values its message names. Each package that refuses things keeps
// its English messages in a Catalogue and makes its errors from it; the UI
// translates the same codes. It imports nothing of tappbook but the leaf that chooses plural forms.
package problem

import (
	"errors"
	"fmt"
	"maps"

	"golang.org/x/text/language"

	"tappbook/internal/plurals"
)

// Kind is what sort of refusal an error is; it decides the HTTP status.
type Kind uint8

const (
	// Input: the request is against the rules or malformed (400/422).
	Input Kind = iota + 1
	// NotFound: no such game, deal or group (404).
	NotFound
	// Conflict: the request does not fit the state it met: closed, stale,
	// out of turn (409).
	Conflict
)

func (k Kind) String() string {
	switch k {
	case Input:
		return "input"
	case NotFound:
		return "not found"
	case Conflict:
		return "conflict"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is one refusal. Error() is its English sentence; Code and Args let
// a UI say the same in another language.
type Error struct {
	Kind  Kind
	Code  string // stable message key, e.g. "points.range"
	Field string // the api.md field at fault, e.g. "ramsch.Anna.tricks"; "" when none
	Args  []any
	// Malformed: the wrong JSON type rather than a value against the rules
	// (400, not 422).
	Malformed bool

	format string // the English printf format of Code
}

func (e *Error) Error() string {
	return fmt.Sprintf(plurals.Choose(language.English, e.format, e.Args), e.Args...)
}

// As unwraps err to an *Error, if it is one.
func As(err error) (*Error, bool) {
	var pe *Error
	ok := errors.As(err, &pe)
	return pe, ok
}

// IsKind reports whether err is a refusal of kind k.
func IsKind(err error, k Kind) bool {
	pe, ok := As(err)
	return ok && pe.Kind == k
}

// Catalogue is one package's messages: code → English printf format. It is
// immutable once made.
type Catalogue struct {
	msgs map[string]string
}

// NewCatalogue makes a catalogue of these messages (copied).
func NewCatalogue(msgs map[string]string) Catalogue {
	return Catalogue{msgs: maps.Clone(msgs)}
}

// Messages gives a copy of the catalogue, for translators and their tests.
func (c Catalogue) Messages() map[string]string { return maps.Clone(c.msgs) }

// English gives a code's English format; an unknown code says so rather
// than failing, and the catalogue tests keep that from happening.
func (c Catalogue) English(code string) string {
	if f, ok := c.msgs[code]; ok {
		return f
	}
	return "unknown problem (" + code + ")"
}

// New makes an error of kind k.
func (c Catalogue) New(k Kind, field, code string, args ...any) *Error {
	return &Error{Kind: k, Code: code, Field: field, Args: args, format: c.English(code)}
}

// Input is a value against the rules, in field.
func (c Catalogue) Input(field, code string, args ...any) *Error {
	return c.New(Input, field, code, args...)
}

// Malformed is a value of the wrong type, in field.
func (c Catalogue) Malformed(field, code string, args ...any) *Error {
	e := c.New(Input, field, code, args...)
	e.Malformed = true
	return e
}

// NotFound is something the request names that does not exist.
func (c Catalogue) NotFound(code string, args ...any) *Error {
	return c.New(NotFound, "", code, args...)
}

// Conflict is a request the state it met refuses.
func (c Catalogue) Conflict(code string, args ...any) *Error {
	return c.New(Conflict, "", code, args...)
}

// Join puts several catalogues into one; a code given twice is a
// programming error and is reported.
func Join(cats ...Catalogue) (Catalogue, error) {
	out := map[string]string{}
	for _, c := range cats {
		for k, f := range c.msgs {
			if _, dup := out[k]; dup {
				return Catalogue{}, fmt.Errorf("join catalogues: message %q is defined twice", k)
			}
			out[k] = f
		}
	}
	return Catalogue{msgs: out}, nil
}
