package events

import (
	"testing"
	"time"
)

// stamping is one append's time as events.StampTime gives it: given the
// stream's last event's time, when the clock says now, then the time the
// append records.
type stamping struct {
	t         *testing.T
	last, now time.Time
}

var t0 = time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)

func givenLastAt(t *testing.T, last time.Time) *stamping {
	return &stamping{t: t, last: last}
}

func (s *stamping) whenClockSays(now time.Time) *stamping {
	s.now = now
	return s
}

func (s *stamping) then(want time.Time) {
	s.t.Helper()
	got := StampTime(s.now, s.last)
	if !got.Equal(want) || got.Location() != time.UTC {
		s.t.Fatalf("last event at %s, clock at %s: stamped %s, want %s (UTC)", s.last.Format(time.RFC3339Nano), s.now.Format(time.RFC3339Nano), got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
	}
}

func TestStampTime(t *testing.T) {
	for _, c := range []struct {
		name            string
		last, now, want time.Time
	}{
		{"a new stream: the clock, to the microsecond", time.Time{}, t0.Add(1234567 * time.Nanosecond), t0.Add(1234 * time.Microsecond)},
		{"the clock after the last event", t0, t0.Add(time.Second), t0.Add(time.Second)},
		{"the clock at the last event", t0, t0, t0},
		// The attack: an import whose last event was stamped by a machine
		// five minutes ahead (import allows ten), then a deal recorded here.
		{"the last event ahead of the clock (an import)", t0.Add(5 * time.Minute), t0, t0.Add(5 * time.Minute)},
		{"the last event ahead to the nanosecond (a file's time is kept as written)", t0.Add(time.Nanosecond), t0, t0.Add(time.Nanosecond)},
		{"the clock cut to the microsecond falls before the last event", t0.Add(1500 * time.Nanosecond), t0.Add(1900 * time.Nanosecond), t0.Add(1500 * time.Nanosecond)},
		{"a clock in another zone is written in UTC", t0, t0.Add(time.Hour).In(time.FixedZone("CET", 3600)), t0.Add(time.Hour)},
		{"the last event read in another zone", t0.In(time.FixedZone("CET", 3600)), t0.Add(-time.Hour), t0},
	} {
		t.Run(c.name, func(t *testing.T) {
			givenLastAt(t, c.last).whenClockSays(c.now).then(c.want)
		})
	}
}

// A clock that steps back (NTP) while a stream is appended to: each
// append is stamped no earlier than the one before it, and the stream
// follows the clock again once it has caught up.
func TestStampTimeWithAClockSteppingBack(t *testing.T) {
	clock := []time.Duration{0, time.Minute, -time.Hour, -59 * time.Minute, 30 * time.Second, 2 * time.Minute}
	want := []time.Duration{0, time.Minute, time.Minute, time.Minute, time.Minute, 2 * time.Minute}
	var last time.Time
	for i, d := range clock {
		at := StampTime(t0.Add(d), last)
		if !at.Equal(t0.Add(want[i])) {
			t.Fatalf("append %d, clock at %v: stamped %v, want %v", i+1, d, at.Sub(t0), want[i])
		}
		last = at
	}
}
