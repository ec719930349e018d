package events

import (
	"encoding/json"
	"fmt"
	"time"
)

// jsonAppender is a payload that writes its own JSON, as encoding/json
// would write it, without reflection (a recorded deal: see tapp/encode.go).
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// encode is an event's payload as stored.
func encode(data any) ([]byte, error) {
	if a, ok := data.(jsonAppender); ok {
		return a.AppendJSON(make([]byte, 0, 512))
	}
	return json.Marshal(data)
}

// parseTime reads the stored recorded_at of event seq.
func parseTime(seq int64, at string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return time.Time{}, fmt.Errorf("event %d: recorded_at %q: %w", seq, at, err)
	}
	return t, nil
}

// parseStoredTime reads recorded_at as formatTime writes it, UTC with up to
// nine fractional digits ("2026-11-22T20:15:04.123456Z"), several times
// faster than time.Parse; anything else is left to time.Parse.
func parseStoredTime(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[len(b)-1] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if frac := b[19 : len(b)-1]; len(frac) > 0 {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		v, ok := num(20, len(frac)-1)
		if !ok {
			return time.Time{}, false
		}
		for range 10 - len(frac) {
			v *= 10
		}
		nsec = v
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // 31 April and the like: time.Date would roll over
		return time.Time{}, false
	}
	return t, true
}
