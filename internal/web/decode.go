package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/payout"
)

// decode reads a JSON body strictly: malformed JSON or a wrong type is a 400,
// an unknown field a 422. An empty body is allowed only where every field is
// optional.
func decode(c echo.Context, v any, emptyOK bool) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return he
		}
		return echo.NewHTTPError(http.StatusBadRequest, "the request body could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if emptyOK {
			return nil
		}
		return malformed("the request body is empty; send a JSON object")
	}
	if err := checkJSON(body, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeErr(err, body)
	}
	if dec.More() {
		return malformed("the request body holds more than one JSON value")
	}
	return nil
}

func malformed(msg string) error { return echo.NewHTTPError(http.StatusBadRequest, msg) }

func unknownField(name string) error { return payout.UnknownField(name) }

func decodeErr(err error, body []byte) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return malformed(fmt.Sprintf("the request body is not valid JSON (at byte %d): %v", syn.Offset, err))
	case errors.As(err, &typ):
		field := strings.TrimPrefix(typ.Field, "Record.")
		if at := pathAt(body, typ.Offset); at != "" {
			field = at // with a map's keys, which encoding/json leaves out ("ramsch.Anna.points")
		}
		if field == "" {
			return malformed(fmt.Sprintf("the request body must be a JSON object, not %s", jsonValue(typ.Value)))
		}
		return malformed(fmt.Sprintf("%s: must be %s, not %s", field, jsonKind(typ.Type.String()), jsonValue(typ.Value)))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return unknownField(strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return malformed("the request body is cut short: it is not complete JSON")
	}
	return malformed("the request body could not be read as JSON: " + err.Error())
}

// jsonValue says what was sent, from encoding/json's "number 70.5",
// "string", "array", ….
func jsonValue(v string) string {
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return n
	}
	switch v {
	case "number":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	return v
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map"), strings.Contains(goType, "Score"):
		return "an object"
	case strings.Contains(goType, "int"):
		return "a whole number"
	case strings.HasSuffix(goType, "string"):
		return "a string"
	case strings.Contains(goType, "bool"):
		return "true or false"
	}
	return "of another type"
}
