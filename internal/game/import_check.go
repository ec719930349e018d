package game

import (
	"fmt"
	"strconv"
	"time"

	"tappbook/internal/archive"
	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// An import goes through the rules (rules.md "Input checks", last bullet):
// every command a file holds is decided again, in order, on the game or
// group as the file has built it so far, with the Decide every other way in
// uses, and must give the file's events byte for byte. A deal is scored
// again and must move the money the file says; a value the API refuses (a
// point count of 500, a payment of 0.001 CHF, a currency XXXX) is refused
// with the API's words. The times must be possible too (checkTimes).

// Bounds on the time of an imported event. The earliest is years before
// tappbook existed (its export format dates from 2026): an event stamped
// before it comes from a clock that was wrong or a file made by hand. The
// latest is the importing machine's clock and a margin for two machines'
// clocks that disagree by a few minutes.
const (
	earliestYear    = 2020
	importClockSlop = 10 * time.Minute
)

// ImportError is an imported file refused by the rules: the line of the
// event at fault (counted as the file counts them) and what is wrong.
type ImportError struct {
	Line    int
	Stream  string
	Version int64
	Type    string
	Problem string
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("line %d (%s, event %d of %s): %s", e.Line, shown(e.Type), e.Version, e.Stream, e.Problem)
}

// shown is a file's text as a message prints it: as it is when it is
// plain, quoted when it holds what a terminal would obey.
func shown(s string) string {
	if q := strconv.Quote(s); q[1:len(q)-1] != s {
		return q
	}
	return s
}

// lines numbers a file's events as the file holds them: each stream's
// events, then its end record.
type lines map[string]int // stream → the line before its first event

func numberLines(streams []*archive.Stream) lines {
	out := lines{}
	n := 0
	for _, s := range streams {
		out[s.ID] = n
		n += len(s.Events) + 1
	}
	return out
}

func (l lines) refuse(ev events.Event, format string, args ...any) error {
	return &ImportError{Line: l[ev.Stream] + int(ev.Version), Stream: ev.Stream, Version: ev.Version, Type: ev.Type, Problem: fmt.Sprintf(format, args...)}
}

// checkRules decides again every command of a file: the group first, if
// it is a group's, then each game. The first event that is wrong is named.
func checkRules(streams []*archive.Stream, now time.Time) error {
	at := numberLines(streams)
	if err := checkTimes(streams, at, now); err != nil {
		return err
	}
	starts := map[string]tapp.GameStarted{}
	for _, s := range streams {
		if first := s.Events[0]; first.Type == tapp.TypeGameStarted {
			p, err := tapp.Decode(first.Type, first.Data, nil)
			if err != nil {
				return at.refuse(first, "%v", err)
			}
			starts[s.ID] = p.(tapp.GameStarted)
		}
	}
	if err := checkSchemas(streams, at); err != nil {
		return err
	}
	for _, s := range streams {
		var err error
		if s.Events[0].Type == group.TypeStarted {
			err = redecideGroup(s, at, starts)
		} else {
			err = redecideGame(s, at)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkSchemas refuses an event at a schema version this tappbook does not
// write: its payload would be read as what it may not mean.
func checkSchemas(streams []*archive.Stream, at lines) error {
	for _, s := range streams {
		want := tapp.SchemaVersion
		if s.Events[0].Type == group.TypeStarted {
			want = group.SchemaVersion
		}
		for _, ev := range s.Events {
			if ev.SchemaVersion != want {
				return at.refuse(ev, "schema_version %d: this tappbook writes and reads %d", ev.SchemaVersion, want)
			}
		}
	}
	return nil
}

// checkTimes refuses a time before earliestYear, later than now (with a
// margin), or earlier than the event before it in its stream: tappbook
// stamps each command with the server's clock as it appends it, never
// earlier than the stream's last event (events.StampTime), so that a file
// it wrote after importing times within the margin is taken again.
func checkTimes(streams []*archive.Stream, at lines, now time.Time) error {
	earliest := time.Date(earliestYear, time.January, 1, 0, 0, 0, 0, time.UTC)
	latest := now.Add(importClockSlop)
	for _, s := range streams {
		var prev time.Time
		for _, ev := range s.Events {
			t := ev.RecordedAt
			switch {
			case t.Before(earliest):
				return at.refuse(ev, "recorded at %s, before %d: no tappbook wrote it then (a clock that was wrong, or a file made by hand)", t.Format(time.RFC3339), earliestYear)
			case t.After(latest):
				return at.refuse(ev, "recorded at %s, later than now (%s): a time in the future", t.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
			case t.Before(prev):
				return at.refuse(ev, "recorded at %s, before the event above it (%s): a stream's events are recorded in the order of their times", t.Format(time.RFC3339Nano), prev.Format(time.RFC3339Nano))
			}
			prev = t
		}
	}
	return nil
}

// batches calls fn with each command's events: those sharing a batch.
func batches(evs []events.Event, fn func([]events.Event) error) error {
	for i := 0; i < len(evs); {
		j := i + 1
		for j < len(evs) && evs[j].Batch == evs[i].Batch {
			j++
		}
		if err := fn(evs[i:j]); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// redecideGame decides again each command of a game's stream on the game
// folded so far, then folds its events (redecide.go).
func redecideGame(s *archive.Stream, at lines) error {
	f := tapp.NewFolder(s.ID)
	return batches(s.Events, func(evs []events.Event) error {
		if ev, err := redecideGameBatch(f, evs); err != nil {
			return at.refuse(ev, "%v", err)
		}
		return nil
	})
}

// redecideGroup decides again each command of a group's stream on the
// group folded so far, then folds its events (redecide.go). An evening's
// join is decided with the players and money of its game in the same file.
func redecideGroup(s *archive.Stream, at lines, starts map[string]tapp.GameStarted) error {
	f := group.NewFolder(s.ID)
	evening := func(game string) ([]string, string, string, bool) {
		g, ok := starts[game]
		return g.Players, g.Unit, g.Currency, ok
	}
	return batches(s.Events, func(evs []events.Event) error {
		if ev, err := redecideGroupBatch(f, evs, evening); err != nil {
			return at.refuse(ev, "%v", err)
		}
		return nil
	})
}
