package web

import (
	"errors"
	"strconv"

	"tappbook/internal/jsonenc"
)

// AppendJSON appends the answer to a recorded or corrected deal as
// encoding/json writes it, without reflection: every deal is answered
// with one (TestAnswerAsEncodingJSON).
func (a handAnswerJSON) AppendJSON(b []byte) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"hand":`...), int64(a.Hand), 10)
	b = jsonenc.String(append(b, `,"dealer":`...), a.Dealer)
	b = jsonenc.DecimalMap(append(b, `,"deltas":`...), a.Deltas)
	b = jsonenc.Decimal(append(b, `,"pot_delta":`...), a.PotDelta)
	b = jsonenc.Decimal(append(b, `,"pot":`...), a.Pot)
	b = jsonenc.String(append(b, `,"explanation":`...), a.Explanation)
	b, ok := jsonenc.Raw(append(b, `,"detail":`...), a.Detail)
	if !ok {
		return nil, errNotCompact
	}
	return append(b, '}'), nil
}

// errNotCompact: a detail encoding/json would compact or escape; the
// answer is then encoded by encoding/json.
var errNotCompact = errors.New("the detail is not compact JSON")
