package events

import (
	"math/rand/v2"
	"testing"
	"time"
)

// The fast reader of recorded_at gives what time.Parse gives for
// every time formatTime writes, and leaves anything else to time.Parse.
func TestParseStoredTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		at := time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).Truncate(time.Duration(1) * []time.Duration{1, 1000, 1e6, 1e9}[rng.IntN(4)])
		s := FormatTime(at)
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseStoredTime([]byte(s))
		if !ok || got != want {
			t.Fatalf("%s: got %v (%v), want %v", s, got, ok, want)
		}
	}
	for _, bad := range []string{"", "2026-11-22T20:15:04", "2026-11-22T20:15:04+01:00", "2026-02-30T20:15:04Z",
		"2026-11-22T24:15:04Z", "2026-11-22 20:15:04Z", "2026-11-22T20:15:04.Z", "2026-11-22T20:15:04.1234567890Z", "2026-1x-22T20:15:04Z"} {
		if got, ok := parseStoredTime([]byte(bad)); ok {
			t.Errorf("%q read as %v", bad, got)
		}
	}
}
